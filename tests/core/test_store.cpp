// The scenario store (core/store): every entity survives a round trip through the workspace
// file, identical inputs are stored once, scenarios are managed by name with clear errors,
// identical scenarios reuse their runs, version-1 and version-3 workspaces migrate (runs stored
// before a column existed read it back as NaN), and files that are not workspaces (or are
// from a newer build) are refused without being touched.
//
// tests/fixtures/workspace_v1.sqlite is a version-1 workspace written by writeV1Fixture()
// below; to regenerate it: CLUSTERLOOM_WRITE_V1_FIXTURE=<path> build/release/tests/test_store
// (the fixture's expected contents are the fixture*() functions, so keep them unchanged).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/io/profile_io.h"
#include "core/io/trace_readers.h"
#include "core/metrics/jct_stats.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/scenario_runner.h"
#include "core/sim/simulator.h"
#include "core/store/cluster_names.h"
#include "core/store/scenario_store.h"
#include "core/store/sqlite_db.h"
#include "core/workload/trace_generator.h"
#include "store_test_support.h"

using namespace cl;
using namespace cl::test;
namespace fs = std::filesystem;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::string kFixture = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/workspace_v1.sqlite";
const std::string kTrace3 = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/muri-traces/trace3.csv";

// ---- comparisons (each returns the first difference, empty when equal) --------------------

bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

