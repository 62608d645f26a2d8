// core/workload: portable random numbers, model mixes, model assignment, the trace
// generator and the trace transforms.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/util/portable_random.h"
#include "core/workload/model_assignment.h"
#include "core/workload/model_mix.h"
#include "core/workload/trace_generator.h"
#include "core/workload/trace_transforms.h"

using namespace cl;

namespace {

Job makeJob(const std::string& id, double submit, int gpus, const std::string& model = {},
            double duration = 0.0) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.model = model;
    j.duration = duration;
    return j;
}

// Five jobs at 0, 100, ..., 400 s with 1, 2, 4, 8, 16 GPUs.
Trace smallTrace() {
    Trace t;
    t.name = "small";
    t.provenance = {"hand-made"};
    const int gpus[] = {1, 2, 4, 8, 16};
    for (int i = 0; i < 5; ++i)
        t.jobs.push_back(makeJob(std::to_string(i), 100.0 * i, gpus[i], "", 1000.0 * (i + 1)));
    return t;
}

std::vector<double> submits(const Trace& t) {
    std::vector<double> out;
    for (const auto& j : t.jobs) out.push_back(j.submit_time);
    return out;
}

std::vector<std::string> ids(const Trace& t) {
    std::vector<std::string> out;
    for (const auto& j : t.jobs) out.push_back(j.id);
    return out;
}

bool sameJobs(const Trace& a, const Trace& b) {
    if (a.jobs.size() != b.jobs.size()) return false;
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
        const Job& x = a.jobs[i];
        const Job& y = b.jobs[i];
        if (x.id != y.id || x.submit_time != y.submit_time || x.gpus != y.gpus || x.model != y.model ||
            x.duration != y.duration || x.iterations != y.iterations || x.batch_size != y.batch_size)
            return false;
    }
    return true;
}

// A hand-made profile set with the muri.json figures of two models.
ProfileSet smallProfiles() {
    ProfileSet ps;
    ps.name = "test";
    ModelProfile r;
    r.name = "resnet18";
    r.batch_size = 128;
    r.by_gpus = {{1, 0.779, {0.711, 0.110, 0.0}, 4},
                 {2, 0.881, {0.687, 0.110, 0.095}, 5},
                 {4, 0.921, {0.723, 0.113, 0.073}, 5}};
    ModelProfile b;
    b.name = "bert";
    b.batch_size = 4;
    b.by_gpus = {{1, 0.178, {0.0005, 0.160, 0.0}, 10}};
    ps.models = {{r.name, r}, {b.name, b}};
    return ps;
}

// Runs f, expecting std::invalid_argument; returns its message.
template <typename F>
std::string invalidMessage(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "<no exception>";
}

}  // namespace

class TestWorkload : public QObject {
    Q_OBJECT

private slots:
    // --- portable random ---
    void mt19937_64IsTheStandardEngine() {
        // The standard fixes the 10000th output of a default-seeded mt19937_64.
        PortableRng rng(5489u);
        for (int i = 0; i < 9999; ++i) rng.next();
        QCOMPARE(rng.next(), std::uint64_t{9981545732273789042ULL});
    }

    void uniformAndBelowFollowTheDocumentedFormulas() {
        std::mt19937_64 raw(77);
        PortableRng rng(77);
        for (int i = 0; i < 100; ++i) QCOMPARE(rng.uniform01(), static_cast<double>(raw() >> 11) * 0x1.0p-53);
        PortableRng a(3), b(3);
        for (int i = 0; i < 1000; ++i) {
            const auto v = a.below(7);
            QVERIFY(v < 7);
            QCOMPARE(v, b.below(7));
        }
        QVERIFY(deriveSeed(1, 1) != deriveSeed(1, 2));
        QVERIFY(deriveSeed(1, 1) != deriveSeed(2, 1));
    }

