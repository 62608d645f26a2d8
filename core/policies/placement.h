#pragma once
// Placements choose concrete GPUs for a job from the free ones.
//  consolidated: as few servers as the layout allows (one server when the job fits on one;
//                otherwise whole free servers plus one server for the remainder), choosing
//                the best-fitting server, or the first one by index ("yarn", muri-artifact);
//  firstfit:     one server if any has room (first by index), else free GPUs in index order;
//  count:        any free GPUs (admission by count only, no fragmentation).
#include <memory>
#include <string>
#include <vector>

#include "core/policies/free_counts.h"
#include "core/policies/gpu_pool.h"

namespace cl {

class Placement {
public:
    virtual ~Placement() = default;
    virtual std::string name() const = 0;
    // On success takes the GPUs from the pool, appends them to `out` and returns true;
    // on failure leaves pool and `out` unchanged.
    virtual bool place(int gpus, GpuPool& pool, std::vector<int>& out) const = 0;
    // True when whether jobs fit depends only on how many servers have how many free GPUs (in
    // a cluster of equal servers): admit() then answers as place() would, much faster.
    virtual bool decidesByFreeCounts() const { return false; }
    // Whether place() would place a job of `gpus` GPUs on a pool with these free counts; if
    // so, takes them from the counts. Only when decidesByFreeCounts().
    virtual bool admit(int /*gpus*/, FreeCounts& /*counts*/) const { return false; }
};

std::unique_ptr<Placement> makeConsolidatedPlacement(bool first_fit_servers);
std::unique_ptr<Placement> makeFirstFitPlacement();
std::unique_ptr<Placement> makeCountPlacement();

}  // namespace cl
