#include "core/interleave/stage_schedule.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/interleave/stage_jobs.h"

namespace cl {

namespace {

constexpr int kStorage = 0, kCpu = 1, kGpu = 2, kNetwork = 3;

struct LoadStage {
    int job;
    int iteration;
    double start, end;
};

void emit(std::vector<StageInterval>& out, int job, int resource, int iteration, double t0, double t1) {
    if (t1 > t0) out.push_back(StageInterval{job, resource, iteration, t0, t1});
}

// Stage 0 of 3-stage jobs: loads are in start order and at most two overlap (a load starts
// only after the load two places earlier has ended). The newer of two overlapping loads is
// drawn on storage, the older on CPU, a load alone on both.
void emitLoads(std::vector<StageInterval>& out, const std::vector<LoadStage>& loads) {
    for (std::size_t m = 0; m < loads.size(); ++m) {
        const LoadStage& l = loads[m];
        double alone_from = l.start;
        if (m > 0) alone_from = std::clamp(loads[m - 1].end, l.start, l.end);
        double alone_to = l.end;
        if (m + 1 < loads.size()) alone_to = std::clamp(loads[m + 1].start, alone_from, l.end);
        emit(out, l.job, kStorage, l.iteration, l.start, alone_from);
        emit(out, l.job, kStorage, l.iteration, alone_from, alone_to);
        emit(out, l.job, kCpu, l.iteration, alone_from, alone_to);
        emit(out, l.job, kCpu, l.iteration, alone_to, l.end);
    }
}

// Eq. 3 with barriers between phases.
void explicitSchedule(std::vector<StageInterval>& out, const std::vector<std::vector<double>>& stages,
                      const std::vector<int>& order, int iterations) {
    const std::size_t k = stages.front().size();
    const std::size_t p = order.size();
    double phase_start = 0.0;
    for (std::size_t j = 0; j < k * static_cast<std::size_t>(iterations); ++j) {
        const int iteration = static_cast<int>(j / k);
        double phase_end = phase_start;
        for (std::size_t i = 0; i < p; ++i) {
            const int job = order[i];
            const std::size_t stage = (i + j) % k;
            const double t = stages[static_cast<std::size_t>(job)][stage];
            emit(out, job, static_cast<int>(stage), iteration, phase_start, phase_start + t);
            phase_end = std::max(phase_end, phase_start + t);
        }
        phase_start = phase_end;
    }
}

// The slot recurrence, run for 4 * iterations slots, each stage waiting for its slot's
// start (the latest end of the stages ending there) and for its resource.
void slotSchedule(std::vector<StageInterval>& out, const std::vector<std::vector<double>>& stages,
                  const std::vector<int>& order, int iterations) {
    const int p = static_cast<int>(order.size());
    const int slots = 4 * iterations;
    std::vector<double> slot_start(static_cast<std::size_t>(slots) + 2, 0.0);
    auto ends_at = [&](int slot, double end) {
        double& s = slot_start[static_cast<std::size_t>(slot)];
        s = std::max(s, end);
    };
    double gpu_free = 0.0, network_free = 0.0;
    std::vector<LoadStage> loads;
    for (int i = 0; i < slots; ++i) {
        const double start = slot_start[static_cast<std::size_t>(i)];
        const int iteration = i / 4;
        if (const int pos = (i + 1) % 4; pos < p) {
            const int job = order[static_cast<std::size_t>(pos)];
            const double s = std::max(start, network_free);
            const double e = s + stages[static_cast<std::size_t>(job)][2];
            network_free = e;
            ends_at(i + 1, e);
            emit(out, job, kNetwork, iteration, s, e);
        }
        if (const int pos = (i + 2) % 4; pos < p) {
            const int job = order[static_cast<std::size_t>(pos)];
            const double s = std::max(start, gpu_free);
            const double e = s + stages[static_cast<std::size_t>(job)][1];
            gpu_free = e;
            ends_at(i + 1, e);
            emit(out, job, kGpu, iteration, s, e);
        }
        if (const int pos = i % 4; pos < p) {
            const int job = order[static_cast<std::size_t>(pos)];
            double s = start;
            if (!loads.empty()) s = std::max(s, loads.back().start);
            if (loads.size() >= 2) s = std::max(s, loads[loads.size() - 2].end);
            const double e = s + stages[static_cast<std::size_t>(job)][0];
            ends_at(i + 2, e);
            loads.push_back(LoadStage{job, iteration, s, e});
        }
    }
    emitLoads(out, loads);
}

void splitPairSchedule(std::vector<StageInterval>& out, const std::vector<std::vector<double>>& stages,
                       const std::vector<int>& order, int iterations) {
    std::vector<LoadStage> loads;
    double phase_start = 0.0;
    for (int m = 0; m < 2 * iterations; ++m) {
        const int loader = order[static_cast<std::size_t>(m % 2)];
        const int worker = order[static_cast<std::size_t>(1 - m % 2)];
        const auto& l = stages[static_cast<std::size_t>(loader)];
        const auto& w = stages[static_cast<std::size_t>(worker)];
        const int iteration = m / 2;
        loads.push_back(LoadStage{loader, iteration, phase_start, phase_start + l[0]});
        emit(out, worker, kGpu, iteration, phase_start, phase_start + w[1]);
        emit(out, worker, kNetwork, iteration, phase_start + w[1], phase_start + w[1] + w[2]);
        phase_start += std::max(l[0], w[1] + w[2]);
    }
    emitLoads(out, loads);
}

void checkOrder(const std::vector<int>& order, std::size_t p) {
    if (order.size() != p)
        throw std::invalid_argument("stageSchedule: the order has " + std::to_string(order.size()) +
                                    " entries for " + std::to_string(p) + " jobs");
    std::vector<bool> seen(p, false);
    for (int j : order) {
        if (j < 0 || static_cast<std::size_t>(j) >= p || seen[static_cast<std::size_t>(j)])
            throw std::invalid_argument("stageSchedule: the order must be a permutation of 0.." +
                                        std::to_string(p - 1));
        seen[static_cast<std::size_t>(j)] = true;
    }
}

}  // namespace

std::vector<StageInterval> stageSchedule(const std::vector<std::vector<double>>& stages,
                                         const std::vector<int>& order, int iterations, bool split_pair) {
    const int k = checkStageJobs(stages, "stageSchedule");
    const std::size_t p = stages.size();
    checkOrder(order, p);
    if (iterations < 0) throw std::invalid_argument("stageSchedule: iterations must be >= 0");
    const bool slot = usesSlotRule(stages);
    if (slot && p > static_cast<std::size_t>(kSlotRuleMaxJobs))
        throw std::invalid_argument("stageSchedule: at most 4 jobs of 3 stages per group");
    if (!slot && p > static_cast<std::size_t>(k))
        throw std::invalid_argument("stageSchedule: more jobs than stages (Eq. 3 needs p <= k)");
    if (split_pair && !(slot && p == 2))
        throw std::invalid_argument("stageSchedule: the split-pair pattern needs 2 jobs of 3 stages");

    std::vector<StageInterval> out;
    if (split_pair)
        splitPairSchedule(out, stages, order, iterations);
    else if (slot)
        slotSchedule(out, stages, order, iterations);
    else
        explicitSchedule(out, stages, order, iterations);
    std::sort(out.begin(), out.end(), [](const StageInterval& a, const StageInterval& b) {
        return std::tie(a.t0, a.resource, a.job) < std::tie(b.t0, b.resource, b.job);
    });
    return out;
}

std::vector<StageInterval> stageSchedule(const std::vector<std::vector<double>>& stages,
                                         const Ordering& ordering, int iterations) {
    return stageSchedule(stages, ordering.order, iterations, ordering.split_pair);
}

std::vector<StageInterval> coldStartSchedule(const std::vector<StageInterval>& schedule, bool slot_rule) {
    std::map<int, double> joins;  // job -> start of its first stage-0 interval
    for (const StageInterval& iv : schedule) {
        const bool first_stage = slot_rule ? iv.resource <= 1 : iv.resource == 0;
        if (!first_stage) continue;
        auto [it, fresh] = joins.try_emplace(iv.job, iv.t0);
        if (!fresh) it->second = std::min(it->second, iv.t0);
    }
    std::vector<StageInterval> cold;
    cold.reserve(schedule.size());
    for (const StageInterval& iv : schedule) {
        const auto it = joins.find(iv.job);
        if (it != joins.end() && iv.t0 >= it->second) cold.push_back(iv);
    }
    return cold;
}

int scheduleResourceCount(const std::vector<std::vector<double>>& stages) {
    checkStageJobs(stages, "scheduleResourceCount");
    return interleaveResourceCount(stages);
}

std::string scheduleResourceName(int resource, int resource_count) {
    static const char* const kFour[] = {"storage", "CPU", "GPU", "network"};
    if (resource_count == 4 && resource >= 0 && resource < 4) return kFour[resource];
    return "resource " + std::to_string(resource);
}

double schedulePeriod(const std::vector<StageInterval>& schedule, int job, int first_iteration,
                      int last_iteration) {
    if (last_iteration <= first_iteration)
        throw std::invalid_argument("schedulePeriod: last_iteration must be after first_iteration");
    const double inf = std::numeric_limits<double>::infinity();
    double first = inf, last = inf;
    for (const auto& s : schedule) {
        if (s.job != job) continue;
        if (s.iteration == first_iteration) first = std::min(first, s.t0);
        if (s.iteration == last_iteration) last = std::min(last, s.t0);
    }
    if (first == inf || last == inf)
        throw std::invalid_argument("schedulePeriod: job " + std::to_string(job) +
                                    " has no stage in one of the two iterations");
    return (last - first) / static_cast<double>(last_iteration - first_iteration);
}

}  // namespace cl
