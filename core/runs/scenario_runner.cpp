#include "core/runs/scenario_runner.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "core/io/builtin_data.h"
#include "core/metrics/series_reduction.h"
#include "core/policies/slurm_config.h"
#include "core/store/cluster_names.h"
#include "core/util/number_format.h"
#include "core/util/parallel_runner.h"
#include "core/workload/model_assignment.h"
#include "core/workload/trace_transforms.h"

namespace cl {

Cluster scenarioCluster(ScenarioStore& store, const ScenarioSpec& spec) {
    Cluster cluster = store.cluster(spec.cluster_id);
    if (spec.parameters.server_count > 0) cluster = withServerCount(cluster, spec.parameters.server_count);
    return cluster;
}

ScenarioInputs resolveScenario(ScenarioStore& store, const ScenarioInfo& scenario) {
    const ScenarioSpec& spec = scenario.spec;
    const ScenarioParameters& p = spec.parameters;
    ScenarioInputs in;
    in.cluster = scenarioCluster(store, spec);
    in.profiles = store.profiles(spec.profiles_id);
    in.trace = store.trace(spec.trace_id);
    if (!p.transforms.empty()) in.trace = applyTransforms(in.trace, p.transforms);
    if (p.load_factor != 1.0) in.trace = scaleLoad(in.trace, p.load_factor);
    std::vector<std::string> models = in.profiles.modelNames();
    if (p.reassign_models) {
        assignModels(in.trace, models, spec.seed, /*only_missing=*/false);
        in.trace.provenance.push_back("models reassigned uniformly over the profile set, seed " +
                                      std::to_string(spec.seed));
    } else if (!models.empty()) {
        assignModels(in.trace, models, spec.seed, /*only_missing=*/true);
    }
    in.policy = spec.policy;
    in.options.conventions = Conventions::byName(spec.conventions);
    in.tuning.max_group_size = p.max_group_size;
    in.tuning.interference = p.interference;
    applySlurmParameters(in.tuning.slurm, p.slurm_parameters);  // checked when the scenario was stored
    in.tuning.seed = spec.seed;
    in.options.measure_first = p.measure_first;
    in.options.measure_last = p.measure_last;
    in.options.stop_when_overloaded = p.stop_when_overloaded;
    in.options.stop_when_missed = p.stop_when_missed;
    return in;
}

namespace {

// On an error path: record why, but never let a second failure hide the first.
void markFailed(ScenarioStore& store, std::int64_t run_id, const std::string& why) noexcept {
    try {
        store.failRun(run_id, RunStatus::Failed, why);
    } catch (...) {
    }
}

// record_while_running: the run row exists (as 'running') during the simulation, so other
// readers see it and a cancelled run is recorded; otherwise nothing is written until the
// simulation has ended, and a cancelled one leaves no trace.
RunOutcome runScenarioImpl(ScenarioStore& store, const std::string& name, bool force,
                           const std::function<bool(double)>& progress, bool record_while_running) {
    const ScenarioInfo info = store.scenario(name);
    const std::string version = engineVersion();
    if (!force)
        if (auto earlier = store.finishedRunWithHash(info.content_hash, version))
            return {earlier->id, true, *earlier};
    ScenarioInputs in = resolveScenario(store, info);
    in.options.progress = progress;
    std::int64_t run_id = record_while_running ? store.beginRun(info.id, version) : 0;
    SimResult result;
    try {
        result = simulatePolicy(in.cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
    } catch (const std::exception& e) {
        // Record why, but a store that cannot take the record must not hide the real error.
        try {
            if (run_id == 0) run_id = store.beginRun(info.id, version);
        } catch (...) {
        }
        if (run_id != 0) markFailed(store, run_id, e.what());
        throw;
    }
    if (result.cancelled) {
        if (run_id == 0) return {0, false, {}};
        store.failRun(run_id, RunStatus::Cancelled, "cancelled by the user");
    } else if (run_id == 0) {
        // One transaction: a writer killed half-way leaves no 'running' row behind.
        Transaction tx(store.db());
        run_id = store.beginRun(info.id, version);
        store.saveRun(run_id, result);
        tx.commit();
    } else {
        try {
            store.saveRun(run_id, result);
        } catch (const std::exception& e) {
            markFailed(store, run_id, std::string("could not store the results: ") + e.what());
            throw;
        }
    }
    return {run_id, false, store.runInfo(run_id)};
}

}  // namespace

RunOutcome runScenario(ScenarioStore& store, const std::string& name, bool force,
                       const std::function<bool(double)>& progress) {
    return runScenarioImpl(store, name, force, progress, true);
}

RunOutcome runScenarioStoringOnlyOutcomes(ScenarioStore& store, const std::string& name, bool force,
                                          const std::function<bool(double)>& progress) {
    return runScenarioImpl(store, name, force, progress, false);
}

std::vector<ScenarioSpec> expandSweep(ScenarioStore& store, const std::string& prefix,
                                      const ScenarioSpec& base, const SweepAxes& axes) {
    struct ClusterChoice {
        std::int64_t id;
        std::string label;
    };
    std::vector<ClusterChoice> clusters;
    for (const auto& c : axes.clusters) {
        Cluster cluster = resolveCluster(c);
        // A layout file may carry a stored cluster's name with other servers; crossing it
        // would add a second cluster of that name (cluster_names.h), so it is refused.
        if (const auto clash = clusterNameClash(store, cluster))
            throw StoreError(c + ": a different cluster named \"" + cluster.name + "\" is already stored (#" +
                             std::to_string(clash->id) +
                             "); stored clusters do not change, so give this layout another \"name\"");
        clusters.push_back({store.putCluster(cluster), cluster.name});
    }
    if (clusters.empty()) clusters.push_back({base.cluster_id, ""});
    auto orBase = [](const auto& axis, auto base_value) {
        using T = decltype(base_value);
        return axis.empty() ? std::vector<T>{base_value} : std::vector<T>(axis.begin(), axis.end());
    };
    const auto servers = orBase(axes.server_counts, base.parameters.server_count);
    const auto loads = orBase(axes.load_factors, base.parameters.load_factor);
    const auto policies = orBase(axes.policies, base.policy);
    const auto groups = orBase(axes.group_sizes, base.parameters.max_group_size);
    const auto seeds = orBase(axes.seeds, base.seed);

    std::vector<ScenarioSpec> specs;
    for (const auto& c : clusters)
        for (int n : servers)
            for (double load : loads)
                for (const auto& policy : policies)
                    for (int k : groups)
                        for (std::uint64_t seed : seeds) {
                            ScenarioSpec s = base;
                            s.cluster_id = c.id;
                            s.parameters.server_count = n;
                            s.parameters.load_factor = load;
                            s.policy = policy;
                            s.parameters.max_group_size = k;
                            s.seed = seed;
                            std::string name = prefix;
                            if (!axes.clusters.empty()) name += "/" + c.label;
                            if (!axes.server_counts.empty()) name += "/n" + std::to_string(n);
                            if (!axes.load_factors.empty()) name += "/x" + formatNumber(load);
                            if (!axes.policies.empty()) name += "/" + policy;
                            if (!axes.group_sizes.empty()) name += "/k" + std::to_string(k);
                            if (!axes.seeds.empty()) name += "/s" + std::to_string(seed);
                            s.name = name;
                            specs.push_back(std::move(s));
                        }
    std::set<std::string> names;
    for (const auto& s : specs)
        if (!names.insert(s.name).second)
            throw std::invalid_argument("sweep: two settings would both be named '" + s.name +
                                        "' (a value repeated on an axis, or two clusters of one name)");
    return specs;
}

namespace {

bool sameSettings(const ScenarioSpec& a, const ScenarioSpec& b) {
    return a.cluster_id == b.cluster_id && a.trace_id == b.trace_id && a.profiles_id == b.profiles_id &&
           a.policy == b.policy && a.conventions == b.conventions && a.parameters == b.parameters &&
           a.seed == b.seed;
}

}  // namespace

std::vector<ScenarioInfo> createSweepScenarios(ScenarioStore& store, const std::vector<ScenarioSpec>& specs) {
    std::vector<ScenarioInfo> infos;
    Transaction tx(store.db());
    for (const auto& spec : specs) {
        if (auto existing = store.findScenario(spec.name)) {
            if (!sameSettings(existing->spec, spec))
                throw StoreError(store.path() + ": scenario '" + spec.name +
                                 "' already exists with other settings; choose another sweep prefix");
            infos.push_back(*existing);
        } else {
            store.createScenario(spec);
            infos.push_back(store.scenario(spec.name));
        }
    }
    tx.commit();
    return infos;
}

namespace {

// SweepOptions::record_segments and series_samples: what a run leaves out of storage, and its
// notes saying so.
void reduceForStorage(SimResult& r, const SweepOptions& options) {
    if (!options.record_segments)
        r.notes.push_back(std::string(kTimelineNotStoredNote) +
                          ": simulate it again to see its GPU timeline");
    if (options.series_samples > 0 && r.series.size() > options.series_samples + 3) {
        double last_submit = 0.0;
        for (const JobRecord& j : r.jobs) last_submit = std::max(last_submit, j.submit);
        const std::size_t full = r.series.size();
        r.series = reduceSeries(r.series, options.series_samples, last_submit);
        r.notes.push_back(std::string(kSeriesReducedNote) + " to " + std::to_string(r.series.size()) +
                          " of " + std::to_string(full) + " samples" +
                          (options.series_queue_only ? ", with only the queue and the GPU utilisation" : "") +
                          ": simulate it again for every figure at every event");
    }
}

}  // namespace

SweepReport runSweep(ScenarioStore& store, const std::vector<ScenarioSpec>& specs,
                     const SweepOptions& options) {
    SweepReport report;
    report.run_ids.assign(specs.size(), 0);
    // All scenarios first (a bad setting leaves nothing behind), so that an interrupted sweep
    // still lists what it was meant to run.
    const std::vector<ScenarioInfo> infos = createSweepScenarios(store, specs);

    const std::string version = engineVersion();
    ParallelRunner runner(options.threads);
    auto stopped = [&] { return options.stop && options.stop->load(); };
    SweepProgress progress;
    progress.total = static_cast<int>(specs.size());
    auto report_progress = [&](const std::string& name) {
        progress.last = name;
        if (options.progress) options.progress(progress);
    };
    std::vector<std::int64_t> begun(specs.size(), 0);  // the run row of each started simulation
    std::vector<SimResult> results(specs.size());      // filled by the worker, emptied once stored

    auto prepare = [&](std::size_t i) -> ParallelRunner::Work {
        if (stopped()) {
            runner.cancel();
            return {};
        }
        const ScenarioInfo& info = infos[i];
        if (!options.force)
            if (auto earlier = store.finishedRunWithHash(info.content_hash, version)) {
                report.run_ids[i] = earlier->id;
                ++report.reused;
                ++progress.finished;
                report_progress(info.spec.name);
                return {};
            }
        ScenarioInputs in;
        try {
            in = resolveScenario(store, info);
        } catch (const std::exception& e) {
            report.errors.push_back(info.spec.name + ": " + e.what());
            ++report.failed;
            ++progress.failed;
            report_progress(info.spec.name);
            return {};
        }
        begun[i] = store.beginRun(info.id, version);
        in.options.record_segments = options.record_segments;
        in.options.series_queue_only = options.series_queue_only;
        // Set when storing fails or on a stop: the simulations still running are cancelled,
        // not waited for.
        in.options.progress = [stop = options.stop, &runner](double) {
            return !(stop && stop->load()) && !runner.cancelled();
        };
        ++progress.running;
        report_progress(info.spec.name);
        return [&results, i, in = std::move(in)] {
            results[i] = simulatePolicy(in.cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
        };
    };
    // Every result is stored on this thread, whichever simulation finishes first.
    auto finished = [&](std::size_t i, std::exception_ptr error) {
        const std::string& name = infos[i].spec.name;
        --progress.running;
        try {
            if (error) std::rethrow_exception(error);
            SimResult r = std::move(results[i]);
            results[i] = SimResult{};
            if (r.cancelled) {
                store.failRun(begun[i], RunStatus::Cancelled, "sweep interrupted");
                ++report.cancelled;
            } else {
                reduceForStorage(r, options);
                store.saveRun(begun[i], r);
                report.run_ids[i] = begun[i];
                ++progress.finished;
                if (options.finished) options.finished(i, std::move(r));
            }
        } catch (const StoreError&) {
            throw;
        } catch (const std::exception& e) {
            store.failRun(begun[i], RunStatus::Failed, e.what());
            report.errors.push_back(name + ": " + e.what());
            ++report.failed;
            ++progress.failed;
        }
        report_progress(name);
    };
    // Storing failed (disk full, the workspace deleted under us, ...): every unfinished run is
    // recorded as failed before the error is reported.
    auto abandoned = [&](std::size_t i) {
        markFailed(store, begun[i], "the sweep stopped on an error while storing another run");
    };
    runner.run(specs.size(), prepare, finished, abandoned);
    return report;
}

}  // namespace cl
