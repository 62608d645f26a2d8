#pragma once
// Free/busy bookkeeping of every GPU with per-server free counts, built for the queries that
// placements ask thousands of times per run: first or best server with at least n free GPUs
// and fully free servers. Servers are indexed in bitsets by their free count. A restriction
// limits every query to the servers one job may use (its partitions and GPU type,
// JobState::excluded_servers; docs/architecture.md 2.10), so that every placement keeps a job's
// request without knowing about it.
#include <cstdint>
#include <span>
#include <vector>

#include "core/model/cluster.h"

namespace cl {

class GpuPool {
public:
    explicit GpuPool(const Cluster& cluster);

    void reset();  // every GPU free
    // Takes over which GPUs are busy from another pool of the same cluster.
    void copyStateFrom(const GpuPool& other);
    int servers() const { return static_cast<int>(capacity_.size()); }
    // Free GPUs on the servers the restriction allows (all of them when there is none).
    int totalFree() const { return excluded_ ? allowed_free_ : total_free_; }
    int totalGpus() const { return total_gpus_; }
    // 0 on a server the restriction excludes: placements then never take from it.
    int serverFree(int s) const { return excluded(s) ? 0 : free_[s]; }
    int serverCapacity(int s) const { return capacity_[s]; }
    int serverOf(int gpu) const { return gpu_server_[gpu]; }
    int firstGpu(int s) const { return first_gpu_[s]; }
    bool isFree(int gpu) const { return !busy_[gpu]; }
    bool fullyFree(int s) const { return free_[s] == capacity_[s] && !excluded(s); }

    // Limits the queries above (free counts, fully free servers, first and best server) to the
    // servers not marked in `excluded_servers` (one mark per server, 1 = not allowed) until
    // restrict() is called again; an empty span lifts the restriction. The marks must outlive it.
    void restrict(std::span<const char> excluded_servers);
    bool restricted() const { return excluded_ != nullptr; }
    // Restricts a pool for one scope (one job's or one group's placement).
    class Restriction {
    public:
        Restriction(GpuPool& pool, std::span<const char> excluded_servers) : pool_(pool) {
            pool_.restrict(excluded_servers);
        }
        ~Restriction() { pool_.restrict({}); }
        Restriction(const Restriction&) = delete;
        Restriction& operator=(const Restriction&) = delete;

    private:
        GpuPool& pool_;
    };

    void take(int gpu);
    void release(int gpu);
    // Takes every GPU of a sorted list (a job's holding), one bitset update per server.
    void takeAll(std::span<const int> sorted_gpus);
    // Server indices by capacity, largest first (ties by index); fixed for the cluster.
    const std::vector<int>& serversByCapacity() const { return by_capacity_; }
    // Takes the n lowest-numbered free GPUs of server s (n <= serverFree(s)).
    void takeOnServer(int s, int n, std::vector<int>& out);
    // Counts only: takeOnServer then only lowers the free counts and lists no GPU, and which
    // GPUs are free is unknown until the next reset() or copyStateFrom(). For walks that only
    // ask whether jobs fit (placements decide by free counts alone).
    void setCountsOnly(bool on) { counts_only_ = on; }

    // Lowest-index server with at least n free GPUs, skipping `exclude` (-1 = none found).
    int firstServerWithFree(int n, const std::vector<char>* exclude = nullptr) const;
    // Server with the fewest free GPUs that still has n, lowest index on ties.
    int bestFitServer(int n, const std::vector<char>* exclude = nullptr) const;

private:
    // Moves server s into (on) or out of (off) the level of its current free count.
    void setLevel(int s, bool on) {
        const auto level = static_cast<std::size_t>(free_[s]);
        std::uint64_t& word = levels_[level * words_ + static_cast<std::size_t>(s >> 6)];
        const std::uint64_t bit = std::uint64_t{1} << (s & 63);
        if (on) {
            word |= bit;
            if (++level_size_[level] == 1 && level < 64) occupied_levels_ |= std::uint64_t{1} << level;
        } else {
            word &= ~bit;
            if (--level_size_[level] == 0 && level < 64) occupied_levels_ &= ~(std::uint64_t{1} << level);
        }
    }
    int lowestInLevel(int level, const std::vector<char>* exclude) const;
    bool excluded(int s) const { return excluded_ && excluded_[s]; }
    // Takes n free GPUs of server s off the totals (the restricted one too when s is allowed).
    void countTaken(int s, int n) {
        total_free_ -= n;
        if (excluded_ && !excluded_[s]) allowed_free_ -= n;
    }

    std::vector<int> capacity_;
    std::vector<int> by_capacity_;
    std::vector<int> free_;
    std::vector<int> first_gpu_;
    std::vector<int> gpu_server_;
    std::vector<char> busy_;
    int total_free_ = 0;
    int total_gpus_ = 0;
    int max_capacity_ = 0;
    bool counts_only_ = false;
    const char* excluded_ = nullptr;  // the restriction's marks, nullptr = none
    int allowed_free_ = 0;            // free GPUs on the allowed servers, under a restriction
    // Level f is the bitset of servers with f free GPUs, words_ words from levels_[f * words_]
    // (one array: a vector per level cost an indirection per update); level_size_[f] counts
    // them, so that searches skip empty levels. empty_* are both for an all-free pool: reset()
    // copies them.
    std::size_t words_ = 0;
    std::vector<std::uint64_t> levels_, empty_levels_;
    std::vector<int> level_size_, empty_level_size_;
    // Bit f set when level f has a server (levels below 64): a best fit finds its level with
    // one bit scan instead of a data-dependent branch per level (docs/architecture.md 2.9).
    std::uint64_t occupied_levels_ = 0, empty_occupied_levels_ = 0;
};

}  // namespace cl
