// Tetris's packing heuristic as a priority order (Synergy, OSDI 2022, section 5.7).
//
// What the paper says: Tetris (Grandl et al., SIGCOMM 2014) packs tasks onto machines by
// the alignment score, the dot product of a task's peak demand vector and the machine's
// available resources (both normalised by the machine's capacity), considering only tasks
// that fit; Synergy feeds it each job's best-case CPU and memory demand.
//
// What we decided (simplifications):
// - cluster level, not per server: placement is the mechanism's job, so the order scores
//   each job against the whole cluster's free resources,
//     score = sum over (GPU, CPU, memory) of (demand / capacity) x (free / capacity),
//   higher first, with demand = GPUs and best-case CPU and memory
//   (core/policies/job_demand.h);
// - free = capacity minus the demand vectors of the running jobs (an estimate: what a
//   running job really holds depends on the mechanism); a running job is scored against
//   free plus its own demand, i.e. what would be free without it, so it is not penalised
//   for what it holds itself;
// - jobs that fit what is free (in every dimension) rank before jobs that do not, as
//   Tetris only scores tasks that fit; among the others the score still orders them;
// - no remaining-work (SRTF) term and no fairness knob; ties keep the previous order.
#include "core/policies/job_demand.h"
#include "core/policies/priority_order.h"

#include <algorithm>

namespace cl {

namespace {

class TetrisOrder : public KeyedOrder {
public:
    std::string name() const override { return "tetris"; }
    bool rankingChangesWithTime() const override { return false; }

protected:
    void prepare(const SchedulerInput& in) override {
        demands_.prepare(in);
        free_ = demands_.capacity();
        for (const JobState& j : in.active) {
            if (!j.running) continue;
            const DemandVector d = demands_.demand(j);
            free_.gpus -= d.gpus;
            free_.cpus -= d.cpus;
            free_.memory_gb -= d.memory_gb;
        }
    }
    double key(const JobState& j) const override {
        const DemandVector d = demands_.demand(j);
        const DemandVector& cap = demands_.capacity();
        DemandVector avail = free_;
        if (j.running) {
            avail.gpus += d.gpus;
            avail.cpus += d.cpus;
            avail.memory_gb += d.memory_gb;
        }
        constexpr double kSlack = 1e-9;
        const bool fits = d.gpus <= avail.gpus + kSlack && d.cpus <= avail.cpus + kSlack &&
                          d.memory_gb <= avail.memory_gb + kSlack;
        double score = 0.0;
        auto term = [&score](double demand, double available, double capacity) {
            if (capacity > 0) score += (demand / capacity) * (std::max(0.0, available) / capacity);
        };
        term(d.gpus, avail.gpus, cap.gpus);
        term(d.cpus, avail.cpus, cap.cpus);
        term(d.memory_gb, avail.memory_gb, cap.memory_gb);
        // Scores are at most 3; fitting jobs first, then by score, higher first.
        return (fits ? -10.0 : 0.0) - score;
    }

private:
    JobDemands demands_;
    DemandVector free_;
};

}  // namespace

std::unique_ptr<PriorityOrder> makeTetrisOrder() {
    return std::make_unique<TetrisOrder>();
}

}  // namespace cl
