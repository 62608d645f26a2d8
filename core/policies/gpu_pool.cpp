#include "core/policies/gpu_pool.h"

#include <algorithm>
#include <bit>

namespace cl {

GpuPool::GpuPool(const Cluster& cluster) {
    int g = 0;
    for (const auto& s : cluster.servers) {
        capacity_.push_back(s.gpus);
        first_gpu_.push_back(g);
        for (int i = 0; i < s.gpus; ++i) gpu_server_.push_back(static_cast<int>(capacity_.size()) - 1);
        g += s.gpus;
        max_capacity_ = std::max(max_capacity_, s.gpus);
    }
    total_gpus_ = g;
    by_capacity_.resize(capacity_.size());
    for (std::size_t i = 0; i < capacity_.size(); ++i) by_capacity_[i] = static_cast<int>(i);
    std::stable_sort(by_capacity_.begin(), by_capacity_.end(),
                     [&](int a, int b) { return capacity_[a] > capacity_[b]; });
    busy_.assign(g, 0);
    free_ = capacity_;
    words_ = (capacity_.size() + 63) / 64;
    levels_.assign(static_cast<std::size_t>(max_capacity_ + 1) * words_, 0);
    level_size_.assign(max_capacity_ + 1, 0);
    for (int s = 0; s < servers(); ++s) setLevel(s, true);
    empty_levels_ = levels_;
    empty_level_size_ = level_size_;
    empty_occupied_levels_ = occupied_levels_;
    total_free_ = total_gpus_;
}

void GpuPool::reset() {
    levels_ = empty_levels_;
    level_size_ = empty_level_size_;
    occupied_levels_ = empty_occupied_levels_;
    free_ = capacity_;
    std::fill(busy_.begin(), busy_.end(), 0);
    total_free_ = total_gpus_;
    if (excluded_) restrict({excluded_, capacity_.size()});
}

void GpuPool::copyStateFrom(const GpuPool& other) {
    free_ = other.free_;
    busy_ = other.busy_;
    levels_ = other.levels_;
    level_size_ = other.level_size_;
    occupied_levels_ = other.occupied_levels_;
    total_free_ = other.total_free_;
    if (excluded_) restrict({excluded_, capacity_.size()});
}

void GpuPool::restrict(std::span<const char> excluded_servers) {
    excluded_ = excluded_servers.empty() ? nullptr : excluded_servers.data();
    if (!excluded_) return;
    allowed_free_ = 0;
    for (int s = 0; s < servers(); ++s)
        if (!excluded_[s]) allowed_free_ += free_[s];
}

void GpuPool::take(int gpu) {
    if (busy_[gpu]) return;
    int s = gpu_server_[gpu];
    setLevel(s, false);
    busy_[gpu] = 1;
    --free_[s];
    countTaken(s, 1);
    setLevel(s, true);
}

void GpuPool::takeAll(std::span<const int> gpus) {
    std::size_t i = 0;
    while (i < gpus.size()) {
        int s = gpu_server_[gpus[i]];
        setLevel(s, false);
        for (; i < gpus.size() && gpu_server_[gpus[i]] == s; ++i) {
            if (busy_[gpus[i]]) continue;
            busy_[gpus[i]] = 1;
            --free_[s];
            countTaken(s, 1);
        }
        setLevel(s, true);
    }
}

void GpuPool::release(int gpu) {
    if (!busy_[gpu]) return;
    int s = gpu_server_[gpu];
    setLevel(s, false);
    busy_[gpu] = 0;
    ++free_[s];
    countTaken(s, -1);
    setLevel(s, true);
}

void GpuPool::takeOnServer(int s, int n, std::vector<int>& out) {
    setLevel(s, false);
    if (counts_only_) {
        n = std::min(n, free_[s]);
        free_[s] -= n;
        countTaken(s, n);
        setLevel(s, true);
        return;
    }
    for (int g = first_gpu_[s]; n > 0 && g < first_gpu_[s] + capacity_[s]; ++g) {
        if (busy_[g]) continue;
        busy_[g] = 1;
        --free_[s];
        countTaken(s, 1);
        out.push_back(g);
        --n;
    }
    setLevel(s, true);
}

int GpuPool::lowestInLevel(int level, const std::vector<char>* exclude) const {
    const std::uint64_t* words = &levels_[static_cast<std::size_t>(level) * words_];
    for (std::size_t w = 0; w < words_; ++w) {
        std::uint64_t bits = words[w];
        while (bits) {
            int s = static_cast<int>(w * 64) + std::countr_zero(bits);
            if ((!exclude || !(*exclude)[s]) && !excluded(s)) return s;
            bits &= bits - 1;
        }
    }
    return -1;
}

int GpuPool::firstServerWithFree(int n, const std::vector<char>* exclude) const {
    int best = -1;
    for (int f = std::max(n, 1); f <= max_capacity_; ++f) {
        if (level_size_[f] == 0) continue;
        int s = lowestInLevel(f, exclude);
        if (s >= 0 && (best < 0 || s < best)) best = s;
    }
    return best;
}

int GpuPool::bestFitServer(int n, const std::vector<char>* exclude) const {
    const int from = std::max(n, 1);
    if (from > max_capacity_) return -1;
    if (max_capacity_ < 64) {  // the occupied levels from `from` up, lowest first
        for (std::uint64_t levels = occupied_levels_ & (~std::uint64_t{0} << from); levels != 0;
             levels &= levels - 1) {
            const int s = lowestInLevel(std::countr_zero(levels), exclude);
            if (s >= 0) return s;
        }
        return -1;
    }
    for (int f = from; f <= max_capacity_; ++f) {
        if (level_size_[f] == 0) continue;
        int s = lowestInLevel(f, exclude);
        if (s >= 0) return s;
    }
    return -1;
}

}  // namespace cl