    void pickWeightedWalksCumulativeWeights() {
        const std::vector<double> w = {1.0, 0.0, 3.0};
        QCOMPARE(pickWeighted(w, 0.0), std::size_t{0});
        QCOMPARE(pickWeighted(w, 0.2), std::size_t{0});   // 0.8 < 1
        QCOMPARE(pickWeighted(w, 0.25), std::size_t{2});  // 1.0 is not < 1; zero weight skipped
        QCOMPARE(pickWeighted(w, 0.999999), std::size_t{2});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pickWeighted({0.0, 0.0}, 0.5));
    }

    // --- model mixes ---
    void parsesModelMixes() {
        const ModelMix m = parseModelMix("resnet18:2,bert:1");
        QCOMPARE(m.entries.size(), std::size_t{2});
        QCOMPARE(m.entries[0].first, std::string("resnet18"));
        QCOMPARE(m.entries[0].second, 2.0);
        QCOMPARE(m.entries[1].first, std::string("bert"));
        QCOMPARE(m.totalWeight(), 3.0);
        QCOMPARE(m.toString(), std::string("resnet18:2,bert:1"));
        const ModelMix u = parseModelMix(" a , b : 0.5 ");
        QCOMPARE(u.toString(), std::string("a:1,b:0.5"));
        QCOMPARE(u.pick(0.5), std::string("a"));  // 0.75 < 1
        QCOMPARE(u.pick(0.7), std::string("b"));  // 1.05
        QCOMPARE(parseModelMix("a:0,b:1").pick(0.0), std::string("b"));
    }

    void rejectsBadModelMixes() {
        for (const char* bad :
             {"", " ", "a:x", "a:-1", "a,a", "a:0", ":3", "a,,b", "a:1:2", "a:nan", "a:inf"}) {
            const std::string msg = invalidMessage([&] { parseModelMix(bad); });
            QVERIFY2(msg != "<no exception>", bad);
            QVERIFY2(msg.find("model mix") != std::string::npos, msg.c_str());
        }
    }

    void taskSplitsExpandOverTheCatalog() {
        const ModelMix m = mixFromTaskSplit(parseTaskSplit("image:20,language:70,rl:10"));
        QCOMPARE(m.toString(),
                 std::string("vgg16:5,vgg19:5,resnet18:5,shufflenet_v2_x1_0:5,bert:35,gpt2:35,a2c:5,dqn:5"));
        QCOMPARE(muriTaskCatalog().taskOf("gpt2"), std::string("language"));
        QCOMPARE(muriTaskCatalog().taskOf("dqn"), std::string("rl"));
        QCOMPARE(muriTaskCatalog().taskOf("shufflenet_v2_x1_0"), std::string("image"));
        QCOMPARE(muriTaskCatalog().taskOf("nope"), std::string());
        QCOMPARE(muriTaskCatalog().allModels().size(), std::size_t{8});
        QCOMPARE(synergyTaskCatalog().taskOf("deepspeech"), std::string("speech"));
        const ModelMix s = mixFromTaskSplit(parseTaskSplit("speech:10"), taskCatalog("synergy"));
        QCOMPARE(s.toString(), std::string("m5:5,deepspeech:5"));
        const std::string msg = invalidMessage([] { mixFromTaskSplit(parseTaskSplit("speech:1")); });
        QVERIFY2(msg.find("valid tasks: image, language, rl") != std::string::npos, msg.c_str());
        QVERIFY(invalidMessage([] { taskCatalog("philly"); }).find("muri, synergy") != std::string::npos);
    }

    // --- model assignment ---
    void assignModelsFollowsTheDocumentedRule() {
        Trace t;
        for (int i = 0; i < 50; ++i) t.jobs.push_back(makeJob(std::to_string(i), i, 1));
        const ModelMix mix = parseModelMix("resnet18:2,bert:1,gpt2:1");
        QCOMPARE(assignModels(t, mix, 42, true), std::size_t{50});
        std::mt19937_64 raw(42);
        for (const auto& j : t.jobs) {
            const double u = static_cast<double>(raw() >> 11) * 0x1.0p-53;
            const double x = u * 4.0;
            const std::string expected = x < 2.0 ? "resnet18" : x < 3.0 ? "bert" : "gpt2";
            QCOMPARE(j.model, expected);
        }
    }

    void assignModelsOnlyMissingKeepsNamedJobs() {
        Trace full;
        for (int i = 0; i < 20; ++i) full.jobs.push_back(makeJob(std::to_string(i), i, 1));
        Trace partial = full;
        partial.jobs[3].model = "keep";
        partial.jobs[7].model = "keep";
        assignModels(full, std::vector<std::string>{"a", "b", "c"}, 9, true);
        QCOMPARE(assignModels(partial, std::vector<std::string>{"a", "b", "c"}, 9, true), std::size_t{18});
        for (std::size_t i = 0; i < 20; ++i) {
            if (i == 3 || i == 7)
                QCOMPARE(partial.jobs[i].model, std::string("keep"));
            else
                QCOMPARE(partial.jobs[i].model, full.jobs[i].model);  // same draw per position
        }
        QCOMPARE(assignModels(partial, std::vector<std::string>{"a"}, 9, false), std::size_t{20});
        for (const auto& j : partial.jobs) QCOMPARE(j.model, std::string("a"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, assignModels(partial, ModelMix{}, 1));
    }

    void changingAModelDropsItsFigures() {
        Trace t;
        Job j = makeJob("0", 0, 2, "vgg16", 500.0);
        j.iterations = 1000;
        j.batch_size = 16;
        j.solo_iteration_time = 0.191;
        j.stage_times = {0.114, 0.072, 0.040};
        t.jobs.push_back(j);
        Job k = makeJob("1", 0, 2, "vgg16", 0.0);  // no duration: iterations are the work
        k.iterations = 300;
        t.jobs.push_back(k);
        assignModels(t, std::vector<std::string>{"bert"}, 1, false);
        QCOMPARE(t.jobs[0].model, std::string("bert"));
        QCOMPARE(t.jobs[0].iterations, 0.0);
        QCOMPARE(t.jobs[0].batch_size, 0);
        QCOMPARE(t.jobs[0].solo_iteration_time, 0.0);
        QVERIFY(t.jobs[0].stage_times.empty());
        QCOMPARE(t.jobs[0].duration, 500.0);
        QCOMPARE(t.jobs[1].iterations, 300.0);
        // Re-drawing the same model changes nothing.
        Trace same;
        same.jobs.push_back(j);
        assignModels(same, std::vector<std::string>{"vgg16"}, 1, false);
        QCOMPARE(same.jobs[0].iterations, 1000.0);
        QCOMPARE(same.jobs[0].batch_size, 16);
    }

    void taskShareRuleIsDeterministic() {
        Trace t;
        for (int i = 0; i < 10; ++i) t.jobs.push_back(makeJob(std::to_string(i), i, 1));
        QCOMPARE(assignModelsByTaskShare(t, parseTaskSplit("language:70,image:20,rl:10"), muriTaskCatalog()),
                 std::size_t{10});
        const std::vector<std::string> expected = {"bert", "gpt2", "vgg16", "bert",  "gpt2",
                                                   "a2c",  "bert", "gpt2",  "vgg19", "bert"};
        for (std::size_t i = 0; i < 10; ++i) QCOMPARE(t.jobs[i].model, expected[i]);
    }

    void deriveIterationsFromDuration() {
        const ProfileSet ps = smallProfiles();
        Trace t;
        t.jobs.push_back(makeJob("0", 0, 1, "resnet18", 1000.0));  // 1000 / 0.779 = 1283.7 -> 1284
        t.jobs.push_back(makeJob("1", 0, 3, "resnet18", 921.0));  // 3 GPUs -> nearest 4 (tie to larger): 1000
        t.jobs.push_back(makeJob("2", 0, 1, "bert", 0.1));        // < 1 iteration -> 1
        t.jobs.push_back(makeJob("3", 0, 1, "unknown", 100.0));   // no profile -> untouched
        Job own = makeJob("4", 0, 1, "unknown", 100.0);
        own.solo_iteration_time = 0.5;  // the job's own figure -> 200
        t.jobs.push_back(own);
        Job set = makeJob("5", 0, 1, "resnet18", 100.0);
        set.iterations = 7;  // already known -> untouched
        t.jobs.push_back(set);
        t.jobs.push_back(makeJob("6", 0, 1, "resnet18", 0.0));  // no duration -> untouched
        Job exact = makeJob("7", 0, 1, "bert", 0.178 * 3);      // 3.0000000000000004 -> 3
        t.jobs.push_back(exact);
        QCOMPARE(deriveIterations(t, ps), std::size_t{5});
        QCOMPARE(t.jobs[0].iterations, 1284.0);
        QCOMPARE(t.jobs[1].iterations, 1000.0);
        QCOMPARE(t.jobs[2].iterations, 1.0);
        QCOMPARE(t.jobs[3].iterations, 0.0);
        QCOMPARE(t.jobs[4].iterations, 200.0);
        QCOMPARE(t.jobs[5].iterations, 7.0);
        QCOMPARE(t.jobs[6].iterations, 0.0);
        QCOMPARE(t.jobs[7].iterations, 3.0);
        QCOMPARE(fillBatchSizes(t, ps), std::size_t{6});
        QCOMPARE(t.jobs[0].batch_size, 128);
        QCOMPARE(t.jobs[2].batch_size, 4);
        QCOMPARE(t.jobs[3].batch_size, 0);
    }

    // --- generator ---
    void generatorIsDeterministic() {
        GeneratorConfig c;
        c.jobs = 300;
        c.seed = 42;
        const ProfileSet ps = smallProfiles();
        const Trace a = generate(c, &ps);
        const Trace b = generate(c, &ps);
        QVERIFY(sameJobs(a, b));
        QCOMPARE(a.provenance, b.provenance);
        c.seed = 43;
        const Trace d = generate(c, &ps);
        QVERIFY(!sameJobs(a, d));
        QVERIFY(submits(a) != submits(d));
    }

    void generatorGoldenValues() {
        // Pins the documented algorithm (streams, formulas, rounding) on every platform; the
        // values were checked against an independent implementation of the documented rule.
        struct Row {
            double submit;
            int gpus;
            double duration;
            const char* model;
        };
        GeneratorConfig c;
        c.jobs = 5;
        c.seed = 2024;
        c.jobs_per_hour = 60;
        c.models = parseModelMix("resnet18:1,bert:1");
        c.gpu_weights = parseGpuWeights("1:1,2:1,4:1,8:1");
        const Row philly[] = {{0, 2, 936, "bert"},
                              {20.157, 2, 21, "resnet18"},
                              {214.617, 8, 761, "resnet18"},
                              {229.085, 8, 257, "resnet18"},
                              {307.997, 8, 564, "bert"}};
        const double synergy[] = {108522, 141847, 22556, 18706, 14008};
        for (int variant = 0; variant < 2; ++variant) {
            if (variant == 1) c.duration = DurationModel::SynergyLogUniform;
            const Trace t = generate(c);
            QCOMPARE(t.jobs.size(), std::size_t{5});
            for (std::size_t i = 0; i < 5; ++i) {
                QCOMPARE(t.jobs[i].submit_time, philly[i].submit);
                QCOMPARE(t.jobs[i].gpus, philly[i].gpus);
                QCOMPARE(t.jobs[i].duration, variant == 0 ? philly[i].duration : synergy[i]);
                QCOMPARE(t.jobs[i].model, std::string(philly[i].model));
            }
        }
    }

    void generatorJobShape() {
        GeneratorConfig c;
        c.jobs = 200;
        c.seed = 5;
        c.name = "shape";
        const ProfileSet ps = smallProfiles();
        c.models = parseModelMix("resnet18:1,bert:1,unprofiled:1");
        const Trace t = generate(c, &ps);
        QCOMPARE(t.name, std::string("shape"));
        QCOMPARE(t.jobs.size(), std::size_t{200});
        QCOMPARE(t.jobs.front().submit_time, 0.0);
        for (std::size_t i = 0; i < t.jobs.size(); ++i) {
            const Job& j = t.jobs[i];
            QCOMPARE(j.id, std::to_string(i));
            if (i > 0) QVERIFY(j.submit_time >= t.jobs[i - 1].submit_time);
            QCOMPARE(j.submit_time, std::round(j.submit_time * 1000.0) / 1000.0);
            QVERIFY(j.duration >= 1.0 && j.duration == std::round(j.duration));
            if (j.model == "unprofiled") {
                QCOMPARE(j.iterations, 0.0);
                QCOMPARE(j.batch_size, 0);
            } else {
                const double it = ps.find(j.model)->at(j.gpus)->solo_iteration_time;
                QCOMPARE(j.iterations, std::max(1.0, std::ceil(j.duration / it * (1.0 - 1e-9))));
                QCOMPARE(j.batch_size, ps.find(j.model)->batch_size);
            }
        }
        QCOMPARE(t.provenance.size(), std::size_t{1});
        const std::string& p = t.provenance[0];
        QVERIFY2(p.find("200 jobs") != std::string::npos && p.find("seed 5") != std::string::npos &&
                     p.find("Poisson arrivals at 10 jobs/h") != std::string::npos &&
                     p.find("Philly-like lognormal") != std::string::npos &&
                     p.find("Philly trace job counts") != std::string::npos &&
                     p.find("resnet18:1,bert:1,unprofiled:1") != std::string::npos,
                 p.c_str());
    }

    void generatorStreamsAreIndependent() {
        GeneratorConfig c;
        c.jobs = 100;
        c.seed = 11;
        const Trace a = generate(c);
        c.models = parseModelMix("bert");
        const Trace b = generate(c);
        for (std::size_t i = 0; i < a.jobs.size(); ++i) {
            QCOMPARE(b.jobs[i].submit_time, a.jobs[i].submit_time);
            QCOMPARE(b.jobs[i].gpus, a.jobs[i].gpus);
            QCOMPARE(b.jobs[i].duration, a.jobs[i].duration);
            QCOMPARE(b.jobs[i].model, std::string("bert"));
        }
    }

    void poissonArrivalRate() {
        GeneratorConfig c;
        c.jobs = 20000;
        c.seed = 7;
        c.jobs_per_hour = 30;
        const Trace t = generate(c);
        const double rate = (c.jobs - 1) / t.lastSubmit() * 3600.0;
        QVERIFY2(std::abs(rate - 30.0) < 0.03 * 30.0, std::to_string(rate).c_str());
        c.arrival = ArrivalProcess::AllAtZero;
        for (const auto& j : generate(c).jobs) QCOMPARE(j.submit_time, 0.0);
    }

    void synergyDurations() {
        GeneratorConfig c;
        c.jobs = 10000;
        c.seed = 3;
        c.duration = DurationModel::SynergyLogUniform;
        const Trace t = generate(c);
        const double lo = 60.0 * std::pow(10.0, 1.5), hi = 60.0 * 1e4;
        int below_1000_min = 0;
        for (const auto& j : t.jobs) {
            QVERIFY2(j.duration >= lo - 0.5 && j.duration <= hi + 0.5, std::to_string(j.duration).c_str());
            if (j.duration < 60.0 * 1000.0) ++below_1000_min;
        }
        const double frac = below_1000_min / double(c.jobs);
        QVERIFY2(std::abs(frac - 0.8) < 0.02, std::to_string(frac).c_str());
        QVERIFY(t.provenance[0].find("Synergy log-uniform") != std::string::npos);
    }

    void phillyDurations() {
        GeneratorConfig c;
        c.jobs = 20001;
        c.seed = 8;
        const Trace t = generate(c);
        std::vector<double> d;
        for (const auto& j : t.jobs) {
            d.push_back(j.duration);
            QVERIFY(j.duration >= 1.0 && j.duration <= kPhillyMaxDurationS);
        }
        std::nth_element(d.begin(), d.begin() + 10000, d.end());
        QVERIFY2(std::abs(d[10000] / kPhillyMedianDurationS - 1.0) < 0.1, std::to_string(d[10000]).c_str());
    }

    void gpuMixProportions() {
        GeneratorConfig c;
        c.jobs = 50000;
        c.seed = 21;
        std::map<int, int> n;
        for (const auto& j : generate(c).jobs) ++n[j.gpus];
        const double total = 82224.0;  // the six counts of phillyGpuCountWeights()
        const std::map<int, double> philly = {{1, 76627}, {2, 1818}, {4, 1870},
                                              {8, 1643},  {16, 199}, {32, 67}};
        for (const auto& [g, w] : philly) {
            const double expected = w / total, got = n[g] / double(c.jobs);
            QVERIFY2(std::abs(got - expected) < 0.005,
                     (std::to_string(g) + ": " + std::to_string(got)).c_str());
        }
        QCOMPARE(n.size(), std::size_t{6});

        c.gpu_weights = parseGpuWeights("1:1,4:3");
        c.jobs = 20000;
        n.clear();
        for (const auto& j : generate(c).jobs) ++n[j.gpus];
        QCOMPARE(n.size(), std::size_t{2});
        QVERIFY(std::abs(n[4] / 20000.0 - 0.75) < 0.02);

        c.gpu_weights.clear();
        c.max_gpus = 8;
        n.clear();
        for (const auto& j : generate(c).jobs) ++n[j.gpus];
        QVERIFY(n.count(16) == 0 && n.count(32) == 0 && n.count(8) == 1);
        QVERIFY(std::abs(n[1] / 20000.0 - 76627.0 / (82224.0 - 199 - 67)) < 0.01);
    }

    void taskSplitModelProportions() {
        GeneratorConfig c;
        c.jobs = 20000;
        c.seed = 99;
        c.tasks = parseTaskSplit("image:20,language:70,rl:10");
        std::map<std::string, int> per_task;
        for (const auto& j : generate(c).jobs) ++per_task[muriTaskCatalog().taskOf(j.model)];
        QVERIFY(std::abs(per_task["language"] / 20000.0 - 0.7) < 0.02);
        QVERIFY(std::abs(per_task["image"] / 20000.0 - 0.2) < 0.02);
        QVERIFY(std::abs(per_task["rl"] / 20000.0 - 0.1) < 0.02);
        QCOMPARE(per_task.count(""), std::size_t{0});
    }

    void generatorRejectsBadConfigs() {
        GeneratorConfig c;
        c.jobs = -1;
        QVERIFY(invalidMessage([&] { generate(c); }).find("job count") != std::string::npos);
        c.jobs = 10;
        c.jobs_per_hour = 0;
        QVERIFY(invalidMessage([&] { generate(c); }).find("rate") != std::string::npos);
        c.jobs_per_hour = 5;
        c.gpu_weights = {{4, 1.0}, {8, 1.0}};
        c.max_gpus = 2;
        QVERIFY(invalidMessage([&] { generate(c); }).find("max_gpus 2") != std::string::npos);
        c.max_gpus = 0;
        c.gpu_weights = {{0, 1.0}};
        QVERIFY(invalidMessage([&] { generate(c); }).find(">= 1") != std::string::npos);
        c.gpu_weights.clear();
        c.tasks = parseTaskSplit("speech:1");
        QVERIFY(invalidMessage([&] { generate(c); }).find("unknown task") != std::string::npos);
        c.task_catalog = "synergy";
        QCOMPARE(generate(c).jobs.front().model.empty(), false);
        QVERIFY(invalidMessage([] { parseGpuWeights("one:1"); }).find("GPU count") != std::string::npos);
        GeneratorConfig empty;
        empty.jobs = 0;
        QCOMPARE(generate(empty).jobs.size(), std::size_t{0});
    }

    // --- transforms ---
    void scaleLoadDividesSubmitTimes() {
        const Trace in = smallTrace();
        const Trace t = scaleLoad(in, 2.0);
        QCOMPARE(submits(t), (std::vector<double>{0, 50, 100, 150, 200}));
        QCOMPARE(submits(in), (std::vector<double>{0, 100, 200, 300, 400}));  // input untouched
        QCOMPARE(t.provenance.size(), std::size_t{2});
        QCOMPARE(t.provenance[1], std::string("scale load x2: submit times divided by 2"));
        QCOMPARE(t.jobs[4].duration, 5000.0);
        QCOMPARE(submits(scaleLoad(in, 0.5)), (std::vector<double>{0, 200, 400, 600, 800}));
        for (double bad : std::vector<double>{0.0, -1.0, std::nan(""), INFINITY})
            QVERIFY(invalidMessage([&] { scaleLoad(in, bad); }).find("scale load") != std::string::npos);
    }

    void allAtZeroSubmitsEverythingAtZero() {
        const Trace t = allAtZero(smallTrace());
        QCOMPARE(submits(t), (std::vector<double>(5, 0.0)));
        QCOMPARE(ids(t), (std::vector<std::string>{"0", "1", "2", "3", "4"}));
        QCOMPARE(t.provenance.back(), std::string("all-at-zero: every job submitted at time 0"));
    }

    void timeWindowKeepsAndShifts() {
        const Trace in = smallTrace();
        const Trace t = timeWindow(in, 100, 300);
        QCOMPARE(ids(t), (std::vector<std::string>{"1", "2"}));
        QCOMPARE(submits(t), (std::vector<double>{0, 100}));
        QCOMPARE(t.provenance.back(),
                 std::string("time window [100, 300) s: kept 2 of 5 jobs, submit times shifted by -100 s"));
        const Trace open = timeWindow(in, 250, INFINITY);
        QCOMPARE(ids(open), (std::vector<std::string>{"3", "4"}));
        QCOMPARE(submits(open), (std::vector<double>{50, 150}));
        QCOMPARE(timeWindow(in, 401, 500).jobs.size(), std::size_t{0});
        QVERIFY(invalidMessage([&] { timeWindow(in, 300, 100); }).find("greater than start") !=
                std::string::npos);
        QVERIFY(invalidMessage([&] { timeWindow(in, 5, 5); }).find("greater than start") !=
                std::string::npos);
        QVERIFY(invalidMessage([&] { timeWindow(in, -INFINITY, 5); }).find("finite") != std::string::npos);
    }

    void subsampleKeepsOrderAndIsSeeded() {
        Trace in;
        for (int i = 0; i < 100; ++i) in.jobs.push_back(makeJob(std::to_string(i), i, 1));
        const Trace a = subsample(in, 10, 7);
        QCOMPARE(a.jobs.size(), std::size_t{10});
        for (std::size_t i = 1; i < a.jobs.size(); ++i)
            QVERIFY(std::stoi(a.jobs[i].id) > std::stoi(a.jobs[i - 1].id));
        QCOMPARE(ids(subsample(in, 10, 7)), ids(a));
        QVERIFY(ids(subsample(in, 10, 8)) != ids(a));
        // The documented algorithm: partial Fisher-Yates with below(), then sorted.
        std::vector<int> idx(100);
        for (int i = 0; i < 100; ++i) idx[i] = i;
        PortableRng rng(7);
        for (int i = 0; i < 10; ++i) std::swap(idx[i], idx[i + rng.below(100 - i)]);
        std::vector<int> chosen(idx.begin(), idx.begin() + 10);
        std::sort(chosen.begin(), chosen.end());
        for (std::size_t i = 0; i < 10; ++i) QCOMPARE(a.jobs[i].id, std::to_string(chosen[i]));
        QCOMPARE(a.provenance.back(), std::string("subsample 10 of 100 jobs (seed 7)"));
        QCOMPARE(ids(subsample(in, 100, 1)), ids(in));
        QVERIFY(invalidMessage([&] { subsample(in, 101, 1); }).find("cannot keep 101") != std::string::npos);
        QVERIFY(invalidMessage([&] { subsample(in, 0, 1); }).find(">= 1") != std::string::npos);
    }

    // A block bootstrap: as many day blocks as the trace spans, drawn with replacement by the
    // documented generator, each block's jobs moved with their times within the block.
    void resampleDrawsWholeBlocksWithReplacement() {
        Trace in;
        for (int d = 0; d < 5; ++d)
            for (int k = 0; k < d + 1; ++k) {  // day d holds d + 1 jobs, at d days + k hours
                Job j = makeJob("d" + std::to_string(d) + "j" + std::to_string(k), d * 86400.0 + k * 3600.0,
                                d + 1);
                j.recorded_start = j.submit_time + 5;
                in.jobs.push_back(j);
            }
        const Trace a = applyTransform(in, "resample=day@3");
        PortableRng rng(3);
        std::size_t at = 0;
        for (int k = 0; k < 5; ++k) {
            const int drawn = static_cast<int>(rng.below(5));
            for (int m = 0; m < drawn + 1; ++m, ++at) {
                const Job& j = a.jobs.at(at);
                QCOMPARE(j.id,
                         "d" + std::to_string(drawn) + "j" + std::to_string(m) + "~" + std::to_string(k));
                QCOMPARE(j.submit_time, k * 86400.0 + m * 3600.0);
                QCOMPARE(j.gpus, drawn + 1);
                QCOMPARE(j.recorded_start, -1.0);
            }
        }
        QCOMPARE(a.jobs.size(), at);
        QCOMPARE(a.provenance.back(),
                 std::string("resample blocks of 86400 s by arrival (block bootstrap, seed 3)"));
        QVERIFY(ids(applyTransform(in, "resample=day@4")) != ids(a));
        QCOMPARE(ids(applyTransform(in, "resample=day@3")), ids(a));
        // One week block holds the whole trace: it is drawn as it is.
        const Trace week = applyTransform(in, "resample=week");
        QCOMPARE(week.jobs.size(), in.jobs.size());
        QCOMPARE(week.jobs.back().submit_time, in.jobs.back().submit_time);
        QVERIFY(invalidMessage([&] { applyTransform(in, "resample=month"); }).find("'day' or 'week'") !=
                std::string::npos);
    }

    void reassignModelsRedrawsEveryJob() {
        Trace in = smallTrace();
        for (auto& j : in.jobs) {
            j.model = "vgg16";
            j.iterations = 99;
            j.solo_iteration_time = 0.2;
        }
        const Trace t = reassignModels(in, parseModelMix("bert"), 42);
        for (const auto& j : t.jobs) {
            QCOMPARE(j.model, std::string("bert"));
            QCOMPARE(j.iterations, 0.0);  // re-derived from the duration later
            QCOMPARE(j.solo_iteration_time, 0.0);
        }
        QCOMPARE(t.provenance.back(), std::string("models reassigned from mix bert:1 (seed 42)"));
        Trace expected = in;
        assignModels(expected, parseModelMix("resnet18:1,gpt2:3"), 5, false);
        QVERIFY(sameJobs(reassignModels(in, parseModelMix("resnet18:1,gpt2:3"), 5), expected));
    }

    void capGpusCapsAndDropsMeasuredTimes() {
        Trace in = smallTrace();
        in.jobs[4].solo_iteration_time = 0.3;
        in.jobs[4].stage_times = {0.1, 0.1, 0.1};
        in.jobs[4].iterations = 500;
        const Trace t = capGpus(in, 4);
        std::vector<int> g;
        for (const auto& j : t.jobs) g.push_back(j.gpus);
        QCOMPARE(g, (std::vector<int>{1, 2, 4, 4, 4}));
        QCOMPARE(t.jobs[4].solo_iteration_time, 0.0);
        QVERIFY(t.jobs[4].stage_times.empty());
        QCOMPARE(t.jobs[4].iterations, 0.0);
        QCOMPARE(t.jobs[4].duration, 5000.0);
        QCOMPARE(t.provenance.back(), std::string("GPU counts capped at 4 (2 jobs changed)"));
        QVERIFY(invalidMessage([&] { capGpus(in, 0); }).find(">= 1") != std::string::npos);
    }

    void applyTransformParsesSpecs() {
        const Trace in = smallTrace();
        QCOMPARE(submits(applyTransform(in, "scale=2")), submits(scaleLoad(in, 2)));
        QCOMPARE(submits(applyTransform(in, "scale=0.5")), submits(scaleLoad(in, 0.5)));
        QCOMPARE(submits(applyTransform(in, "all-at-zero")), (std::vector<double>(5, 0.0)));
        QCOMPARE(ids(applyTransform(in, "window=100:300")), (std::vector<std::string>{"1", "2"}));
        QCOMPARE(ids(applyTransform(in, "window=250:inf")), (std::vector<std::string>{"3", "4"}));
        QCOMPARE(ids(applyTransform(in, "subsample=3:7")), ids(subsample(in, 3, 7)));
        QCOMPARE(ids(applyTransform(in, "subsample=3")), ids(subsample(in, 3, 1)));
        QVERIFY(sameJobs(applyTransform(in, "models=resnet18:1,bert:2@42"),
                         reassignModels(in, parseModelMix("resnet18:1,bert:2"), 42)));
        QVERIFY(sameJobs(applyTransform(in, "models=resnet18"),
                         reassignModels(in, parseModelMix("resnet18"), 1)));
        const Trace tasks = applyTransform(in, "tasks=language:1@3");
        for (const auto& j : tasks.jobs) QVERIFY(j.model == "bert" || j.model == "gpt2");
        QVERIFY(tasks.provenance.back().find("task split language:1") != std::string::npos);
        std::vector<int> g;
        for (const auto& j : applyTransform(in, "cap-gpus=8").jobs) g.push_back(j.gpus);
        QCOMPARE(g, (std::vector<int>{1, 2, 4, 8, 8}));
        const Trace chained = applyTransforms(in, {"cap-gpus=8", "scale=2", "window=0:150"});
        QCOMPARE(ids(chained), (std::vector<std::string>{"0", "1", "2"}));
        QCOMPARE(chained.provenance.size(), std::size_t{4});
    }

    void applyTransformRejectsBadSpecs() {
        const Trace in = smallTrace();
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"frobnicate", "unknown transform 'frobnicate'"},
            {"", "unknown transform ''"},
            {"scale", "needs a value"},
            {"scale=", "needs a value"},
            {"scale=abc", "scale factor 'abc' is not a number"},
            {"scale=0", "factor must be a finite number > 0"},
            {"scale=-2", "factor must be a finite number > 0"},
            {"scale=2x", "is not a number"},
            {"all-at-zero=1", "takes no value"},
            {"window=5", "expected window=T0:T1"},
            {"window=10:5", "greater than start"},
            {"window=a:5", "window start 'a'"},
            {"subsample=x", "job count 'x'"},
            {"subsample=-3", "job count '-3'"},
            {"subsample=9:1", "cannot keep 9"},
            {"subsample=2:z", "seed 'z'"},
            {"models=", "needs a value"},
            {"models=a:-1@3", "weight must be finite and >= 0"},
            {"models=a:1@x", "seed 'x'"},
            {"tasks=speech:1", "unknown task 'speech'"},
            {"cap-gpus=0", "the cap must be >= 1"},
            {"cap-gpus=four", "GPU cap 'four'"},
        };
        for (const auto& c : cases) {
            const std::string &spec = c.first, &fragment = c.second;
            const std::string msg = invalidMessage([&] { applyTransform(in, spec); });
            QVERIFY2(msg.find(fragment) != std::string::npos, (spec + " -> " + msg).c_str());
            QVERIFY2(msg.find("valid transforms: scale=F") != std::string::npos, msg.c_str());
            QVERIFY2(msg.find("cap-gpus=C") != std::string::npos, msg.c_str());
        }
        QCOMPARE(transformSpecSyntax().size(), std::size_t{8});
    }
};

QTEST_APPLESS_MAIN(TestWorkload)
#include "test_workload.moc"