template <class T>
std::string show(const T& v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

#define DIFF_FIELD(what, a, b)                                                           \
    do {                                                                                 \
        if (!((a) == (b))) return std::string(what) + ": " + show(a) + " != " + show(b); \
    } while (0)
#define DIFF_DOUBLE(what, a, b)                                                            \
    do {                                                                                   \
        if (!same((a), (b))) return std::string(what) + ": " + show(a) + " != " + show(b); \
    } while (0)

std::string diffServers(const Cluster& a, const Cluster& b) {
    DIFF_FIELD("cluster name", a.name, b.name);
    DIFF_FIELD("server count", a.servers.size(), b.servers.size());
    for (std::size_t k = 0; k < a.servers.size(); ++k) {
        const Server &x = a.servers[k], &y = b.servers[k];
        const std::string at = "server " + std::to_string(k) + " ";
        DIFF_FIELD(at + "name", x.name, y.name);
        DIFF_FIELD(at + "rack", x.rack, y.rack);
        DIFF_FIELD(at + "gpu_type", x.gpu_type, y.gpu_type);
        DIFF_FIELD(at + "gpus", x.gpus, y.gpus);
        DIFF_FIELD(at + "cpu_cores", x.cpu_cores, y.cpu_cores);
        DIFF_DOUBLE(at + "memory_gb", x.memory_gb, y.memory_gb);
        DIFF_DOUBLE(at + "gpu_memory_gb", x.gpu_memory_gb, y.gpu_memory_gb);
        DIFF_DOUBLE(at + "network_gbps", x.network_gbps, y.network_gbps);
    }
    return {};
}

std::string diffTraces(const Trace& a, const Trace& b) {
    DIFF_FIELD("trace name", a.name, b.name);
    DIFF_FIELD("provenance lines", a.provenance.size(), b.provenance.size());
    for (std::size_t k = 0; k < a.provenance.size(); ++k)
        DIFF_FIELD("provenance line", a.provenance[k], b.provenance[k]);
    DIFF_FIELD("job count", a.jobs.size(), b.jobs.size());
    for (std::size_t k = 0; k < a.jobs.size(); ++k) {
        const Job &x = a.jobs[k], &y = b.jobs[k];
        const std::string at = "job " + std::to_string(k) + " ";
        DIFF_FIELD(at + "id", x.id, y.id);
        DIFF_DOUBLE(at + "submit_time", x.submit_time, y.submit_time);
        DIFF_FIELD(at + "gpus", x.gpus, y.gpus);
        DIFF_FIELD(at + "model", x.model, y.model);
        DIFF_DOUBLE(at + "iterations", x.iterations, y.iterations);
        DIFF_DOUBLE(at + "duration", x.duration, y.duration);
        DIFF_FIELD(at + "batch_size", x.batch_size, y.batch_size);
        DIFF_FIELD(at + "user", x.user, y.user);
        DIFF_FIELD(at + "vc", x.vc, y.vc);
        DIFF_DOUBLE(at + "iteration_time", x.solo_iteration_time, y.solo_iteration_time);
        DIFF_FIELD(at + "stage_times count", x.stage_times.size(), y.stage_times.size());
        for (std::size_t s = 0; s < x.stage_times.size(); ++s)
            DIFF_DOUBLE(at + "stage_times[" + std::to_string(s) + "]", x.stage_times[s], y.stage_times[s]);
        DIFF_FIELD(at + "priority", x.priority, y.priority);
        DIFF_FIELD(at + "partition", x.partition, y.partition);
        DIFF_FIELD(at + "requested_gpu_type", x.requested_gpu_type, y.requested_gpu_type);
        DIFF_FIELD(at + "nodes", x.nodes, y.nodes);
        DIFF_DOUBLE(at + "time_limit", x.time_limit, y.time_limit);
        DIFF_DOUBLE(at + "recorded_start", x.recorded_start, y.recorded_start);
    }
    return {};
}

std::string diffSpecs(const ScenarioSpec& a, const ScenarioSpec& b) {
    DIFF_FIELD("name", a.name, b.name);
    DIFF_FIELD("cluster_id", a.cluster_id, b.cluster_id);
    DIFF_FIELD("trace_id", a.trace_id, b.trace_id);
    DIFF_FIELD("profiles_id", a.profiles_id, b.profiles_id);
    DIFF_FIELD("policy", a.policy, b.policy);
    DIFF_FIELD("conventions", a.conventions, b.conventions);
    DIFF_FIELD("parameters", a.parameters.toJson().dump(), b.parameters.toJson().dump());
    if (!(a.parameters == b.parameters)) return "parameters differ";
    DIFF_FIELD("seed", a.seed, b.seed);
    DIFF_FIELD("notes", a.notes, b.notes);
    return {};
}

std::string diffSummaries(const Summary& a, const Summary& b) {
    DIFF_FIELD("summary jobs", a.jobs, b.jobs);
    DIFF_FIELD("summary completed", a.completed, b.completed);
    DIFF_DOUBLE("summary avg_jct", a.avg_jct, b.avg_jct);
    DIFF_DOUBLE("summary median_jct", a.median_jct, b.median_jct);
    DIFF_DOUBLE("summary p95_jct", a.p95_jct, b.p95_jct);
    DIFF_DOUBLE("summary p99_jct", a.p99_jct, b.p99_jct);
    DIFF_DOUBLE("summary makespan", a.makespan, b.makespan);
    DIFF_DOUBLE("summary avg_queueing_delay", a.avg_queueing_delay, b.avg_queueing_delay);
    DIFF_DOUBLE("summary p95_queueing_delay", a.p95_queueing_delay, b.p95_queueing_delay);
    DIFF_FIELD("summary timed_out", a.timed_out, b.timed_out);
    for (const auto& [name, x, y] :
         {std::tuple{"small", &a.small, &b.small}, std::tuple{"large", &a.large, &b.large}}) {
        const std::string at = std::string("summary ") + name + " ";
        DIFF_FIELD(at + "completed", x->completed, y->completed);
        DIFF_DOUBLE(at + "avg_jct", x->avg_jct, y->avg_jct);
        DIFF_DOUBLE(at + "p95_jct", x->p95_jct, y->p95_jct);
        DIFF_DOUBLE(at + "p99_jct", x->p99_jct, y->p99_jct);
    }
    return {};
}

// A run stored before schema 8 reads back with the summary figures that schema added derived
// from its per-job records (docs/architecture.md 7.2).
SimResult withDerivedSummary(SimResult r) {
    const Summary derived = summarize(r.jobs);
    r.summary.p95_queueing_delay = derived.p95_queueing_delay;
    r.summary.small = derived.small;
    r.summary.large = derived.large;
    return r;
}

std::vector<GpuSegment> sortedSegments(std::vector<GpuSegment> v) {
    std::sort(v.begin(), v.end(), [](const GpuSegment& a, const GpuSegment& b) {
        return std::tie(a.gpu, a.t0, a.t1, a.job) < std::tie(b.gpu, b.t0, b.t1, b.job);
    });
    return v;
}

// Allocation changes in the store's order: by time, those of one instant by job.
std::vector<AllocationChange> inStoreOrder(std::vector<AllocationChange> v) {
    std::stable_sort(v.begin(), v.end(), [](const AllocationChange& a, const AllocationChange& b) {
        return std::tie(a.t, a.job) < std::tie(b.t, b.job);
    });
    return v;
}

std::vector<BatchChange> inStoreOrder(std::vector<BatchChange> v) {
    std::stable_sort(v.begin(), v.end(), [](const BatchChange& a, const BatchChange& b) {
        return std::tie(a.t, a.job) < std::tie(b.t, b.job);
    });
    return v;
}

// Segments are compared as sets (the store keeps them per GPU, sorted by start); allocation
// changes in the store's order.
std::string diffResults(const SimResult& a, const SimResult& b, bool with_segments = true) {
    DIFF_FIELD("policy", a.policy, b.policy);
    DIFF_FIELD("conventions", a.conventions, b.conventions);
    DIFF_FIELD("events", a.events, b.events);
    DIFF_DOUBLE("wall_seconds", a.wall_seconds, b.wall_seconds);
    DIFF_FIELD("cancelled", a.cancelled, b.cancelled);
    if (auto d = diffSummaries(a.summary, b.summary); !d.empty()) return d;
    DIFF_FIELD("job count", a.jobs.size(), b.jobs.size());
    for (std::size_t k = 0; k < a.jobs.size(); ++k) {
        const JobRecord &x = a.jobs[k], &y = b.jobs[k];
        const std::string at = "job " + std::to_string(k) + " ";
        DIFF_FIELD(at + "index", x.index, y.index);
        DIFF_FIELD(at + "id", x.id, y.id);
        DIFF_FIELD(at + "model", x.model, y.model);
        DIFF_FIELD(at + "gpus", x.gpus, y.gpus);
        DIFF_DOUBLE(at + "iterations", x.iterations, y.iterations);
        DIFF_DOUBLE(at + "solo_iteration_time", x.solo_iteration_time, y.solo_iteration_time);
        DIFF_DOUBLE(at + "submit", x.submit, y.submit);
        DIFF_DOUBLE(at + "first_start", x.first_start, y.first_start);
        DIFF_DOUBLE(at + "end", x.end, y.end);
        DIFF_DOUBLE(at + "jct", x.jct, y.jct);
        DIFF_DOUBLE(at + "queueing_delay", x.queueing_delay, y.queueing_delay);
        DIFF_DOUBLE(at + "pending_time", x.pending_time, y.pending_time);
        DIFF_DOUBLE(at + "running_time", x.running_time, y.running_time);
        DIFF_FIELD(at + "preemptions", x.preemptions, y.preemptions);
        DIFF_FIELD(at + "restarts", x.restarts, y.restarts);
        DIFF_FIELD(at + "completed", x.completed, y.completed);
        DIFF_FIELD(at + "timed_out", x.timed_out, y.timed_out);
    }
    DIFF_FIELD("left-out count", a.left_out.size(), b.left_out.size());
    for (std::size_t k = 0; k < a.left_out.size(); ++k) {
        const std::string at = "left-out " + std::to_string(k) + " ";
        DIFF_FIELD(at + "index", a.left_out[k].index, b.left_out[k].index);
        DIFF_FIELD(at + "id", a.left_out[k].id, b.left_out[k].id);
        DIFF_FIELD(at + "reason", a.left_out[k].reason, b.left_out[k].reason);
    }
    DIFF_FIELD("note count", a.notes.size(), b.notes.size());
    for (std::size_t k = 0; k < a.notes.size(); ++k)
        DIFF_FIELD("note " + std::to_string(k), a.notes[k], b.notes[k]);
    if (with_segments) {
        const auto sa = sortedSegments(a.segments), sb = sortedSegments(b.segments);
        DIFF_FIELD("segment count", sa.size(), sb.size());
        for (std::size_t k = 0; k < sa.size(); ++k) {
            const std::string at = "segment " + std::to_string(k) + " ";
            DIFF_FIELD(at + "gpu", sa[k].gpu, sb[k].gpu);
            DIFF_DOUBLE(at + "t0", sa[k].t0, sb[k].t0);
            DIFF_DOUBLE(at + "t1", sa[k].t1, sb[k].t1);
            DIFF_FIELD(at + "job", sa[k].job, sb[k].job);
        }
        const auto aa = inStoreOrder(a.allocations), ab = inStoreOrder(b.allocations);
        DIFF_FIELD("allocation count", aa.size(), ab.size());
        for (std::size_t k = 0; k < aa.size(); ++k) {
            const std::string at = "allocation " + std::to_string(k) + " ";
            DIFF_FIELD(at + "job", aa[k].job, ab[k].job);
            DIFF_DOUBLE(at + "t", aa[k].t, ab[k].t);
            DIFF_DOUBLE(at + "cpus", aa[k].cpus, ab[k].cpus);
            DIFF_DOUBLE(at + "memory_gb", aa[k].memory_gb, ab[k].memory_gb);
            DIFF_DOUBLE(at + "speedup", aa[k].speedup, ab[k].speedup);
        }
        const auto ba = inStoreOrder(a.batches), bb = inStoreOrder(b.batches);
        DIFF_FIELD("batch count", ba.size(), bb.size());
        for (std::size_t k = 0; k < ba.size(); ++k) {
            const std::string at = "batch " + std::to_string(k) + " ";
            DIFF_FIELD(at + "job", ba[k].job, bb[k].job);
            DIFF_DOUBLE(at + "t", ba[k].t, bb[k].t);
            DIFF_FIELD(at + "sub_batch", ba[k].sub_batch, bb[k].sub_batch);
            DIFF_FIELD(at + "accumulation_steps", ba[k].accumulation_steps, bb[k].accumulation_steps);
            DIFF_DOUBLE(at + "interference", ba[k].interference, bb[k].interference);
        }
    }
    DIFF_FIELD("series length", a.series.size(), b.series.size());
    for (std::size_t k = 0; k < a.series.size(); ++k) {
        const TimeSample &x = a.series[k], &y = b.series[k];
        const std::string at = "sample " + std::to_string(k) + " ";
        DIFF_DOUBLE(at + "t", x.t, y.t);
        DIFF_FIELD(at + "queue_length", x.queue_length, y.queue_length);
        DIFF_FIELD(at + "running_jobs", x.running_jobs, y.running_jobs);
        DIFF_DOUBLE(at + "blocking_index", x.blocking_index, y.blocking_index);
        DIFF_DOUBLE(at + "gpu_utilization", x.gpu_utilization, y.gpu_utilization);
        DIFF_DOUBLE(at + "storage_utilization", x.storage_utilization, y.storage_utilization);
        DIFF_DOUBLE(at + "cpu_utilization", x.cpu_utilization, y.cpu_utilization);
        DIFF_DOUBLE(at + "gpu_compute_utilization", x.gpu_compute_utilization, y.gpu_compute_utilization);
        DIFF_DOUBLE(at + "network_utilization", x.network_utilization, y.network_utilization);
        DIFF_DOUBLE(at + "cpu_allocated", x.cpu_allocated, y.cpu_allocated);
        DIFF_DOUBLE(at + "memory_allocated", x.memory_allocated, y.memory_allocated);
    }
    return {};
}

#define VERIFY_SAME(diff_expr)                  \
    do {                                        \
        const std::string diff_ = (diff_expr);  \
        QVERIFY2(diff_.empty(), diff_.c_str()); \
    } while (0)

// The message of the StoreError `f` throws ("" if it throws none; other exceptions reported).
template <class F>
std::string storeError(F&& f) {
    try {
        f();
    } catch (const StoreError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("not a StoreError: ") + e.what();
    }
    return {};
}

#define VERIFY_STORE_ERROR(call, ...)                                                              \
    do {                                                                                           \
        const std::string msg_ = storeError([&] { call; });                                        \
        QVERIFY2(!msg_.empty(), "no StoreError from " #call);                                      \
        for (const std::string& part_ : std::vector<std::string>{__VA_ARGS__})                     \
            QVERIFY2(msg_.find(part_) != std::string::npos,                                        \
                     qPrintable(QString::fromStdString("'" + part_ + "' missing from: " + msg_))); \
    } while (0)

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

// ---- inputs ---------------------------------------------------------------------------------

Cluster handMadeCluster() {
    Cluster c;
    c.name = "hand-made ünïcode cluster";
    Server a;
    a.name = "a0";
    a.rack = "rack-a";
    a.gpu_type = "A100";
    a.gpus = 4;
    a.cpu_cores = 48;
    a.memory_gb = 123.5;
    a.gpu_memory_gb = 80;
    a.network_gbps = 200;
    Server b;  // defaults, no rack
    b.name = "b \"quoted\"";
    c.servers = {a, b, a};
    c.servers[2].name = "a1";
    c.servers[2].memory_gb = 0.1 + 0.2;  // not a short decimal
    return c;
}

Trace handMadeTrace() {
    Trace t;
    t.name = "hand-made trace";
    t.provenance = {"written by test_store", "second line, with ünïcode; and \"quotes\""};
    Job a;
    a.id = "job-a";
    a.submit_time = 0.5;
    a.gpus = 4;
    a.model = "resnet18";
    a.iterations = 1000.25;
    a.batch_size = 128;
    a.user = "alice";
    a.vc = "vc-1";
    a.solo_iteration_time = 0.123456789;
    a.stage_times = {0.01, 0.1 + 0.2, 1e-9};
    a.priority = 3;
    Job b;
    b.id = "b,\"odd\" id ü";
    b.submit_time = 1e6 / 3.0;
    b.gpus = 1;
    b.duration = 3600.5;
    Job c = a;
    c.id = "job-c";
    c.submit_time = 86400.0 * 30;
    c.gpus = 32;
    c.stage_times = {};
    c.priority = -1;
    t.jobs = {a, b, c};
    return t;
}

// The first n jobs of the shared trace3, else (shared data absent) a generated trace.
Trace smallTrace(std::size_t n) {
    if (fs::exists(kTrace3)) {
        Trace t = readMuriTraceCsv(kTrace3);
        t.jobs.resize(std::min(n, t.jobs.size()));
        t.name += " (first " + std::to_string(n) + " jobs)";
        t.provenance.push_back("first " + std::to_string(n) + " jobs");
        return t;
    }
    GeneratorConfig g;
    g.jobs = static_cast<int>(n);
    g.seed = 3;
    g.jobs_per_hour = 20;
    g.max_gpus = 8;
    const ProfileSet profiles = builtinProfiles();
    return generate(g, &profiles);
}

SimResult smallSimulation(const Trace& trace) {
    return simulatePolicy(builtinCluster("muri-testbed-64"), trace, builtinProfiles(), "srtf");
}

// A result with every kind of value: an unfinished job with NaN times, a started but
// unfinished one, segments in no particular order, an unknown blocking index and allocated
// share, allocation changes of two jobs (two at one instant, listed against the store's order).
SimResult handMadeResult() {
    SimResult r;
    r.policy = "srtf";
    r.conventions = "clean";
    JobRecord a;
    a.index = 0;
    a.id = "a";
    a.model = "resnet18";
    a.gpus = 2;
    a.iterations = 1000.5;
    a.solo_iteration_time = 0.125;
    a.submit = 0;
    a.first_start = 1.5;
    a.end = 130.25;
    a.jct = 130.25;
    a.queueing_delay = 1.5;
    a.pending_time = 1.5;
    a.running_time = 128.75;
    a.preemptions = 1;
    a.restarts = 2;
    a.completed = true;
    JobRecord b;  // never started: NaN first start, end, JCT, queueing delay
    b.index = 1;
    b.id = "b \"quoted\", ünïcode";
    b.gpus = 1;
    b.iterations = 0.1;
    b.solo_iteration_time = 1e-3;
    b.submit = 1.0 / 3.0;
    b.pending_time = 99.5;
    JobRecord c;  // started, not finished
    c.index = 2;
    c.id = "c";
    c.model = "vgg16";
    c.gpus = 1;
    c.iterations = 7;
    c.solo_iteration_time = 2;
    c.submit = 5;
    c.first_start = 10;
    c.queueing_delay = 5;
    c.pending_time = 5;
    c.running_time = 20;
    c.restarts = 1;
    r.jobs = {a, b, c};
    r.segments = {{1, 60, 130.25, 0}, {0, 1.5, 50, 0}, {3, 10, 30, 2},          {0, 60, 130.25, 0},
                  {1, 1.5, 50, 0},    {0, 50, 60, 2},  {7, 0.1 + 0.2, 1e300, 2}};
    r.series = {{0, 1, 0, 0.0, 0.0}, {10, 1, 2, kNaN, 0.5}, {100.5, 0, 1, 1.75, 0.125}};
    r.series[1].cpu_allocated = 0.375;
    r.series[1].memory_allocated = 1.0 / 3.0;
    r.series[2].cpu_allocated = kNaN;
    r.series[2].memory_allocated = 0.0625;
    r.allocations = {{0, 1.5, 12, 250, 2.4},
                     {2, 10, 3, 62.5, 1},
                     {2, 60, 1.0 / 3.0, 20.83, 0.1},
                     {0, 60, 24, 500.25, 2.94}};
    // Jobs 0 and 2 share GPU 0 from t = 50: job 2 accumulates, both slowed by the sharing.
    r.batches = {{2, 50, 16, 4, 1.8}, {0, 1.5, 64, 1, 1}, {0, 50, 32, 2, 1.0 / 3.0 + 1}, {2, 60, 64, 1, 1}};
    r.summary = {3, 1, 130.25, 130.25, 130.25, 130.25, 130.25, 3.25};
    r.events = 17;
    r.wall_seconds = 0.0625;
    return r;
}

struct Inputs {
    std::int64_t cluster = 0, trace = 0, profiles = 0;
};

Inputs storeSmallInputs(ScenarioStore& store, std::size_t jobs = 40) {
    return {store.putCluster(builtinCluster("muri-testbed-64")), store.putTrace(smallTrace(jobs)),
            store.putProfiles(builtinProfiles())};
}

ScenarioSpec specFor(const std::string& name, const Inputs& in) {
    ScenarioSpec s;
    s.name = name;
    s.cluster_id = in.cluster;
    s.trace_id = in.trace;
    s.profiles_id = in.profiles;
    return s;
}

// ---- the version-1 fixture ------------------------------------------------------------------

Cluster fixtureCluster() {
    Cluster c;
    c.name = "v1 fixture cluster";
    for (const char* name : {"fx0", "fx1"}) {
        Server s;
        s.name = name;
        s.rack = "rack-0";
        s.gpus = 4;
        c.servers.push_back(s);
    }
    return c;
}

ProfileSet fixtureProfiles() {
    ProfileSet p;
    p.name = "v1 fixture profiles";
    p.source = "hand-made for test_store";
    ModelProfile m;
    m.name = "resnet18";
    m.batch_size = 128;
    m.gpu_memory_mb = 4000;
    m.by_gpus = {{1, 0.1, {0.02, 0.07, 0.01}, 10}, {2, 0.06, {0.02, 0.035, 0.005}, 10}};
    p.models[m.name] = m;
    p.gpu_type_speed["V100"] = 1.0;
    return p;
}

Trace fixtureTrace() {
    Trace t;
    t.name = "v1 fixture trace";
    t.provenance = {"hand-made for test_store"};
    for (int k = 0; k < 4; ++k) {
        Job j;
        j.id = "fx-" + std::to_string(k);
        j.submit_time = 10.0 * k;
        j.gpus = 1 + k % 2;
        j.model = "resnet18";
        j.iterations = 1000 + 250 * k;
        j.batch_size = 128;
        j.user = "u" + std::to_string(k % 2);
        j.solo_iteration_time = k % 2 ? 0.06 : 0.1;
        if (k == 3) j.stage_times = {0.02, 0.035, 0.005};
        t.jobs.push_back(j);
    }
    return t;
}

ScenarioSpec fixtureSpec(const Inputs& in) {
    ScenarioSpec s = specFor("v1 scenario", in);
    s.policy = "srtf";
    s.conventions = "clean";
    s.parameters.load_factor = 2;
    s.seed = 7;
    s.notes = "stored by schema version 1";
    return s;
}

const char* const kFixtureEngine = "0.0.0-v1-fixture";

// What the fixture's one finished run holds (version 1 kept no blocking index).
SimResult fixtureResult() {
    SimResult r;
    r.policy = "srtf";
    r.conventions = "clean";
    const double ends[4] = {110, 95, 225, kNaN};
    for (int k = 0; k < 4; ++k) {
        JobRecord j;
        j.index = k;
        j.id = "fx-" + std::to_string(k);
        j.model = "resnet18";
        j.gpus = 1 + k % 2;
        j.iterations = 1000 + 250 * k;
        j.solo_iteration_time = k % 2 ? 0.06 : 0.1;
        j.submit = 5.0 * k;
        if (k < 3) {
            j.first_start = j.submit;
            j.queueing_delay = 0;
            j.end = ends[k];
            j.jct = j.end - j.submit;
            j.running_time = j.jct;
            j.restarts = 1;
            j.completed = true;
        } else {
            j.pending_time = 5;
        }
        r.jobs.push_back(j);
    }
    r.segments = {{0, 0, 110, 0}, {1, 5, 95, 1}, {2, 5, 95, 1}, {3, 10, 225, 2}};
    for (int k = 0; k < 5; ++k)
        r.series.push_back({25.0 * k, k == 4 ? 1 : 0, 3 - k / 2, 0.5 * k, 0.75 - 0.125 * k});
    r.summary = {4, 3, 110, 105, 205, 211, 225, 0};
    r.events = 23;
    r.wall_seconds = 0.001;
    return r;
}

void bindMaybe(Statement& s, int index, double v) {
    if (std::isnan(v))
        s.bindNull(index);
    else
        s.bind(index, v);
}

// saveRun of schema version 1 (which had no blocking index), in SQL.
void insertV1Run(SqliteDb& db, std::int64_t run_id, const SimResult& r) {
    Transaction tx(db);
    const Summary& m = r.summary;
    db.prepare(
          "INSERT INTO run_summaries(run_id, policy, conventions, jobs, completed, avg_jct, median_jct, "
          "p95_jct, p99_jct, makespan, avg_queueing_delay, events, wall_seconds) "
          "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
        .bind(1, run_id)
        .bind(2, r.policy)
        .bind(3, r.conventions)
        .bind(4, m.jobs)
        .bind(5, m.completed)
        .bind(6, m.avg_jct)
        .bind(7, m.median_jct)
        .bind(8, m.p95_jct)
        .bind(9, m.p99_jct)
        .bind(10, m.makespan)
        .bind(11, m.avg_queueing_delay)
        .bind(12, static_cast<std::int64_t>(r.events))
        .bind(13, r.wall_seconds)
        .run();
    Statement job = db.prepare(
        "INSERT INTO run_jobs(run_id, position, job_id, model, gpus, iterations, solo_iteration_time, "
        "submit, "
        "first_start, end_time, jct, queueing_delay, pending_time, running_time, preemptions, restarts, "
        "completed) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
    for (const JobRecord& j : r.jobs) {
        job.bind(1, run_id)
            .bind(2, j.index)
            .bind(3, j.id)
            .bind(4, j.model)
            .bind(5, j.gpus)
            .bind(6, j.iterations);
        job.bind(7, j.solo_iteration_time).bind(8, j.submit);
        bindMaybe(job, 9, j.first_start);
        bindMaybe(job, 10, j.end);
        bindMaybe(job, 11, j.jct);
        bindMaybe(job, 12, j.queueing_delay);
        job.bind(13, j.pending_time).bind(14, j.running_time).bind(15, j.preemptions).bind(16, j.restarts);
        job.bind(17, j.completed ? 1 : 0).run();
    }
    Statement seg =
        db.prepare("INSERT INTO run_segments(run_id, gpu, segments, data) VALUES(?1, ?2, ?3, ?4)");
    for (const GpuSegment& g : sortedSegments(r.segments)) {  // one segment per GPU in the fixture
        std::vector<unsigned char> blob(20);
        const std::int32_t job_index = g.job;
        std::memcpy(blob.data(), &g.t0, 8);
        std::memcpy(blob.data() + 8, &g.t1, 8);
        std::memcpy(blob.data() + 16, &job_index, 4);
        seg.bind(1, run_id).bind(2, g.gpu).bind(3, 1).bindBlob(4, blob).run();
    }
    Statement series = db.prepare(
        "INSERT INTO run_series(run_id, position, t, queue_length, running_jobs, gpu_utilization) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    for (std::size_t k = 0; k < r.series.size(); ++k) {
        const TimeSample& t = r.series[k];
        series.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(k))
            .bind(3, t.t)
            .bind(4, t.queue_length)
            .bind(5, t.running_jobs)
            .bind(6, t.gpu_utilization)
            .run();
    }
    db.prepare("UPDATE runs SET status = 'finished', finished = started WHERE id = ?1").bind(1, run_id).run();
    tx.commit();
}

// saveRun of schema version 3 (no allocations, no allocated shares), in SQL: version 1's rows
// plus the columns versions 2 and 3 added.
void insertV3Run(SqliteDb& db, std::int64_t run_id, const SimResult& r) {
    Transaction tx(db);
    insertV1Run(db, run_id, r);
    Statement series = db.prepare(
        "UPDATE run_series SET blocking_index = ?3, storage_utilization = ?4, cpu_utilization = ?5, "
        "gpu_compute_utilization = ?6, network_utilization = ?7 WHERE run_id = ?1 AND position = ?2");
    for (std::size_t k = 0; k < r.series.size(); ++k) {
        const TimeSample& t = r.series[k];
        series.bind(1, run_id).bind(2, static_cast<std::int64_t>(k));
        bindMaybe(series, 3, t.blocking_index);
        bindMaybe(series, 4, t.storage_utilization);
        bindMaybe(series, 5, t.cpu_utilization);
        bindMaybe(series, 6, t.gpu_compute_utilization);
        bindMaybe(series, 7, t.network_utilization);
        series.run();
    }
    tx.commit();
}

void writeV1Fixture(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix);
    {
        ScenarioStore store(path, 1);
        if (store.schemaVersion() != 1) throw std::runtime_error("not version 1");
        Inputs in{store.putCluster(fixtureCluster()), store.putTrace(fixtureTrace()),
                  store.putProfiles(fixtureProfiles())};
        const std::int64_t scenario = store.createScenario(fixtureSpec(in));
        insertV1Run(store.db(), store.beginRun(scenario, kFixtureEngine), fixtureResult());
    }
    // One self-contained file (no WAL beside it), compacted, in small pages.
    SqliteDb db(path, SqliteDb::Mode::ReadWrite);
    db.exec("PRAGMA journal_mode=DELETE");
    db.exec("PRAGMA page_size=1024");
    db.exec("VACUUM");
}

}  // namespace

class TestStore : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    int files_ = 0;
    // A fresh workspace path for each use.
    std::string freshPath() {
        return (fs::path(dir_.path().toStdString()) / ("ws" + std::to_string(++files_) + ".sqlite")).string();
    }

private slots:
    void writeProtectedWorkspaceIsRefusedWithAClearMessage() {
        if (geteuid() == 0) QSKIP("file permissions do not bind root");
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("w.sqlite").toStdString();
        { ScenarioStore store(path); }
        std::filesystem::permissions(path, std::filesystem::perms::owner_write,
                                     std::filesystem::perm_options::remove);
        try {
            ScenarioStore store(path);
            QFAIL("a write-protected workspace opened");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("write-protected") != std::string::npos, e.what());
        }
        std::filesystem::permissions(path, std::filesystem::perms::owner_write,
                                     std::filesystem::perm_options::add);
    }

    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (qEnvironmentVariableIsSet("CLUSTERLOOM_WRITE_V1_FIXTURE")) {
            const std::string out = qEnvironmentVariable("CLUSTERLOOM_WRITE_V1_FIXTURE").toStdString();
            writeV1Fixture(out);
            qInfo("wrote the version-1 workspace fixture %s", out.c_str());
        }
    }

    // ---- inputs -------------------------------------------------------------------------------

    // What the desktop app remembers about a workspace lives in it (architecture.md 9.2).
    void settingsRoundTripInTheFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("settings.clusterloom").toStdString();
        {
            ScenarioStore store(path);
            QCOMPARE(store.setting("compare/selection"), std::string());
            store.setSetting("compare/selection", R"({"runs":[3,1],"baseline":3})");
            store.setSetting("compare/selection", R"({"runs":[1],"baseline":1})");
            store.setSetting("other", "x");
        }
        ScenarioStore again(path);
        QCOMPARE(again.setting("compare/selection"), std::string(R"({"runs":[1],"baseline":1})"));
        again.setSetting("other", "");
        QCOMPARE(again.setting("other"), std::string());
        QCOMPARE(scalar(again, "SELECT count(*) FROM workspace_settings"), 1LL);
    }

    void clusterRoundTrip() {
        ScenarioStore store(freshPath());
        QCOMPARE(store.schemaVersion(), ScenarioStore::latestSchemaVersion());
        for (const Cluster& c :
             {builtinCluster("muri-testbed-64"), builtinCluster("large-2048"), handMadeCluster()}) {
            const std::int64_t id = store.putCluster(c);
            QVERIFY(id > 0);
            VERIFY_SAME(diffServers(store.cluster(id), c));
            QCOMPARE(store.putCluster(c), id);  // identical content: the same row
        }
        const auto listed = store.clusters();
        QCOMPARE(listed.size(), std::size_t(3));
        QCOMPARE(listed[0].name, std::string("muri-testbed-64"));
        QCOMPARE(listed[0].size, 8LL);
        QCOMPARE(listed[1].size, static_cast<long long>(builtinCluster("large-2048").servers.size()));
        QCOMPARE(listed[2].size, 3LL);
        QVERIFY(!listed[0].content_hash.empty() && listed[0].content_hash != listed[2].content_hash);
        QVERIFY(listed[0].created.find('T') != std::string::npos && listed[0].created.back() == 'Z');

        Cluster changed = handMadeCluster();
        changed.servers[1].gpus = 2;
        QVERIFY(store.putCluster(changed) != listed[2].id);
        VERIFY_STORE_ERROR(store.cluster(999), "no cluster with id 999");
    }

    // A stored name with other content clashes; the identical content, or a free name, does
    // not (putCluster returns the stored row for the first and adds one for the second).
    void clusterNameClashFindsOnlyNewContentUnderATakenName() {
        ScenarioStore store(freshPath());
        const Cluster testbed = builtinCluster("muri-testbed-64");
        QVERIFY(!clusterNameClash(store, testbed));  // empty workspace
        const std::int64_t id = store.putCluster(testbed);
        QVERIFY(!clusterNameClash(store, testbed));  // identical content
        Cluster smaller = testbed;
        smaller.servers.pop_back();
        const auto clash = clusterNameClash(store, smaller);
        QVERIFY(clash);
        QCOMPARE(clash->id, id);
        QCOMPARE(clash->name, testbed.name);
        smaller.name = "testbed-56";
        QVERIFY(!clusterNameClash(store, smaller));
        store.putCluster(smaller);
        QVERIFY(!clusterNameClash(store, smaller));
        QCOMPARE(store.clusters().size(), std::size_t(2));
    }

    void profilesRoundTrip() {
        ScenarioStore store(freshPath());
        const ProfileSet p = builtinProfiles();
        const std::int64_t id = store.putProfiles(p);
        const ProfileSet back = store.profiles(id);
        QCOMPARE(profilesJsonText(back), profilesJsonText(p));
        QCOMPARE(back.modelNames(), p.modelNames());
        QCOMPARE(back.name, p.name);
        for (const auto& [name, m] : p.models) {
            const ModelProfile* b = back.find(name);
            QVERIFY(b);
            QCOMPARE(b->batch_size, m.batch_size);
            QCOMPARE(b->by_gpus.size(), m.by_gpus.size());
            for (std::size_t k = 0; k < m.by_gpus.size(); ++k) {
                QCOMPARE(b->by_gpus[k].gpus, m.by_gpus[k].gpus);
                QCOMPARE(b->by_gpus[k].solo_iteration_time, m.by_gpus[k].solo_iteration_time);
                QCOMPARE(b->by_gpus[k].stage_times, m.by_gpus[k].stage_times);
                QCOMPARE(b->by_gpus[k].restart_overhead, m.by_gpus[k].restart_overhead);
            }
        }
        QCOMPARE(store.putProfiles(p), id);
        const std::int64_t small = store.putProfiles(fixtureProfiles());
        QVERIFY(small != id);
        QCOMPARE(profilesJsonText(store.profiles(small)), profilesJsonText(fixtureProfiles()));
        QCOMPARE(store.profileSets().size(), std::size_t(2));
        QCOMPARE(store.profileSets()[0].size, static_cast<long long>(p.models.size()));
        VERIFY_STORE_ERROR(store.profiles(999), "no profile set with id 999");
    }

    void traceRoundTrip() {
        ScenarioStore store(freshPath());
        const Trace hand = handMadeTrace();
        const Trace small = smallTrace(60);
        const std::int64_t a = store.putTrace(hand);
        const std::int64_t b = store.putTrace(small);
        QVERIFY(a != b);
        VERIFY_SAME(diffTraces(store.trace(a), hand));
        VERIFY_SAME(diffTraces(store.trace(b), small));
        QCOMPARE(store.putTrace(hand), a);
        QCOMPARE(store.putTrace(small), b);
        // Any field makes a different trace: a stage time, the provenance, the name.
        Trace t = hand;
        t.jobs[0].stage_times[2] = 2e-9;
        QVERIFY(store.putTrace(t) != a);
        t = hand;
        t.provenance.push_back("one more step");
        QVERIFY(store.putTrace(t) != a);
        t = hand;
        t.name = "renamed";
        QVERIFY(store.putTrace(t) != a);
        const auto listed = store.traces();
        QCOMPARE(listed.size(), std::size_t(5));
        QCOMPARE(listed[0].size, 3LL);
        QCOMPARE(listed[1].size, static_cast<long long>(small.jobs.size()));
        // An empty trace is a trace too.
        Trace empty;
        empty.name = "empty";
        VERIFY_SAME(diffTraces(store.trace(store.putTrace(empty)), empty));
        VERIFY_STORE_ERROR(store.trace(999), "no trace with id 999");
    }

    // ---- scenarios ----------------------------------------------------------------------------

    void scenarioRoundTrip() {
        ScenarioStore store(freshPath());
        const Inputs in = storeSmallInputs(store);
        ScenarioSpec spec = specFor("what if: muri-s, ×1.5 load", in);
        spec.policy = "muri-s";
        spec.conventions = "muri-artifact";
        spec.parameters.load_factor = 1.5;
        spec.parameters.server_count = 12;
        spec.parameters.max_group_size = 2;
        spec.parameters.reassign_models = true;
        spec.parameters.transforms = {"subsample=30:7", "cap-gpus=8"};
        spec.parameters.interference = 1.25;
        spec.parameters.slurm_parameters = {"bf_interval=1", "PriorityType=priority/multifactor"};
        spec.seed = 123456789012345ULL;
        spec.notes = "notes with \"quotes\"\nand a second line";
        const std::int64_t id = store.createScenario(spec);
        const ScenarioInfo info = store.scenario(spec.name);
        QCOMPARE(info.id, id);
        VERIFY_SAME(diffSpecs(info.spec, spec));
        QCOMPARE(info.runs, 0);
        QCOMPARE(info.content_hash.size(), std::size_t(16));
        QVERIFY(!info.created.empty() && info.created == info.modified);
        QVERIFY(store.findScenario(spec.name).has_value());
        QVERIFY(!store.findScenario("nope").has_value());

        // Parameters JSON round trip, and its errors.
        QCOMPARE(ScenarioParameters::fromJson(spec.parameters.toJson()), spec.parameters);
        QCOMPARE(ScenarioParameters::fromJson(nlohmann::json::object()), ScenarioParameters{});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ScenarioParameters::fromJson(nlohmann::json{{"load_factor", "fast"}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ScenarioParameters::fromJson(nlohmann::json{{"speed", 2}}));
        // The interference ratio is written only when set, so older scenarios keep their hash.
        QCOMPARE(spec.parameters.toJson()["interference"].get<double>(), 1.25);
        QVERIFY(!ScenarioParameters{}.toJson().contains("interference"));
        QCOMPARE(ScenarioParameters::fromJson(nlohmann::json{{"interference", 1.8}}).interference, 1.8);
        try {
            ScenarioParameters::fromJson(nlohmann::json{{"interference", 0.5}});
            QFAIL("an interference ratio of 0.5 was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find(
                         "'interference' must be 0 (the profile's ratios) or 1..100") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ScenarioParameters::fromJson(nlohmann::json{{"interference", "high"}}));
        // So are the Slurm settings; one the slurm policy cannot read refuses the scenario.
        QVERIFY(!ScenarioParameters{}.toJson().contains("slurm_parameters"));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            ScenarioParameters::fromJson(nlohmann::json{{"slurm_parameters", "bf_interval=1"}}));
        ScenarioSpec bad_slurm = specFor("bad slurm", in);
        bad_slurm.parameters.slurm_parameters = {"bf_interval=soon"};
        try {
            store.createScenario(bad_slurm);
            QFAIL("a Slurm setting that cannot be read was accepted");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("Slurm setting: bf_interval") != std::string::npos, e.what());
        }

        // The resolved inputs apply the parameters.
        const ScenarioInputs resolved = resolveScenario(store, info);
        QCOMPARE(resolved.cluster.servers.size(), std::size_t(12));
        QCOMPARE(resolved.trace.jobs.size(), std::size_t(30));
        QCOMPARE(resolved.policy, std::string("muri-s"));
        QCOMPARE(resolved.tuning.max_group_size, 2);
        QCOMPARE(resolved.tuning.interference, 1.25);
        for (const Job& j : resolved.trace.jobs) QVERIFY(j.gpus <= 8);
    }

    void scenarioHashIgnoresTheName() {
        ScenarioStore store(freshPath());
        const Inputs in = storeSmallInputs(store);
        store.createScenario(specFor("first", in));
        store.duplicateScenario("first", "second");
        store.createScenario(specFor("third, made separately", in));
        const std::string h = store.scenario("first").content_hash;
        QCOMPARE(store.scenario("second").content_hash, h);
        QCOMPARE(store.scenario("third, made separately").content_hash, h);
        // Any setting changes it.
        store.duplicateScenario("first", "load", [](ScenarioSpec& s) { s.parameters.load_factor = 2; });
        store.duplicateScenario("first", "policy", [](ScenarioSpec& s) { s.policy = "tiresias"; });
        store.duplicateScenario("first", "seed", [](ScenarioSpec& s) { s.seed = 2; });
        store.duplicateScenario("first", "conv", [](ScenarioSpec& s) { s.conventions = "muri-artifact"; });
        const std::int64_t other_trace = store.putTrace(handMadeTrace());
        store.duplicateScenario("first", "trace", [&](ScenarioSpec& s) { s.trace_id = other_trace; });
        std::set<std::string> hashes{h};
        for (const char* n : {"load", "policy", "seed", "conv", "trace"})
            hashes.insert(store.scenario(n).content_hash);
        QCOMPARE(hashes.size(), std::size_t(6));
    }

    void duplicateRenameDelete() {
        ScenarioStore store(freshPath());
        const Inputs in = storeSmallInputs(store);
        ScenarioSpec base = specFor("base", in);
        base.notes = "the baseline";
        store.createScenario(base);
        const std::int64_t copy_id =
            store.duplicateScenario("base", "base x2", [](ScenarioSpec& s) { s.parameters.load_factor = 2; });
        ScenarioSpec expected = base;
        expected.name = "base x2";
        expected.parameters.load_factor = 2;
        VERIFY_SAME(diffSpecs(store.scenario("base x2").spec, expected));
        QCOMPARE(store.scenario("base x2").id, copy_id);
        VERIFY_SAME(diffSpecs(store.scenario("base").spec, base));  // the original is untouched

        store.renameScenario("base x2", "double load");
        QVERIFY(!store.findScenario("base x2"));
        QCOMPARE(store.scenario("double load").id, copy_id);
        QCOMPARE(store.scenario("double load").spec.parameters.load_factor, 2.0);
        store.renameScenario("double load", "double load");  // to itself: nothing happens
        QCOMPARE(store.scenario("double load").id, copy_id);

        // Two runs of the copy, one of the base.
        const std::int64_t r1 = runScenario(store, "double load").run_id;
        const std::int64_t r2 = runScenario(store, "double load", true).run_id;
        const std::int64_t r3 = runScenario(store, "base").run_id;
        QCOMPARE(store.scenario("double load").runs, 2);
        for (std::int64_t r : {r1, r2, r3}) QVERIFY(resultRows(store, r) > 0);

        store.deleteScenario("double load");
        QVERIFY(!store.findScenario("double load"));
        for (std::int64_t r : {r1, r2}) {
            QCOMPARE(scalar(store, "SELECT count(*) FROM runs WHERE id = ?1", r), 0LL);
            QCOMPARE(resultRows(store, r), 0LL);
            VERIFY_STORE_ERROR(store.runInfo(r), "no run with id " + std::to_string(r));
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM runs WHERE scenario_id = ?1", copy_id), 0LL);
        // The other scenario's run is untouched.
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.runs()[0].id, r3);
        QCOMPARE(store.runInfo(r3).status, RunStatus::Finished);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    void nestedTransactionsAreSavepoints() {
        const std::string path = freshPath();
        ScenarioStore store(path);
        const Inputs in = storeSmallInputs(store);
        {
            Transaction outer(store.db());
            store.createScenario(specFor("inner", in));  // commits its savepoint only
            QVERIFY(store.findScenario("inner").has_value());
        }  // the outer transaction rolls back, the scenario with it
        QVERIFY(!store.findScenario("inner").has_value());
        {
            Transaction outer(store.db());
            store.createScenario(specFor("kept", in));
            outer.commit();
        }
        QVERIFY(store.findScenario("kept").has_value());
    }

    void nameConflictsAndUnknownNames() {
        const std::string path = freshPath();
        ScenarioStore store(path);
        const Inputs in = storeSmallInputs(store);
        VERIFY_STORE_ERROR(store.scenario("ghost"), path, "no scenario named 'ghost'", "has no scenarios");
        store.createScenario(specFor("alpha", in));
        store.createScenario(specFor("beta", in));

        VERIFY_STORE_ERROR(store.createScenario(specFor("alpha", in)),
                           "a scenario named 'alpha' already exists");
        VERIFY_STORE_ERROR(store.duplicateScenario("alpha", "beta"),
                           "a scenario named 'beta' already exists");
        VERIFY_STORE_ERROR(store.renameScenario("alpha", "beta"), "a scenario named 'beta' already exists");
        // Unknown names list the scenarios there are.
        VERIFY_STORE_ERROR(store.scenario("alpah"), "no scenario named 'alpah'", "alpha, beta");
        VERIFY_STORE_ERROR(store.duplicateScenario("gamma", "delta"), "no scenario named 'gamma'", "alpha");
        VERIFY_STORE_ERROR(store.renameScenario("gamma", "delta"), "no scenario named 'gamma'");
        VERIFY_STORE_ERROR(store.deleteScenario("gamma"), "no scenario named 'gamma'");
        VERIFY_STORE_ERROR(runScenario(store, "gamma"), "no scenario named 'gamma'");
        VERIFY_STORE_ERROR(store.renameScenario("alpha", ""), "needs a name");
        VERIFY_STORE_ERROR(store.createScenario(specFor("", in)), "needs a name");
        // Nothing changed.
        QCOMPARE(store.scenarios().size(), std::size_t(2));
        QCOMPARE(store.scenarios()[0].spec.name, std::string("alpha"));
        QVERIFY(!store.findScenario("delta"));

        VERIFY_STORE_ERROR(store.runInfo(4242), "no run with id 4242");
        VERIFY_STORE_ERROR(store.beginRun(4242, "v"), "no scenario with id 4242");
        VERIFY_STORE_ERROR(store.failRun(4242, RunStatus::Failed, "x"), "no run with id 4242");
        VERIFY_STORE_ERROR(store.saveRun(4242, handMadeResult()), "no run with id 4242");
    }

    void validationErrors() {
        ScenarioStore store(freshPath());
        const Inputs in = storeSmallInputs(store);
        auto with = [&](const std::function<void(ScenarioSpec&)>& change) {
            ScenarioSpec s = specFor("bad", in);
            change(s);
            return s;
        };
        VERIFY_STORE_ERROR(store.createScenario(with([](ScenarioSpec& s) { s.parameters.load_factor = 0; })),
                           "scenario 'bad'", "load factor must be a positive number");
        VERIFY_STORE_ERROR(store.createScenario(with([](ScenarioSpec& s) { s.parameters.load_factor = -1; })),
                           "load factor");
        VERIFY_STORE_ERROR(
            store.createScenario(with([](ScenarioSpec& s) { s.parameters.load_factor = kNaN; })),
            "load factor");
        VERIFY_STORE_ERROR(store.createScenario(with([](ScenarioSpec& s) { s.conventions = "sloppy"; })),
                           "scenario 'bad'", "unknown conventions 'sloppy'", "clean, muri-artifact");
        VERIFY_STORE_ERROR(
            store.createScenario(with([](ScenarioSpec& s) { s.parameters.max_group_size = 7; })),
            "scenario 'bad'", "group size must be 0", "1..4");
        VERIFY_STORE_ERROR(
            store.createScenario(with([](ScenarioSpec& s) { s.parameters.server_count = -3; })),
            "server count");
        VERIFY_STORE_ERROR(
            store.createScenario(with([](ScenarioSpec& s) { s.parameters.interference = 0.5; })),
            "scenario 'bad'", "interference ratio must be 0 (the profile's) or 1..100");
        VERIFY_STORE_ERROR(store.createScenario(with([](ScenarioSpec& s) { s.policy.clear(); })),
                           "no policy");
        VERIFY_STORE_ERROR(store.createScenario(with([](ScenarioSpec& s) { s.cluster_id = 77; })),
                           "refers to a missing clusters row (id 77)");
        VERIFY_STORE_ERROR(store.createScenario(with([](ScenarioSpec& s) { s.trace_id = 78; })),
                           "missing traces row (id 78)");
        QVERIFY(store.scenarios().empty());

        // A "what if" copy is validated too, and a refused copy leaves nothing behind.
        store.createScenario(specFor("good", in));
        VERIFY_STORE_ERROR(
            store.duplicateScenario("good", "k7", [](ScenarioSpec& s) { s.parameters.max_group_size = 7; }),
            "scenario 'k7'", "group size");
        QVERIFY(!store.findScenario("k7"));
        QCOMPARE(store.scenarios().size(), std::size_t(1));
    }

    // ---- runs ---------------------------------------------------------------------------------

    void handMadeRunRoundTrip() {
        ScenarioStore store(freshPath());
        const Inputs in = storeSmallInputs(store);
        const std::int64_t scenario = store.createScenario(specFor("hand", in));
        const std::int64_t run = store.beginRun(scenario, "test-engine");
        RunInfo info = store.runInfo(run);
        QCOMPARE(info.status, RunStatus::Running);
        QVERIFY(info.finished.empty());
        QCOMPARE(info.summary.jobs, 0);
        QCOMPARE(info.engine_version, std::string("test-engine"));
        QCOMPARE(info.content_hash, store.scenario("hand").content_hash);

        const SimResult r = handMadeResult();
        std::size_t last_done = 0, last_total = 0;
        store.saveRun(run, r, [&](std::size_t done, std::size_t total) {
            last_done = done;
            last_total = total;
        });
        // A row per job, per GPU (0, 1, 3, 7), per sample, per job with allocation changes (0, 2),
        // per job with batch changes (0, 2).
        QCOMPARE(last_total, r.jobs.size() + 4 + r.series.size() + 2 + 2);
        QCOMPARE(last_done, last_total);
        VERIFY_SAME(diffResults(store.loadRun(run), r));
        QVERIFY(std::isnan(store.loadRun(run).jobs[1].first_start));
        QVERIFY(std::isnan(store.loadRun(run).series[1].blocking_index));
        QVERIFY(std::isnan(store.loadRun(run).series[2].cpu_allocated));
        QCOMPARE(store.loadRun(run).series[1].memory_allocated, 1.0 / 3.0);
        {
            // In time order; of the two changes at t = 60, job 0's first.
            const std::vector<AllocationChange> back = store.loadRun(run).allocations;
            QCOMPARE(back.size(), std::size_t(4));
            const int jobs[] = {0, 2, 0, 2};
            const double times[] = {1.5, 10, 60, 60};
            for (std::size_t k = 0; k < back.size(); ++k) {
                QCOMPARE(back[k].job, jobs[k]);
                QCOMPARE(back[k].t, times[k]);
            }
            QCOMPARE(back[0].cpus, 12.0);
            QCOMPARE(back[0].memory_gb, 250.0);
            QCOMPARE(back[0].speedup, 2.4);
            QCOMPARE(back[3].cpus, 1.0 / 3.0);
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_allocations WHERE run_id = ?1", run), 2LL);
        {
            // In time order; of the two changes at t = 50, job 0's first.
            const std::vector<BatchChange> back = store.loadRun(run).batches;
            QCOMPARE(back.size(), std::size_t(4));
            const int jobs[] = {0, 0, 2, 2};
            const double times[] = {1.5, 50, 50, 60};
            for (std::size_t k = 0; k < back.size(); ++k) {
                QCOMPARE(back[k].job, jobs[k]);
                QCOMPARE(back[k].t, times[k]);
            }
            QCOMPARE(back[2].sub_batch, 16);
            QCOMPARE(back[2].accumulation_steps, 4);
            QCOMPARE(back[2].interference, 1.8);
            QCOMPARE(back[1].interference, 1.0 / 3.0 + 1);
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_batches WHERE run_id = ?1", run), 2LL);
        const SimResult no_segments = store.loadRun(run, false);
        QVERIFY(no_segments.segments.empty());
        QVERIFY(no_segments.allocations.empty());  // read with the segments
        QVERIFY(no_segments.batches.empty());
        VERIFY_SAME(diffResults(no_segments, r, false));

        info = store.runInfo(run);
        QCOMPARE(info.status, RunStatus::Finished);
        QVERIFY(!info.finished.empty());
        QCOMPARE(info.scenario_name, std::string("hand"));
        QCOMPARE(info.policy, std::string("srtf"));
        QCOMPARE(info.events, 17LL);
        QCOMPARE(info.wall_seconds, 0.0625);
        VERIFY_SAME(diffSummaries(info.summary, r.summary));
        QCOMPARE(store.runs(scenario).size(), std::size_t(1));
        QCOMPARE(store.scenario("hand").runs, 1);
        // A finished run is not written twice.
        VERIFY_STORE_ERROR(store.saveRun(run, r), "run " + std::to_string(run) + " is already finished");

        // Failed and cancelled runs keep their message.
        const std::int64_t failed = store.beginRun(scenario, "test-engine");
        store.failRun(failed, RunStatus::Failed, "out of memory");
        QCOMPARE(store.runInfo(failed).status, RunStatus::Failed);
        QCOMPARE(store.runInfo(failed).message, std::string("out of memory"));
        QCOMPARE(resultRows(store, failed), 0LL);
        SimResult cancelled = r;
        cancelled.cancelled = true;
        const std::int64_t c = store.beginRun(scenario, "test-engine");
        store.saveRun(c, cancelled);
        QCOMPARE(store.runInfo(c).status, RunStatus::Cancelled);
        VERIFY_SAME(diffResults(store.loadRun(c), cancelled));
        // Only the finished one counts for reuse.
        const auto found = store.finishedRunWithHash(info.content_hash, "test-engine");
        QVERIFY(found && found->id == run);
        QVERIFY(!store.finishedRunWithHash(info.content_hash, "other-engine"));
    }

    void simulatedRunRoundTrip() {
        ScenarioStore store(freshPath());
        const Trace trace = smallTrace(60);
        const Inputs in{store.putCluster(builtinCluster("muri-testbed-64")), store.putTrace(trace),
                        store.putProfiles(builtinProfiles())};
        const SimResult r = smallSimulation(trace);
        QCOMPARE(r.jobs.size(), std::size_t(60));
        QVERIFY(!r.segments.empty());
        QVERIFY(!r.series.empty());
        const std::int64_t run = store.beginRun(store.createScenario(specFor("sim", in)), engineVersion());
        store.saveRun(run, r);
        const SimResult back = store.loadRun(run);
        VERIFY_SAME(diffResults(back, r));
        // The store hands back each GPU's segments sorted by start.
        for (std::size_t k = 1; k < back.segments.size(); ++k)
            if (back.segments[k].gpu == back.segments[k - 1].gpu)
                QVERIFY(back.segments[k - 1].t0 <= back.segments[k].t0);

        // Reopening the file gives the same.
        const std::string path = store.path();
        ScenarioStore again(path);
        VERIFY_SAME(diffResults(again.loadRun(run), r));
        QCOMPARE(integrity(again), std::string("ok"));
    }

    void runScenarioReusesIdenticalRuns() {
        ScenarioStore store(freshPath());
        const Inputs in = storeSmallInputs(store);
        store.createScenario(specFor("once", in));
        const RunOutcome first = runScenario(store, "once");
        QVERIFY(!first.reused);
        QCOMPARE(first.info.status, RunStatus::Finished);
        QCOMPARE(first.info.engine_version, engineVersion());
        QCOMPARE(first.info.summary.jobs, 40);
        const RunOutcome second = runScenario(store, "once");
        QVERIFY(second.reused);
        QCOMPARE(second.run_id, first.run_id);
        QCOMPARE(store.runs().size(), std::size_t(1));
        const RunOutcome forced = runScenario(store, "once", true);
        QVERIFY(!forced.reused);
        QVERIFY(forced.run_id != first.run_id);
        QCOMPARE(store.runs().size(), std::size_t(2));
        // The engine is deterministic: the forced run stores the same results (but its own timing).
        SimResult again = store.loadRun(forced.run_id);
        const SimResult before = store.loadRun(first.run_id);
        QVERIFY(again.wall_seconds > 0);
        again.wall_seconds = before.wall_seconds;
        VERIFY_SAME(diffResults(again, before));
        // An identical scenario under another name reuses the latest run too.
        store.duplicateScenario("once", "same settings, other name");
        const RunOutcome copy = runScenario(store, "same settings, other name");
        QVERIFY(copy.reused);
        QCOMPARE(copy.run_id, forced.run_id);
        // A changed one does not.
        store.duplicateScenario("once", "busier", [](ScenarioSpec& s) { s.parameters.load_factor = 3; });
        QVERIFY(!runScenario(store, "busier").reused);
        QCOMPARE(store.runs().size(), std::size_t(3));
    }

    // ---- schema versions ------------------------------------------------------------------------

    void freshVersion1WorkspaceMigrates() {
        const std::string path = freshPath();
        {
            ScenarioStore v1(path, 1);
            QCOMPARE(v1.schemaVersion(), 1);
            storeSmallInputs(v1);
        }
        ScenarioStore latest(path);
        QCOMPARE(latest.schemaVersion(), ScenarioStore::latestSchemaVersion());
        QCOMPARE(latest.traces().size(), std::size_t(1));
        VERIFY_STORE_ERROR(ScenarioStore(path, 12), "no workspace schema 12");
        // Asking for an older version than the file's is no downgrade.
        ScenarioStore(path, 1);
        QCOMPARE(ScenarioStore(path).schemaVersion(), ScenarioStore::latestSchemaVersion());
    }

    void version1FixtureMigrates() {
        if (!fs::exists(kFixture)) QFAIL("tests/fixtures/workspace_v1.sqlite is missing");
        const std::string path = freshPath();
        fs::copy_file(kFixture, path);
        {
            SqliteDb raw(path, SqliteDb::Mode::ReadOnly);
            Statement v = raw.prepare("PRAGMA user_version");
            QVERIFY(v.step());
            QCOMPARE(v.intAt(0), 1);
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), ScenarioStore::latestSchemaVersion());
        QCOMPARE(integrity(store), std::string("ok"));
        {
            // The version-1 file is kept beside it for older builds.
            SqliteDb backup(path + ".schema1.bak", SqliteDb::Mode::ReadOnly);
            Statement v = backup.prepare("PRAGMA user_version");
            QVERIFY(v.step());
            QCOMPARE(v.intAt(0), 1);
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM sqlite_schema WHERE name = 'runs_by_hash'"), 1LL);
        QCOMPARE(scalar(store,
                        "SELECT count(*) FROM pragma_table_info('run_series') WHERE name = 'blocking_index'"),
                 1LL);

        // Inputs.
        QCOMPARE(store.clusters().size(), std::size_t(1));
        QCOMPARE(store.profileSets().size(), std::size_t(1));
        QCOMPARE(store.traces().size(), std::size_t(1));
        const Inputs in{store.clusters()[0].id, store.traces()[0].id, store.profileSets()[0].id};
        VERIFY_SAME(diffServers(store.cluster(in.cluster), fixtureCluster()));
        QCOMPARE(profilesJsonText(store.profiles(in.profiles)), profilesJsonText(fixtureProfiles()));
        VERIFY_SAME(diffTraces(store.trace(in.trace), fixtureTrace()));
        QCOMPARE(store.putTrace(fixtureTrace()), in.trace);  // content hashes carried over

        // The scenario and its run.
        const ScenarioInfo info = store.scenario("v1 scenario");
        VERIFY_SAME(diffSpecs(info.spec, fixtureSpec(in)));
        QCOMPARE(info.runs, 1);
        const auto runs = store.runs(info.id);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, RunStatus::Finished);
        QCOMPARE(runs[0].engine_version, std::string(kFixtureEngine));
        QCOMPARE(runs[0].content_hash, info.content_hash);
        SimResult expected = withDerivedSummary(fixtureResult());
        for (auto& t : expected.series) {  // version 1 kept none of these
            t.blocking_index = kNaN;
            t.storage_utilization = t.cpu_utilization = t.gpu_compute_utilization = t.network_utilization =
                kNaN;
            t.cpu_allocated = t.memory_allocated = kNaN;
        }
        VERIFY_SAME(diffResults(store.loadRun(runs[0].id), expected));

        // New runs are saved with the version-2 columns.
        const RunOutcome fresh = runScenario(store, "v1 scenario");
        QVERIFY(!fresh.reused);  // another engine version
        QCOMPARE(fresh.info.status, RunStatus::Finished);
        const SimResult back = store.loadRun(fresh.run_id);
        QCOMPARE(back.jobs.size(), std::size_t(4));
        QVERIFY(!back.series.empty());
        QVERIFY(std::any_of(back.series.begin(), back.series.end(),
                            [](const TimeSample& t) { return !std::isnan(t.blocking_index); }));
        QVERIFY(std::any_of(back.series.begin(), back.series.end(),
                            [](const TimeSample& t) { return t.cpu_utilization > 0.0; }));
        QVERIFY(std::any_of(back.series.begin(), back.series.end(), [](const TimeSample& t) {
            return t.cpu_allocated > 0.0 && t.memory_allocated > 0.0;
        }));
        const std::int64_t hand = store.beginRun(info.id, "test");
        store.saveRun(hand, handMadeResult());
        VERIFY_SAME(diffResults(store.loadRun(hand), handMadeResult()));
        QCOMPARE(integrity(store), std::string("ok"));
    }

    void version3WorkspaceMigrates() {
        const std::string path = freshPath();
        // A version-3 run: every series column of its time, one segment per GPU.
        SimResult v3 = fixtureResult();
        for (std::size_t k = 0; k < v3.series.size(); ++k) {
            TimeSample& t = v3.series[k];
            t.storage_utilization = 0.125 * double(k);
            t.cpu_utilization = 0.25;
            t.gpu_compute_utilization = k == 2 ? kNaN : 0.5;
            t.network_utilization = 1.0 / 3.0;
        }
        std::int64_t run = 0, scenario = 0;
        {
            ScenarioStore old(path, 3);
            QCOMPARE(old.schemaVersion(), 3);
            scenario = old.createScenario(specFor("v3", storeSmallInputs(old)));
            run = old.beginRun(scenario, "v3-engine");
            insertV3Run(old.db(), run, v3);
            QCOMPARE(scalar(old, "SELECT count(*) FROM sqlite_schema WHERE name = 'run_allocations'"), 0LL);
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), ScenarioStore::latestSchemaVersion());
        QCOMPARE(store.schemaVersion(), 11);
        QCOMPARE(integrity(store), std::string("ok"));
        {
            SqliteDb backup(path + ".schema3.bak", SqliteDb::Mode::ReadOnly);
            Statement v = backup.prepare("PRAGMA user_version");
            QVERIFY(v.step());
            QCOMPARE(v.intAt(0), 3);
        }
        for (const char* column : {"cpu_allocated", "memory_allocated"})
            QCOMPARE(
                scalar(store,
                       std::string("SELECT count(*) FROM pragma_table_info('run_series') WHERE name = '") +
                           column + "'"),
                1LL);

        // The old run reads as it was, its allocated shares unknown and no allocation changes.
        SimResult expected = withDerivedSummary(v3);
        for (auto& t : expected.series) t.cpu_allocated = t.memory_allocated = kNaN;
        const SimResult back = store.loadRun(run);
        VERIFY_SAME(diffResults(back, expected));
        QVERIFY(back.allocations.empty());
        QVERIFY(std::isnan(back.series[0].cpu_allocated) && std::isnan(back.series[4].memory_allocated));
        QCOMPARE(back.series[3].storage_utilization, 0.375);

        // New runs keep their allocations; deleting the scenario deletes them too.
        const std::int64_t fresh = store.beginRun(scenario, "test");
        store.saveRun(fresh, handMadeResult());
        VERIFY_SAME(diffResults(store.loadRun(fresh), handMadeResult()));
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_allocations"), 2LL);
        store.deleteScenario("v3");
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_allocations"), 0LL);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    void damagedAllocationDataIsReported() {
        ScenarioStore store(freshPath());
        const std::int64_t run =
            store.beginRun(store.createScenario(specFor("damaged", storeSmallInputs(store))), "t");
        store.saveRun(run, handMadeResult());
        store.db()
            .prepare("UPDATE run_allocations SET changes = 3 WHERE run_id = ?1 AND job = 2")
            .bind(1, run)
            .run();
        VERIFY_STORE_ERROR(store.loadRun(run), "run " + std::to_string(run), "job 2",
                           "damaged allocation data", "64 bytes for 3 changes");
        QCOMPARE(store.loadRun(run, false).series.size(), handMadeResult().series.size());
    }

    // Schema 8 added summary figures; a run stored before has them derived from its per-job
    // records over the jobs it measured (the scenario's window), in listings and loaded runs.
    void summaryFiguresOfOlderRunsAreDerived() {
        const std::string path = freshPath();
        SimResult v7 = fixtureResult();
        v7.jobs[1].gpus = 16;  // a large job inside the window
        v7.jobs[2].queueing_delay = 12.5;
        v7.jobs[2].first_start = v7.jobs[2].submit + 12.5;
        const std::vector<JobRecord> window(v7.jobs.begin() + 1, v7.jobs.begin() + 3);
        v7.summary = summarize(window);
        std::int64_t run = 0;
        {
            ScenarioStore old(path, 7);
            ScenarioSpec spec = specFor("windowed", storeSmallInputs(old));
            spec.parameters.measure_first = 1;
            spec.parameters.measure_last = 2;
            run = old.beginRun(old.createScenario(spec), "v7-engine");
            old.saveRun(run, v7);
        }
        ScenarioStore store(path);
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_summaries WHERE large_completed IS NULL"), 1LL);
        const Summary listed = store.runInfo(run).summary;
        VERIFY_SAME(diffSummaries(listed, summarize(window)));
        QCOMPARE(listed.large.completed, 1);
        QCOMPARE(listed.large.p99_jct, 90.0);  // job 1: 5 .. 95
        QCOMPARE(listed.small.completed, 1);
        QCOMPARE(listed.small.p95_jct, 215.0);  // job 2: 10 .. 225
        QCOMPARE(listed.p95_queueing_delay, 12.5);
        VERIFY_SAME(diffSummaries(store.loadRun(run).summary, summarize(window)));
        VERIFY_SAME(diffSummaries(store.runs().at(0).summary, summarize(window)));
    }

    void version4WorkspaceMigrates() {
        const std::string path = freshPath();
        // A version-4 run: everything but batch changes (saveRun of that schema wrote none).
        SimResult v4 = handMadeResult();
        v4.batches.clear();
        std::int64_t run = 0, scenario = 0;
        {
            ScenarioStore old(path, 4);
            QCOMPARE(old.schemaVersion(), 4);
            scenario = old.createScenario(specFor("v4", storeSmallInputs(old)));
            run = old.beginRun(scenario, "v4-engine");
            old.saveRun(run, v4);
            QCOMPARE(scalar(old, "SELECT count(*) FROM sqlite_schema WHERE name = 'run_batches'"), 0LL);
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), ScenarioStore::latestSchemaVersion());
        QCOMPARE(store.schemaVersion(), 11);
        QCOMPARE(integrity(store), std::string("ok"));
        {
            SqliteDb backup(path + ".schema4.bak", SqliteDb::Mode::ReadOnly);
            Statement v = backup.prepare("PRAGMA user_version");
            QVERIFY(v.step());
            QCOMPARE(v.intAt(0), 4);
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM sqlite_schema WHERE name = 'run_batches'"), 1LL);

        // The old run reads as it was, with no batch changes.
        const SimResult back = store.loadRun(run);
        VERIFY_SAME(diffResults(back, withDerivedSummary(v4)));
        QVERIFY(back.batches.empty());
        QCOMPARE(back.allocations.size(), std::size_t(4));

        // New runs keep their batch changes; deleting the scenario deletes them too.
        const std::int64_t fresh = store.beginRun(scenario, "test");
        store.saveRun(fresh, handMadeResult());
        VERIFY_SAME(diffResults(store.loadRun(fresh), handMadeResult()));
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_batches"), 2LL);
        store.deleteScenario("v4");
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_batches"), 0LL);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    void damagedBatchDataIsReported() {
        ScenarioStore store(freshPath());
        const std::int64_t run =
            store.beginRun(store.createScenario(specFor("damaged", storeSmallInputs(store))), "t");
        store.saveRun(run, handMadeResult());
        store.db()
            .prepare("UPDATE run_batches SET changes = 3 WHERE run_id = ?1 AND job = 2")
            .bind(1, run)
            .run();
        VERIFY_STORE_ERROR(store.loadRun(run), "run " + std::to_string(run), "job 2", "damaged batch data",
                           "48 bytes for 3 changes");
        QCOMPARE(store.loadRun(run, false).jobs.size(), handMadeResult().jobs.size());
    }

    // ---- files that are not (our) workspaces ----------------------------------------------------

    void corruptFilesAreRefusedUntouched_data() {
        QTest::addColumn<QByteArray>("bytes");
        std::mt19937 rng(42);
        QByteArray random(64 * 1024, '\0');
        for (auto& c : random) c = static_cast<char>(rng() & 0xff);
        QTest::newRow("random bytes") << random;
        QByteArray text;
        for (int k = 0; k < 200; ++k)
            text += "job_id,num_gpu,submit_time\n" + QByteArray::number(k) + ",1,0\n";
        QTest::newRow("text file") << text;
        QTest::newRow("short text") << QByteArray("hello\n");
        // A SQLite header on garbage.
        QByteArray fake = QByteArray("SQLite format 3") + '\0' + random.left(8192);
        QTest::newRow("fake header") << fake;
    }
    void corruptFilesAreRefusedUntouched() {
        QFETCH(QByteArray, bytes);
        const std::string path = freshPath();
        writeBytes(path, bytes.toStdString());
        const std::string before = fileBytes(path);
        VERIFY_STORE_ERROR(ScenarioStore{path}, path, "not a ClusterLoom workspace", "not modified");
        qInfo("%s", storeError([&] { ScenarioStore{path}; }).c_str());
        QCOMPARE(fileBytes(path), before);
        QVERIFY(!fs::exists(path + "-wal"));
        QVERIFY(!fs::exists(path + "-journal"));
    }

    void newerWorkspaceIsRefusedUntouched() {
        const std::string path = freshPath();
        {
            ScenarioStore store(path);
            storeSmallInputs(store);
            store.db().exec("PRAGMA user_version=99");
        }
        const std::string before = fileBytes(path);
        VERIFY_STORE_ERROR(ScenarioStore{path}, path, "newer", "schema 99", "not modified");
        qInfo("%s", storeError([&] { ScenarioStore{path}; }).c_str());
        QCOMPARE(fileBytes(path), before);
        VERIFY_STORE_ERROR(ScenarioStore(path, 1), "newer");
        QCOMPARE(fileBytes(path), before);
    }

    void otherProgramsDatabaseIsRefusedUntouched() {
        const std::string path = freshPath();
        {
            SqliteDb db(path, SqliteDb::Mode::ReadWriteCreate);
            db.exec(
                "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) "
                "VALUES('mine')");
        }
        const std::string before = fileBytes(path);
        VERIFY_STORE_ERROR(ScenarioStore{path}, path, "not a ClusterLoom workspace", "another program",
                           "not modified");
        qInfo("%s", storeError([&] { ScenarioStore{path}; }).c_str());
        QCOMPARE(fileBytes(path), before);
        SqliteDb db(path, SqliteDb::Mode::ReadOnly);
        Statement s = db.prepare("SELECT group_concat(name) FROM sqlite_schema");
        QVERIFY(s.step());
        QCOMPARE(s.textAt(0), std::string("notes"));
    }

    void otherPathProblems() {
        VERIFY_STORE_ERROR(ScenarioStore{dir_.path().toStdString()}, "is a directory");
        VERIFY_STORE_ERROR(ScenarioStore{std::string()}, "no workspace file");
        // An empty file becomes a workspace; a missing folder is created.
        const std::string empty = freshPath();
        writeBytes(empty, "");
        QCOMPARE(ScenarioStore(empty).schemaVersion(), ScenarioStore::latestSchemaVersion());
        const std::string nested = (fs::path(dir_.path().toStdString()) / "a" / "b" / "ws.sqlite").string();
        QCOMPARE(ScenarioStore(nested).schemaVersion(), ScenarioStore::latestSchemaVersion());
        QVERIFY(fs::exists(nested));
    }
};

QTEST_APPLESS_MAIN(TestStore)
#include "test_store.moc"
