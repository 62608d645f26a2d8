// Slurm import speed and memory target (docs/architecture.md section 8.5): reading
// 1,000,000 rows of `sacct --parsable2` output takes under 5 s and under 1 GB.
// The input is generated here, deterministic: jobs with their .batch, .extern and .0 steps, array
// tasks and pending ranges, heterogeneous components, a mix of states, every ReqMem form and GPU
// TRES strings with and without a type.
// Counters: rows and kept jobs per iteration, rows per second, and peak_mb, the process's peak
// resident memory while the reader runs (Linux: the peak is reset just before, so the generated
// text held by the bench is counted only where the reader itself holds it).
// BM_ImportSacctAsTrace measures the whole import (reader, trace, profile rules, iterations).
// BM_ReplaySacctWithSlurm (docs/architecture.md 4.8): the same history imported and replayed with
// the slurm policy (multifactor priority with age, size, partition and fair-share weights,
// backfill at Slurm's defaults) on 2,000 GPUs (250 servers of 8) in 4 partitions: under 20 s and
// 1 GB. The history offers about ten times what 2,000 GPUs can run (it was written for the
// reader), so its submit times are stretched 15-fold: about three quarters busy, as a real cluster.
// Run: build/release/bench/bench_slurm_import
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/io/builtin_data.h"
#include "core/io/sacct_trace.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_sacct.h"
#include "core/policies/scheduler_registry.h"
#include "core/sim/simulator.h"
#include "core/workload/measured_iterations.h"
#include "core/workload/profile_rules.h"

namespace {

namespace fs = std::filesystem;
constexpr int kRows = 1000000;

// 2024-03-01T00:00:00 + seconds, as sacct prints it.
std::string isoTime(long long seconds) {
    const long long day = seconds / 86400, rest = seconds % 86400;
    char text[96];
    std::snprintf(text, sizeof text, "2024-%02lld-%02lldT%02lld:%02lld:%02lld", 3 + day / 28, 1 + day % 28,
                  rest / 3600, rest / 60 % 60, rest % 60);
    return text;
}

std::string elapsedText(long long seconds) {
    char text[96];
    if (seconds >= 86400)
        std::snprintf(text, sizeof text, "%lld-%02lld:%02lld:%02lld", seconds / 86400, seconds / 3600 % 24,
                      seconds / 60 % 60, seconds % 60);
    else
        std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60,
                      seconds % 60);
    return text;
}

