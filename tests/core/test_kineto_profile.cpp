// Profiles from PyTorch profiler (Kineto) traces (docs/architecture.md section 8.6): a
// hand-made trace with exact answers (NCCL overlapping compute, a kernel running into the next
// step, kernels without a launch, DataLoader spans, plain and gzip), the errors, several ranks,
// the ModelProfile and its workspace profile set; and the four real traces of
// ../shared/data/kineto, whose figures this test computes on its own from the events.
#include <zlib.h>

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/kineto_trace.h"
#include "core/io/parse_error.h"
#include "core/io/profile_io.h"
#include "core/model/kineto_profile.h"
#include "core/store/profile_set_versions.h"
#include "error_capture.h"
#include "shared_data.h"
#include "store_test_support.h"

using namespace cl;
using nlohmann::json;

namespace {

const std::string kFixtures = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/kineto";
const std::string kTwoSteps = kFixtures + "/two_steps.json";
const std::string kShared = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/kineto";

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) qFatal("fixture text '%s' not found", from.c_str());
    return text.replace(at, from.size(), to);
}

// The hand-made trace's answers, worked out from the events (microseconds):
// step 2 [100, 300): kernels launched in it: gemm [120,160), late_kernel [295,330) (runs into
//   step 3 but counts here, whole), NCCL all-reduce [150,190) -> gpu 75, nccl 40, network
//   40 - 10 = 30; DataLoader [100,108) and [105,110) -> storage 10; cpu 200-75-30-10 = 85.
// step 3 [300, 500): kernel_without_id [310,320) and SendRecv_NCCL [400,450) (correlation 99,
//   no launch) placed by their own start, conv [330,420) (cuda_driver launch at 320) -> gpu
//   100, nccl 50, network 50 - 20 = 30; DataLoader [480,520) cut at the step end -> storage 20;
//   cpu 200-100-30-20 = 50.
// Not counted: the warm-up step's kernel, the memcpy and memset, the kernel launched after the
// last step, and the gpu_user_annotation copy of ProfilerStep#2.
void expectTwoStepsFigures(const KinetoRankProfile& r) {
    QCOMPARE(r.steps.size(), std::size_t{2});
    const KinetoStepFigures& a = r.steps[0];
    QCOMPARE(a.step, 2);
    QCOMPARE(a.iteration_ms, 0.2);
    QCOMPARE(a.gpu_ms, 0.075);
    QCOMPARE(a.nccl_ms, 0.04);
    QCOMPARE(a.network_ms, 0.03);
    QCOMPARE(a.storage_ms, 0.01);
    QCOMPARE(a.cpu_ms, 0.085);
    const KinetoStepFigures& b = r.steps[1];
    QCOMPARE(b.step, 3);
    QCOMPARE(b.iteration_ms, 0.2);
    QCOMPARE(b.gpu_ms, 0.1);
    QCOMPARE(b.nccl_ms, 0.05);
    QCOMPARE(b.network_ms, 0.03);
    QCOMPARE(b.storage_ms, 0.02);
    QCOMPARE(b.cpu_ms, 0.05);
    QCOMPARE(r.median.step, -1);
    QCOMPARE(r.median.iteration_ms, 0.2);
    QCOMPARE(r.median.gpu_ms, 0.0875);
    QCOMPARE(r.median.nccl_ms, 0.045);
    QCOMPARE(r.median.network_ms, 0.03);
    QCOMPARE(r.median.storage_ms, 0.015);
    QCOMPARE(r.median.cpu_ms, 0.0675);
    QCOMPARE(r.rank, 1);
    QCOMPARE(r.world_size, 4);
    QCOMPARE(r.gpu_name, std::string("Test GPU 80GB"));
    QCOMPARE(r.warnings.size(), std::size_t{1});
    QCOMPARE(r.warnings[0],
             std::string("2 of 8 kernels have no launch event (1 without a correlation id): each "
                         "was placed in the step holding its own start"));
}

// ---- the test's own reading of a real trace ----------------------------------------------

std::string gunzipFile(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) qFatal("cannot open %s", path.c_str());
    std::string out;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    gzclose(f);
    return out;
}

struct Figures {
    double iteration = 0, gpu = 0, nccl = 0, network = 0, storage = 0, cpu = 0;
};

