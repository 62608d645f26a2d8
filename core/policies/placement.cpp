#include "core/policies/placement.h"

#include <algorithm>

namespace cl {

namespace {

class ConsolidatedPlacement : public Placement {
public:
    explicit ConsolidatedPlacement(bool first_fit) : first_fit_(first_fit) {}
    std::string name() const override { return "consolidated"; }

    bool place(int gpus, GpuPool& pool, std::vector<int>& out) const override {
        if (gpus > pool.totalFree()) return false;
        int single = pick(gpus, pool, nullptr);
        if (single >= 0) {
            pool.takeOnServer(single, gpus, out);
            return true;
        }
        // Larger than any server's free room: whole free servers, then one for the remainder.
        std::vector<int> whole;
        int remaining = gpus;
        for (int s : fullyFreeServersInPreferenceOrder(pool)) {
            if (remaining < pool.serverCapacity(s)) continue;
            whole.push_back(s);
            remaining -= pool.serverCapacity(s);
            if (remaining == 0) break;
        }
        int rest = -1;
        if (remaining > 0) {
            std::vector<char> exclude(pool.servers(), 0);
            for (int s : whole) exclude[s] = 1;
            rest = pick(remaining, pool, &exclude);
            if (rest < 0) return false;
        }
        if (whole.empty() && rest < 0) return false;
        for (int s : whole) pool.takeOnServer(s, pool.serverCapacity(s), out);
        if (rest >= 0) pool.takeOnServer(rest, remaining, out);
        return true;
    }

    // Best fit chooses by free counts; first fit ("yarn") by index, which counts do not tell.
    bool decidesByFreeCounts() const override { return !first_fit_; }

    // place()'s choices with every server of counts.capacity GPUs: the best-fitting server is
    // the lowest level with a server at or above the demand; whole free servers are taken while
    // the remainder is at least a server; the remainder's server is not one of those.
    bool admit(int gpus, FreeCounts& counts) const override {
        if (gpus > counts.total_free) return false;
        const int capacity = counts.capacity;
        std::vector<int>& with = counts.servers_with;
        const auto pick = [&](int n, int whole_taken) {
            for (int f = std::max(n, 1); f <= capacity; ++f)
                if (with[f] - (f == capacity ? whole_taken : 0) > 0) return f;
            return -1;
        };
        const int single = pick(gpus, 0);
        if (single >= 0) {
            --with[single];
            ++with[single - gpus];
            counts.total_free -= gpus;
            return true;
        }
        const int whole = std::min(with[capacity], gpus / capacity);
        const int remaining = gpus - whole * capacity;
        int rest = -1;
        if (remaining > 0) {
            rest = pick(remaining, whole);
            if (rest < 0) return false;
        }
        if (whole == 0 && rest < 0) return false;
        with[capacity] -= whole;
        with[0] += whole;
        if (rest >= 0) {
            --with[rest];
            ++with[rest - remaining];
        }
        counts.total_free -= gpus;
        return true;
    }

private:
    int pick(int n, const GpuPool& pool, const std::vector<char>* exclude) const {
        return first_fit_ ? pool.firstServerWithFree(n, exclude) : pool.bestFitServer(n, exclude);
    }

    std::vector<int> fullyFreeServersInPreferenceOrder(const GpuPool& pool) const {
        std::vector<int> v;
        // Best fit prefers the biggest servers so the job spans fewer of them.
        if (first_fit_) {
            for (int s = 0; s < pool.servers(); ++s)
                if (pool.fullyFree(s)) v.push_back(s);
        } else {
            for (int s : pool.serversByCapacity())
                if (pool.fullyFree(s)) v.push_back(s);
        }
        return v;
    }

    bool first_fit_;
};

void takeLowestFree(int gpus, GpuPool& pool, std::vector<int>& out) {
    for (int s = 0; s < pool.servers() && gpus > 0; ++s) {
        int n = std::min(gpus, pool.serverFree(s));
        if (n > 0) pool.takeOnServer(s, n, out);
        gpus -= n;
    }
}

class FirstFitPlacement : public Placement {
public:
    std::string name() const override { return "firstfit"; }
    bool place(int gpus, GpuPool& pool, std::vector<int>& out) const override {
        if (gpus > pool.totalFree()) return false;
        int s = pool.firstServerWithFree(gpus);
        if (s >= 0) {
            pool.takeOnServer(s, gpus, out);
        } else {
            takeLowestFree(gpus, pool, out);
        }
        return true;
    }
};

class CountPlacement : public Placement {
public:
    std::string name() const override { return "count"; }
    bool place(int gpus, GpuPool& pool, std::vector<int>& out) const override {
        if (gpus > pool.totalFree()) return false;
        takeLowestFree(gpus, pool, out);
        return true;
    }
};

}  // namespace

std::unique_ptr<Placement> makeConsolidatedPlacement(bool first_fit_servers) {
    return std::make_unique<ConsolidatedPlacement>(first_fit_servers);
}
std::unique_ptr<Placement> makeFirstFitPlacement() {
    return std::make_unique<FirstFitPlacement>();
}
std::unique_ptr<Placement> makeCountPlacement() {
    return std::make_unique<CountPlacement>();
}

}  // namespace cl
