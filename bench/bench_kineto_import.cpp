// PyTorch profiler (Kineto) trace import speed (docs/architecture.md sections 8.6 and 11): a
// synthetic 20 MB uncompressed trace shaped like the real ones (CPU ops, CUDA runtime launches
// with correlation ids, kernels with their launch arguments, NCCL kernels, DataLoader spans,
// ten ProfilerStep spans) read from a temporary file into the per-step breakdown in under 1 s;
// and the same trace gzip-compressed.
// Counters: the file's bytes and events, and MB/s.
// Run: build/release/bench/bench_kineto_import [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/io/kineto_trace.h"

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kTargetBytes = 20'000'000;
constexpr int kSteps = 10;

struct SyntheticTrace {
    std::string text;
    long long events = 0;
};

// Events are appended step by step until the text reaches 20 MB; each step's span is then as
// long as its events need.
SyntheticTrace makeTrace() {
    SyntheticTrace t;
    std::string events;
    char buf[1024];
    auto add = [&](const char* fmt, auto... args) {
        const int n = std::snprintf(buf, sizeof buf, fmt, args...);
        if (!events.empty()) events += ",\n";
        events.append(buf, static_cast<std::size_t>(n));
        ++t.events;
    };
    const std::size_t per_step = kTargetBytes / kSteps;
    long long ts = 1'700'000'000'000'000LL, correlation = 1000;
    for (int step = 1; step <= kSteps; ++step) {
        const long long step_start = ts;
        const std::size_t size_at_start = events.size();
        add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
            "\"enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__\", \"pid\": 1, \"tid\": 1, "
            "\"ts\": %lld, \"dur\": 150, \"args\": {\"External id\": %lld, \"Record function id\": 0}}",
            ts, correlation);
        ts += 200;
        for (int k = 0; events.size() - size_at_start < per_step - 2000; ++k) {
            ++correlation;
            add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::convolution\", \"pid\": 1, \"tid\": "
                "1, "
                "\"ts\": %lld, \"dur\": 25, \"args\": {\"External id\": %lld, \"Sequence number\": %d, "
                "\"Fwd thread id\": 0, \"Record function id\": 0, \"Ev Idx\": %d}}",
                ts, correlation, k, k);
            add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
                "\"tid\": 1, "
                "\"ts\": %lld, \"dur\": 6, \"args\": {\"External id\": %lld, \"cbid\": 211, \"correlation\": "
                "%lld}}",
                ts + 10, correlation, correlation);
            const bool nccl = k % 20 == 0;
            add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, \"ts\": "
                "%lld, "
                "\"dur\": %d, \"args\": {\"External id\": %lld, \"queued\": 0, \"device\": 0, \"context\": "
                "1, "
                "\"stream\": %d, \"correlation\": %lld, \"registers per thread\": 72, \"shared memory\": 0, "
                "\"blocks per SM\": 2.962963, \"warps per SM\": 11.851852, \"grid\": [320, 1, 1], "
                "\"block\": [128, 1, 1], \"est. achieved occupancy %%\": 19}}",
                nccl ? "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
                     : "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, "
                       "float, float, float, float, float>(cudnn::cnn::GroupedDirectFpropParams, float "
                       "const*)",
                nccl ? 9 : 7, ts + 20, nccl ? 60 : 18, correlation, nccl ? 9 : 7, correlation);
            ts += 30;
        }
        ts += 100;
        add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", \"pid\": 1, "
            "\"tid\": 1, "
            "\"ts\": %lld, \"dur\": %lld, \"args\": {\"External id\": %lld}}",
            step, step_start, ts - step_start, correlation);
    }
    t.text =
        "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"}],\n"
        "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8},\n"
        "\"traceEvents\": [\n" +
        events + "\n]}\n";
    return t;
}

struct TraceFiles {
    fs::path dir, plain, gz;
    std::size_t bytes = 0, gz_bytes = 0;
    long long events = 0;
    TraceFiles() {
        std::string templ = (fs::temp_directory_path() / "clusterloom-bench-kineto-XXXXXX").string();
        if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary folder");
        dir = templ;
        const SyntheticTrace t = makeTrace();
        bytes = t.text.size();
        events = t.events;
        plain = dir / "synthetic.pt.trace.json";
        std::ofstream(plain, std::ios::binary) << t.text;
        gz = dir / "synthetic.pt.trace.json.gz";
        gzFile f = gzopen(gz.c_str(), "wb6");
        if (!f || gzwrite(f, t.text.data(), static_cast<unsigned>(t.text.size())) <= 0 || gzclose(f) != Z_OK)
            throw std::runtime_error("cannot write the gzip trace");
        gz_bytes = fs::file_size(gz);
    }
    ~TraceFiles() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

const TraceFiles& files() {
    static const TraceFiles f;
    return f;
}

void importOnce(benchmark::State& state, const fs::path& path) {
    const TraceFiles& f = files();
    for (auto _ : state) {
        const cl::KinetoProfile p = cl::kinetoProfile({path.string()}, "synthetic");
        if (p.ranks[0].steps.size() != kSteps - 1) state.SkipWithError("wrong step count");
        benchmark::DoNotOptimize(p.median.iteration_ms);
    }
    state.counters["bytes"] = static_cast<double>(f.bytes);
    state.counters["file_bytes"] = static_cast<double>(fs::file_size(path));
    state.counters["events"] = static_cast<double>(f.events);
    state.counters["MB/s"] =
        benchmark::Counter(static_cast<double>(f.bytes) / 1e6, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ImportKineto20MB(benchmark::State& state) {
    importOnce(state, files().plain);
}
void BM_ImportKineto20MBGzip(benchmark::State& state) {
    importOnce(state, files().gz);
}

}  // namespace

BENCHMARK(BM_ImportKineto20MB)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_ImportKineto20MBGzip)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

BENCHMARK_MAIN();