// Lengths (us) where compute, NCCL, and NCCL without compute run, by sweeping +1/-1 counts over
// every interval boundary (a different method from the importer's merging of sorted intervals).
void sweep(const std::vector<std::pair<double, double>>& compute,
           const std::vector<std::pair<double, double>>& nccl, double& gpu, double& comm, double& exposed) {
    std::vector<std::pair<double, int>> edges;  // time, which counter (0 compute, 1 nccl) +-1 as +-(1,2)
    for (const auto& [a, b] : compute) edges.push_back({a, +1}), edges.push_back({b, -1});
    for (const auto& [a, b] : nccl) edges.push_back({a, +2}), edges.push_back({b, -2});
    std::sort(edges.begin(), edges.end());
    int c = 0, n = 0;
    gpu = comm = exposed = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (i > 0) {
            const double len = edges[i].first - edges[i - 1].first;
            if (c > 0) gpu += len;
            if (n > 0) comm += len;
            if (n > 0 && c == 0) exposed += len;
        }
        const int e = edges[i].second;
        if (e == 1 || e == -1)
            c += e;
        else
            n += e / 2;
    }
}

// The figures of every step after the first, straight from the JSON document.
std::vector<Figures> figuresOf(const std::string& path) {
    const json doc = json::parse(gunzipFile(path));
    std::vector<std::pair<double, double>> steps;  // start, end
    std::map<long long, double> launch;
    struct Kernel {
        double start, end;
        bool has_id;
        long long id;
        bool nccl;
    };
    std::vector<Kernel> kernels;
    std::vector<std::pair<double, double>> loader;
    for (const json& e : doc.at("traceEvents")) {
        if (e.value("ph", "") != "X") continue;
        const std::string cat = e.value("cat", ""), name = e.value("name", "");
        const bool gpu_side = cat == "kernel" || cat.rfind("gpu_", 0) == 0;
        const double ts = e.at("ts").get<double>();
        const bool has_id = e.contains("args") && e["args"].contains("correlation");
        const long long id = has_id ? e["args"]["correlation"].get<long long>() : 0;
        if (cat == "kernel") {
            std::string lower = name;
            for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            kernels.push_back(
                {ts, ts + e.at("dur").get<double>(), has_id, id, lower.find("nccl") != std::string::npos});
        } else if ((cat == "cuda_runtime" || cat == "cuda_driver") && has_id) {
            if (!launch.count(id) || ts < launch[id]) launch[id] = ts;
        } else if (!gpu_side && name.rfind("ProfilerStep#", 0) == 0) {
            steps.push_back({ts, ts + e.at("dur").get<double>()});
        } else if (!gpu_side && name.find("DataLoader") != std::string::npos &&
                   name.find("__next__") != std::string::npos) {
            loader.push_back({ts, ts + e.at("dur").get<double>()});
        }
    }
    std::sort(steps.begin(), steps.end());
    std::vector<Figures> out;
    for (std::size_t s = 1; s < steps.size(); ++s) {
        const auto [from, to] = steps[s];
        std::vector<std::pair<double, double>> compute, nccl, loading;
        for (const Kernel& k : kernels) {
            double at = k.start;
            if (k.has_id && launch.count(k.id)) at = launch[k.id];
            if (at >= from && at < to) (k.nccl ? nccl : compute).push_back({k.start, k.end});
        }
        for (const auto& [a, b] : loader)
            if (std::min(to, b) > std::max(from, a)) loading.push_back({std::max(from, a), std::min(to, b)});
        double gpu = 0, comm = 0, exposed = 0, storage = 0, unused = 0;
        sweep(compute, nccl, gpu, comm, exposed);
        sweep(loading, {}, storage, unused, unused);
        Figures f;
        f.iteration = (to - from) / 1000;
        f.gpu = gpu / 1000;
        f.nccl = comm / 1000;
        f.network = exposed / 1000;
        f.storage = storage / 1000;
        f.cpu = std::max(0.0, f.iteration - f.gpu - f.network - f.storage);
        out.push_back(f);
    }
    return out;
}

// Timestamps near 1.7e15 us are doubles 0.25 us apart, so sums of differences taken in another
// order may differ by a few tenths of a microsecond: agree to within 1 us (0.001 ms).
bool close(double a, double b) {
    return std::abs(a - b) <= 1e-3;
}

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

class TestKinetoProfile : public QObject {
    Q_OBJECT

private slots:
    void handMadeTraceHasExactFigures() { expectTwoStepsFigures(readKinetoRank(kTwoSteps)); }

    void gzipAndPlainGiveTheSameProfile() {
        expectTwoStepsFigures(readKinetoRank(kTwoSteps + ".gz"));
        json gz = kinetoProfileJson(kinetoProfile({kTwoSteps + ".gz"}, "m"));
        json plain = kinetoProfileJson(kinetoProfile({kTwoSteps}, "m"));
        for (json* j : {&gz, &plain}) j->erase("files"), j->erase("warnings");  // they name the file
        QCOMPARE(gz, plain);
    }