// About a quarter of the rows are job allocations, the rest their steps. With `json`, the same
// jobs as `sacct --json` of Slurm 23.11 prints them (steps nested in their job, one row each).
std::string generateSacct(int rows, unsigned seed, bool json = false) {
    std::mt19937 rng(seed);
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const char* const kStates[] = {"COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED",
                                   "COMPLETED", "COMPLETED", "FAILED",    "CANCELLED by 1042",
                                   "TIMEOUT",   "RUNNING",   "PENDING",   "OUT_OF_MEMORY",
                                   "NODE_FAIL", "PREEMPTED", "REQUEUED"};
    const char* const kTypes[] = {"a100", "h100", "v100", "l40s", ""};
    const char* const kUsers[] = {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"};
    const char* const kNames[] = {"train-bert", "sweep",      "finetune-llama",
                                  "eval",       "preprocess", "resnet50-ddp"};
    std::string out = json
                          ? "{\"meta\": {\"slurm\": {\"release\": \"23.11.4\"}},\n\"jobs\": [\n"
                          : "JobID|JobIDRaw|JobName|User|Account|Partition|Submit|Eligible|Start|End|Elapsed|"
                            "Timelimit|State|NNodes|NCPUS|ReqMem|ReqTRES|AllocTRES\n";
    out.reserve(static_cast<std::size_t>(rows) * 230);
    long long next_id = 1000000, now = 0;
    int written = 0;
    while (written < rows) {
        const long long id = next_id++;
        now += pick(40);
        const int kind = pick(20);  // 0-1 array task, 2 pending range, 3 het pair, else plain
        const char* state = kStates[pick(15)];
        const bool pending = std::string_view(state) == "PENDING" || kind == 2;
        const bool running = std::string_view(state) == "RUNNING";
        const int nodes = 1 + (pick(8) == 0 ? pick(4) : 0);
        const int gpus_per_node = pick(10) == 0 ? 0 : 1 << pick(4);
        const int cpus = nodes * (4 + 4 * pick(8));
        const char* type = kTypes[pick(5)];
        const long long start = pending ? -1 : now + pick(600);
        const long long run = pending ? 0 : 60 + pick(200000);
        const std::string gres =
            gpus_per_node == 0 ? ""
            : *type ? ",gres/gpu:" + std::string(type) + "=" + std::to_string(gpus_per_node * nodes)
                    : ",gres/gpu=" + std::to_string(gpus_per_node * nodes);
        const std::string req_tres = "billing=" + std::to_string(cpus) + ",cpu=" + std::to_string(cpus) +
                                     gres + ",mem=" + std::to_string(8 * cpus) +
                                     "G,node=" + std::to_string(nodes);
        const std::string alloc_tres = pending ? "" : req_tres;
        const char* const kMem[] = {"G", "000M", "000Mc", "Gn"};
        const int mem_n = 8 * (1 + pick(8)), mem_form = pick(4);
        const std::string req_mem = std::to_string(mem_n) + kMem[mem_form];
        const std::string submit = isoTime(now);
        const std::string start_text = pending ? "Unknown" : isoTime(start);
        const std::string end_text = pending || running ? "Unknown" : isoTime(start + run);
        const std::string elapsed = elapsedText(run);
        std::string job_id = std::to_string(id);
        const long long array_job = id - pick(50), task = pick(100), first = pick(5), last = 5 + pick(5);
        if (kind <= 1) job_id = std::to_string(array_job) + "_" + std::to_string(task);
        if (kind == 2)
            job_id = std::to_string(id) + "_[" + std::to_string(first) + "-" + std::to_string(last) + "%2]";
        const auto row = [&](const std::string& shown_id, const std::string& raw_id, const std::string& name,
                             const char* user, const char* row_state, const std::string& rmem,
                             const std::string& rtres, const std::string& atres) {
            out += shown_id + '|' + raw_id + '|' + name + '|' + user + "|" + (user[0] ? "ml-research" : "") +
                   "|gpu|" + submit + '|' + submit + '|' + start_text + '|' + end_text + '|' + elapsed +
                   "|2-00:00:00|" + row_state + '|' + std::to_string(nodes) + '|' + std::to_string(cpus) +
                   '|' + rmem + '|' + rtres + '|' + atres + '\n';
            ++written;
        };
        const char* user = kUsers[pick(8)];
        const std::string name = kNames[pick(6)];
        const auto jobWithSteps = [&](const std::string& shown) {
            row(shown, std::to_string(id), name, user, state, req_mem, req_tres, alloc_tres);
            if (pending) return;
            const std::string raw = std::to_string(id);
            for (const char* step : {".batch", ".extern", ".0"})
                if (written < rows)
                    row(shown + step, raw + step, step + 1, "", running ? "RUNNING" : "COMPLETED", "", "",
                        "cpu=" + std::to_string(cpus) + gres + ",node=" + std::to_string(nodes));
        };
        const auto tresJson = [&](bool with_mem) {
            std::string t = "[{\"type\": \"cpu\", \"name\": \"\", \"count\": " + std::to_string(cpus) + "}";
            if (gpus_per_node > 0)
                t += ", {\"type\": \"gres\", \"name\": \"gpu" + (*type ? ":" + std::string(type) : "") +
                     "\", \"count\": " + std::to_string(gpus_per_node * nodes) + "}";
            if (with_mem)
                t += ", {\"type\": \"mem\", \"name\": \"\", \"count\": " + std::to_string(8192 * cpus) + "}";
            return t + ", {\"type\": \"node\", \"name\": \"\", \"count\": " + std::to_string(nodes) + "}]";
        };
        const auto number = [](bool set, long long n) {
            return std::string("{\"set\": ") + (set ? "true" : "false") +
                   ", \"infinite\": false, \"number\": " + std::to_string(set ? n : 0) + "}";
        };
        const auto timeJson = [&](long long t) { return std::to_string(t < 0 ? 0 : 1709251200 + t); };
        const auto jobJson = [&](bool het, int offset) {
            const std::string current = std::string(state).substr(0, std::string_view(state).find(' '));
            const long long mem_mb = mem_form == 0 || mem_form == 3 ? mem_n * 1024LL : mem_n * 1000LL;
            out += std::string(written ? ",\n" : "") + "{\"job_id\": " + std::to_string(id) +
                   ", \"name\": \"" + name + "\", \"user\": \"" + user +
                   "\", \"account\": \"ml-research\", \"partition\": \"gpu\", " +
                   "\"allocation_nodes\": " + std::to_string(pending ? 0 : nodes) +
                   ",\n \"array\": {\"job_id\": " +
                   std::to_string(kind <= 2 ? (kind == 2 ? id : array_job) : 0) +
                   ", \"task_id\": " + number(kind <= 1, task) + ", \"task\": \"" +
                   (kind == 2 ? std::to_string(first) + "-" + std::to_string(last) : "") +
                   "\"},\n \"het\": {\"job_id\": " + std::to_string(het ? id : 0) +
                   ", \"job_offset\": " + number(het, offset) + "},\n \"state\": {\"current\": [\"" +
                   current + "\"], \"reason\": \"None\"},\n \"time\": {\"submission\": " + timeJson(now) +
                   ", \"start\": " + timeJson(start) +
                   ", \"end\": " + timeJson(pending || running ? -1 : start + run) +
                   ", \"elapsed\": " + std::to_string(run) + ", \"limit\": " + number(true, 2880) +
                   "},\n \"required\": {\"CPUs\": " + std::to_string(cpus) +
                   ", \"memory_per_cpu\": " + number(mem_form == 2, mem_mb) +
                   ", \"memory_per_node\": " + number(mem_form != 2, mem_mb) +
                   "},\n \"tres\": {\"requested\": " + tresJson(true) +
                   ", \"allocated\": " + (pending ? "[]" : tresJson(true)) + "},\n \"steps\": [";
            ++written;
            if (!pending)
                for (const char* step : {"batch", "extern", "0"}) {
                    if (written >= rows) break;
                    out += std::string(step[0] == 'b' ? "" : ",") + "\n  {\"step\": {\"id\": \"" +
                           std::to_string(id) + "." + step + "\", \"name\": \"" + step +
                           "\"}, \"state\": [\"" + (running ? "RUNNING" : "COMPLETED") +
                           "\"], \"time\": {\"start\": " + timeJson(start) +
                           ", \"elapsed\": " + std::to_string(run) +
                           "}, \"tres\": {\"allocated\": " + tresJson(false) + "}}";
                    ++written;
                }
            out += "]}";
        };
        if (json && kind == 3) {
            jobJson(true, 0);
            if (written < rows) jobJson(true, 1);
        } else if (json) {
            jobJson(false, 0);
        } else if (kind == 3) {
            jobWithSteps(std::to_string(id) + "+0");
            if (written < rows) jobWithSteps(std::to_string(id) + "+1");
        } else {
            jobWithSteps(job_id);
        }
    }
    if (json) out += "\n], \"warnings\": [], \"errors\": []}\n";
    return out;
}

// The generated rows in a temporary file, removed at exit.
struct SacctFile {
    std::string path;
    explicit SacctFile(bool json)
        : path((fs::temp_directory_path() /
                ("clusterloom-bench-sacct-" + std::to_string(getpid()) + (json ? ".json" : ".txt")))
                   .string()) {
        std::ofstream(path, std::ios::binary) << generateSacct(kRows, 21, json);
    }
    ~SacctFile() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

const std::string& sacctFile() {
    static const SacctFile file(false);
    return file.path;
}

const std::string& sacctJsonFile() {
    static const SacctFile file(true);
    return file.path;
}

const std::string& sacctText() {
    static const std::string text = generateSacct(kRows, 21);
    return text;
}

// Peak resident memory, from a reset just before `run` (Linux; 0 elsewhere).
template <class Fn>
double peakMegabytes(Fn&& run) {
#ifdef __linux__
    { std::ofstream("/proc/self/clear_refs") << "5"; }
    run();
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0;
#else
    run();
    return 0;
#endif
}

void report(benchmark::State& state, const cl::SacctImport& imported, double peak_mb) {
    state.counters["rows"] = imported.rows;
    state.counters["jobs"] = static_cast<double>(imported.jobs.size());
    state.counters["rows_per_s"] =
        benchmark::Counter(imported.rows, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["peak_mb"] = peak_mb;
}

void BM_ParseSacctParsable(benchmark::State& state) {
    const std::string& text = sacctText();
    cl::SacctImport imported;
    double peak = 0;
    for (auto _ : state) {
        imported = {};
        peak = std::max(peak, peakMegabytes([&] { imported = cl::parseSacctParsable(text, "bench.txt"); }));
    }
    report(state, imported, peak);
}

void BM_ReadSacctParsable(benchmark::State& state) {
    const std::string& path = sacctFile();
    cl::SacctImport imported;
    double peak = 0;
    for (auto _ : state) {
        imported = {};
        peak = std::max(peak, peakMegabytes([&] { imported = cl::readSacctParsable(path); }));
    }
    report(state, imported, peak);
}

// The same jobs from `sacct --json` output, streamed from the file.
void BM_ReadSacctJson(benchmark::State& state) {
    const std::string& path = sacctJsonFile();
    state.counters["file_mb"] = static_cast<double>(fs::file_size(path)) / (1 << 20);
    cl::SacctImport imported;
    double peak = 0;
    for (auto _ : state) {
        imported = {};
        peak = std::max(peak, peakMegabytes([&] { imported = cl::readSacctJson(path); }));
    }
    report(state, imported, peak);
}

// The whole import as `clusterloom-cli import slurm` does it: read, the jobs as a trace, profiles
// by three rules and a default, run time to iterations on each job's GPU type.
void BM_ImportSacctAsTrace(benchmark::State& state) {
    const std::string& path = sacctFile();
    const cl::ProfileSet profiles = cl::builtinProfiles("muri");
    const cl::ProfileRules rules = cl::parseProfileRules(
        "name ^train-bert bert\nname ^resnet50 vgg16\nuser ^(alice|bob)$ gpt2\ndefault resnet18\n", "bench");
    cl::SacctImport imported;
    cl::Trace trace;
    double peak = 0;
    for (auto _ : state) {
        imported = {};
        trace = {};
        peak = std::max(peak, peakMegabytes([&] {
                            imported = cl::readSacct(path);
                            trace = cl::traceFromSacct(imported, "bench", path);
                            cl::assignProfilesByRule(trace, rules);
                            cl::iterationsFromMeasuredTime(trace, profiles);
                        }));
    }
    report(state, imported, peak);
    state.counters["trace_jobs"] = static_cast<double>(trace.jobs.size());
}

// 250 servers of 8 GPUs, partition p0..p3 by server, each partition with servers of every GPU
// type the history asks for (A100, H100, V100, L40S); p2 and p3 have the higher tier.
cl::Cluster replayCluster() {
    cl::Cluster c;
    c.name = "bench-2000";
    for (int k = 0; k < 4; ++k) c.partitions.push_back({"p" + std::to_string(k), k < 2 ? 1 : 2, 0.0, k == 0});
    for (int s = 0; s < 250; ++s) {
        cl::Server server;
        server.name = "n" + std::to_string(s);
        server.gpu_type = cl::gpuTypeFromSlurm(std::array{"a100", "h100", "v100", "l40s"}[(s / 4) % 4]);
        server.gpus = 8;
        server.partitions = {"p" + std::to_string(s % 4)};
        c.servers.push_back(std::move(server));
    }
    return c;
}

void BM_ReplaySacctWithSlurm(benchmark::State& state) {
    const std::string& text = sacctText();
    const cl::Cluster cluster = replayCluster();
    const cl::ProfileSet profiles = cl::builtinProfiles();
    cl::SchedulerTuning tuning;
    cl::applySlurmParameters(tuning.slurm, {"PriorityType=priority/multifactor", "PriorityWeightAge=1000",
                                            "PriorityWeightJobSize=100", "PriorityWeightPartition=1000",
                                            "PriorityWeightFairshare=2000"});
    cl::SimResult result;
    double peak = 0;
    for (auto _ : state) {
        result = {};
        peak = std::max(peak, peakMegabytes([&] {
                            const cl::SacctImport imported = cl::parseSacctParsable(text, "bench.txt");
                            cl::Trace trace = cl::traceFromSacct(imported, "bench", "bench.txt");
                            for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
                                trace.jobs[i].partition = "p" + std::to_string(i % 4);
                                trace.jobs[i].submit_time *= 15;
                            }
                            auto scheduler = cl::makeScheduler("slurm", cl::Conventions::clean(), tuning);
                            cl::SimOptions options;
                            options.record_segments = false;
                            options.record_series = false;
                            result = cl::simulate(cluster, trace, profiles, *scheduler, options);
                        }));
    }
    state.counters["jobs"] = static_cast<double>(result.jobs.size());
    state.counters["left_out"] = static_cast<double>(result.left_out.size());
    state.counters["events"] = static_cast<double>(result.events);
    state.counters["avg_queueing_s"] = result.summary.avg_queueing_delay;
    state.counters["peak_mb"] = peak;
}

}  // namespace

// Reading from the file first: its peak then holds no generated text of the other benchmark.
BENCHMARK(BM_ReadSacctParsable)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ImportSacctAsTrace)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ReadSacctJson)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ParseSacctParsable)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ReplaySacctWithSlurm)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