    void aBareEventArrayIsATraceToo() {
        const std::string text = test::fileBytes(kTwoSteps);
        const json doc = json::parse(text);
        const KinetoEvents e = parseKinetoTrace(doc.at("traceEvents").dump(), "bare.json");
        QCOMPARE(e.steps.size(), std::size_t{3});
        QCOMPARE(e.kernels.size(), std::size_t{8});
        QCOMPARE(e.launches.size(), std::size_t{7});
        QCOMPARE(e.data_loader_spans.size(), std::size_t{3});
        QCOMPARE(e.world_size, 0);
        QCOMPARE(e.rank, -1);
        const KinetoRankProfile r = kinetoRankProfile(e, "bare.json");
        QCOMPARE(r.world_size, 1);
        QCOMPARE(r.median.gpu_ms, 0.0875);
    }

    void noProfilerStepIsAClearError() {
        test::expectError(test::parseError([] { readKinetoRank(kFixtures + "/no_steps.json"); }),
                          {"no_steps.json",
                           "no ProfilerStep#N spans: record with torch.profiler.schedule and call "
                           "prof.step()"});
    }

    void oneStepLeavesNothingAfterWarmUp() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("one.json").toStdString();
        writeFile(
            path,
            "[{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#7\",\"ts\":0,\"dur\":10}]");
        test::expectError(test::parseError([&] { readKinetoRank(path); }),
                          {"one.json", "only one ProfilerStep#N span (ProfilerStep#7)", "warm-up"});
    }

    void badInputNamesFileLineAndField() {
        test::expectError(test::parseError([] { parseKinetoTrace("{\"traceEvents\": [", "cut.json"); }),
                          {"cut.json", "invalid JSON"});
        test::expectError(test::parseError([] { parseKinetoTrace("hello", "text.json"); }),
                          {"text.json", "invalid JSON"});
        test::expectError(test::parseError([] { parseKinetoTrace("{\"a\": 1}", "other.json"); }),
                          {"other.json", "traceEvents", "not a PyTorch profiler trace"});
        test::expectError(
            test::parseError([] {
                parseKinetoTrace(
                    "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"x\"},\n"
                    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1,\n"
                    " \"dur\": \"long\"}]}",
                    "bad.json");
            }),
            {"bad.json:4", "field 'traceEvents[1].dur'", "a kernel needs 'dur'"});
        test::expectError(
            test::parseError([] {
                parseKinetoTrace(
                    "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"ProfilerStep#x\",\"ts\":0,\"dur\":1}]",
                    "step.json");
            }),
            {"step.json:1", "field '[0].name'", "ProfilerStep#x"});
        test::expectError(test::parseError([] {
                              parseKinetoTrace(
                                  "{\"distributedInfo\": {\"world_size\": 0}, \"traceEvents\": []}",
                                  "ws.json");
                          }),
                          {"ws.json:1", "distributedInfo.world_size", "1..10000000"});
        test::expectError(test::parseError([] {
                              parseKinetoTrace(
                                  "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":0,\"dur\":-1}]",
                                  "neg.json");
                          }),
                          {"neg.json", "[0].dur", "cannot be negative"});
    }

    void badGzipIsRefused() {
        const std::string gz = test::fileBytes(kTwoSteps + ".gz");
        test::expectError(
            test::parseError([&] { parseKinetoTrace(gz.substr(0, gz.size() / 2), "half.json.gz"); }),
            {"half.json.gz", "gzip data ends early"});
        std::string broken = gz;
        for (std::size_t i = 12; i < broken.size() - 8; ++i) broken[i] = static_cast<char>(broken[i] ^ 0x5a);
        test::expectError(test::parseError([&] { parseKinetoTrace(broken, "broken.json.gz"); }),
                          {"broken.json.gz", "bad gzip data"});
    }

    void severalRanksTakeTheSlowestMedians() {
        QTemporaryDir dir;
        const std::string text = test::fileBytes(kTwoSteps);
        const std::string rank0 = dir.filePath("run-rank0.json").toStdString();
        // Rank 0's last step lasts 260 us: median iteration 230 us against rank 1's 200 us.
        writeFile(rank0, replaced(replaced(text, "\"rank\": 1", "\"rank\": 0"), "\"ts\": 300, \"dur\": 200",
                                  "\"ts\": 300, \"dur\": 260"));
        const KinetoProfile p = kinetoProfile({kTwoSteps, rank0}, "");
        QCOMPARE(p.name, std::string("two_steps"));
        QCOMPARE(p.ranks.size(), std::size_t{2});
        QCOMPARE(p.slowest_rank, std::size_t{1});
        QCOMPARE(p.ranks[1].rank, 0);
        QCOMPARE(p.median.iteration_ms, 0.23);
        // Its step 3: the DataLoader span [480,520) now lies inside the step -> 40 us.
        QCOMPARE(p.ranks[1].steps[1].storage_ms, 0.04);
        QCOMPARE(p.ranks[1].steps[1].cpu_ms, 0.09);
        QCOMPARE(p.world_size, 4);
        const json j = kinetoProfileJson(p);
        for (const char* key :
             {"iteration_ms", "gpu_ms", "nccl_ms", "network_ms", "storage_ms", "cpu_ms", "steps",
              "world_size", "gpu_name", "name", "ranks", "slowest_rank", "files", "warnings"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["iteration_ms"].get<double>(), 0.23);
        QCOMPARE(j["slowest_rank"].get<int>(), 0);
        QCOMPARE(j["ranks"].size(), std::size_t{2});
        QCOMPARE(j["steps"][1]["step"].get<int>(), 3);
        QCOMPARE(j["steps"][1]["cpu_ms"].get<double>(), 0.09);
        QCOMPARE(j["ranks"][0]["rank"].get<int>(), 1);
        // One file: no ranks.
        QVERIFY(!kinetoProfileJson(kinetoProfile({kTwoSteps}, "m")).contains("ranks"));
        // Ranks that do not say which they are are numbered by position.
        const std::string bare = dir.filePath("bare.json").toStdString();
        writeFile(bare, json::parse(text).at("traceEvents").dump());
        const KinetoProfile q = kinetoProfile({bare, bare}, "q");
        QCOMPARE(q.ranks[0].rank, 0);
        QCOMPARE(q.ranks[1].rank, 1);
        QCOMPARE(q.world_size, 2);
    }

    void theModelProfileServesEveryMechanism() {
        const KinetoProfile p = kinetoProfile({kTwoSteps}, "toy");
        const ModelProfile m = modelProfileFromKineto(p);
        QCOMPARE(m.name, std::string("toy"));
        QCOMPARE(m.by_gpus.size(), std::size_t{1});
        QCOMPARE(m.by_gpus[0].gpus, 4);
        QCOMPARE(m.by_gpus[0].solo_iteration_time, 0.2 / 1000);
        QCOMPARE(m.by_gpus[0].stage_times,
                 (std::vector<double>{0.015 / 1000, 0.0675 / 1000, 0.0875 / 1000, 0.03 / 1000}));
        QCOMPARE(m.extra.get()["kineto"], kinetoProfileJson(p));
        // A profile set JSON keeps it, extra included.
        ProfileSet set;
        set.name = "mine";
        set.models["toy"] = m;
        const ProfileSet back = parseProfilesJson(profilesJsonText(set), "mine.json");
        QCOMPARE(back.models.at("toy").extra.get(), m.extra.get());
        QCOMPARE(back.models.at("toy").by_gpus[0].stage_times, m.by_gpus[0].stage_times);
        QCOMPARE(back.models.at("toy").at(4)->solo_iteration_time, m.by_gpus[0].solo_iteration_time);
    }

    void aWorkspaceSetGetsNewVersions() {
        QTemporaryDir dir;
        ScenarioStore store(dir.filePath("ws.sqlite").toStdString());
        const ModelProfile a = modelProfileFromKineto(kinetoProfile({kTwoSteps}, "a"));
        const ModelProfile b = modelProfileFromKineto(kinetoProfile({kTwoSteps}, "b"));
        const StoredModelProfile first = storeModelProfile(store, "profiles", a, "test");
        QVERIFY(!first.based_on);
        QVERIFY(!first.replaced);
        QCOMPARE(store.profiles(first.set_id).models.size(), std::size_t{1});
        QCOMPARE(store.profiles(first.set_id).source, std::string("test"));
        const StoredModelProfile second = storeModelProfile(store, "profiles", b, "test");
        QCOMPARE(*second.based_on, first.set_id);
        QVERIFY(second.set_id != first.set_id);
        QCOMPARE(store.profiles(second.set_id).modelNames(), (std::vector<std::string>{"a", "b"}));
        // The first version is unchanged: scenarios that use it keep their inputs.
        QCOMPARE(store.profiles(first.set_id).modelNames(), (std::vector<std::string>{"a"}));
        // Importing the same again stores nothing.
        const StoredModelProfile again = storeModelProfile(store, "profiles", b, "test");
        QVERIFY(again.unchanged);
        QVERIFY(again.replaced);
        QCOMPARE(again.set_id, second.set_id);
        // A changed model replaces its namesake in a new version.
        ModelProfile b2 = b;
        b2.by_gpus[0].solo_iteration_time *= 2;
        const StoredModelProfile third = storeModelProfile(store, "profiles", b2, "test");
        QVERIFY(third.replaced);
        QCOMPARE(store.profiles(third.set_id).models.at("b").by_gpus[0].solo_iteration_time,
                 b2.by_gpus[0].solo_iteration_time);
        // Going back to the earlier content reuses that row, and it is the newest version now.
        const StoredModelProfile back = storeModelProfile(store, "profiles", b, "test");
        QCOMPARE(back.set_id, second.set_id);
        QCOMPARE(latestProfileSet(store, "profiles")->id, second.set_id);
        // Another name is another set.
        const StoredModelProfile other = storeModelProfile(store, "other", a, "test");
        QVERIFY(!other.based_on);
        QCOMPARE(latestProfileSet(store, "other")->id, other.set_id);
        QVERIFY(!latestProfileSet(store, "none"));
        // A chooser offers the newest version of each name, in the order the names came.
        const std::vector<StoredItem> offered = latestProfileSets(store);
        QCOMPARE(offered.size(), std::size_t(2));
        QCOMPARE(offered[0].name, std::string("profiles"));
        QCOMPARE(offered[0].id, second.set_id);
        QCOMPARE(offered[1].id, other.set_id);
    }

    void realTracesMatchTheTestsOwnComputation_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("world_size");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("steps");
        QTest::addColumn<bool>("data_loader");  // the only one whose steps read through a DataLoader
        QTest::newRow("allreduce") << "allreduce_2ranks_rank0.json.gz" << 2 << "NVIDIA A100-PG509-200" << 2
                                   << false;
        QTest::newRow("dataloader") << "dataloader_alltoall_8ranks_rank3.json.gz" << 8
                                    << "NVIDIA A100-PG509-200" << 5 << true;
        QTest::newRow("resnet") << "resnet_1rank.json.gz" << 1 << "Tesla V100-SXM2-32GB" << 4 << false;
        QTest::newRow("sampled") << "sampled_rank0.json.gz" << 128 << "" << 1 << false;
    }
    void realTracesMatchTheTestsOwnComputation() {
        QFETCH(QString, file);
        QFETCH(int, world_size);
        QFETCH(QString, gpu);
        QFETCH(int, steps);
        QFETCH(bool, data_loader);
        const std::string path = kShared + "/" + file.toStdString();
        REQUIRE_SHARED_DATA(path);
        const KinetoRankProfile r = readKinetoRank(path);
        const std::vector<Figures> expected = figuresOf(path);
        QCOMPARE(r.world_size, world_size);
        QCOMPARE(QString::fromStdString(r.gpu_name), gpu);
        QCOMPARE(static_cast<int>(r.steps.size()), steps);
        QCOMPARE(r.steps.size(), expected.size());
        std::vector<double> iterations;
        bool any_gpu = false, any_nccl = false;
        for (std::size_t s = 0; s < expected.size(); ++s) {
            const KinetoStepFigures& got = r.steps[s];
            const Figures& want = expected[s];
            const QByteArray where = QByteArray("step ") + QByteArray::number(got.step);
            QVERIFY2(close(got.iteration_ms, want.iteration), where);
            QVERIFY2(close(got.gpu_ms, want.gpu), where + " gpu " + QByteArray::number(got.gpu_ms) + " vs " +
                                                      QByteArray::number(want.gpu));
            QVERIFY2(close(got.nccl_ms, want.nccl), where + " nccl");
            QVERIFY2(close(got.network_ms, want.network), where + " network");
            QVERIFY2(close(got.storage_ms, want.storage), where + " storage");
            QVERIFY2(close(got.cpu_ms, want.cpu), where + " cpu");
            iterations.push_back(want.iteration);
            QCOMPARE(got.storage_ms > 0, data_loader);
            any_gpu = any_gpu || want.gpu > 0;
            any_nccl = any_nccl || want.nccl > 0;
        }
        QVERIFY(any_gpu);
        QVERIFY(close(r.median.iteration_ms, medianOf(iterations)));
        // Every trace but the single-GPU ResNet run has NCCL kernels in its steps.
        QCOMPARE(any_nccl, world_size > 1);
        QVERIFY(r.warnings.empty());
    }
};

QTEST_GUILESS_MAIN(TestKinetoProfile)
#include "test_kineto_profile.moc"
