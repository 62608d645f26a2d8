// core/policies drf and tetris orders (Synergy section 5.7): rankings on hand-built rounds
// with sensitivity matrices in the profile set, jobs without a matrix, and registration.
#include <QtTest>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/model/sensitivity.h"
#include "core/policies/priority_order.h"
#include "core/policies/scheduler_registry.h"

using namespace cl;

namespace {

SensitivityMatrix grid(double (*w)(double cpus, double memory_gb)) {
    SensitivityMatrix m;
    m.cpu_levels = synergyCpuLevels();
    m.memory_levels_gb = synergyMemoryLevelsGb();
    for (double c : m.cpu_levels)
        for (double g : m.memory_levels_gb) m.throughput.push_back(w(c, g));
    return m;
}

// The Synergy artifact's matrices (data/README.md): resnet18 (best 9 CPUs, 62.5 GB per GPU), gnmt
// (flat: best 1 CPU, 20.83 GB); two made-up shapes for tetris: cpuhog (best 6 CPUs, 20.83 GB) and memhog
// (best 1 CPU, 125 GB).
ProfileSet profiles() {
    auto add = [](ProfileSet& set, const std::string& name, const SensitivityMatrix& m) {
        ModelProfile p;
        p.name = name;
        p.by_gpus = {{1, 0.5, {}, 10.0}};
        p.extra.edit()["synergy"] = sensitivityJson(m);
        set.models[name] = p;
    };
    ProfileSet set;
    add(set, "resnet18", grid([](double c, double g) {
            if (g < 62.5) return 0.1;
            const double row[] = {.37, .72, 1, 1.3, 1.53, 1.75, 2.4, 2.4, 2.4};
            const auto& levels = synergyCpuLevels();
            return row[std::find(levels.begin(), levels.end(), c) - levels.begin()];
        }));
    add(set, "gnmt", grid([](double, double) { return 1.0; }));
    add(set, "cpuhog", grid([](double c, double) { return std::min(c, 6.0) / 3.0; }));
    add(set, "memhog", grid([](double, double g) { return g < 62.5 ? 0.5 : (g < 125 ? 1.0 : 1.5); }));
    ModelProfile plain;  // a profile without a matrix
    plain.name = "mystery";
    plain.by_gpus = {{1, 0.5, {}, 10.0}};
    set.models["mystery"] = plain;
    return set;
}

Cluster cluster(int servers) {
    Cluster c;
    c.servers.resize(static_cast<std::size_t>(servers));  // 8 GPUs, 24 CPUs, 500 GB each
    return c;
}

// Active jobs in arrival order; every job arrives at its own event unless batched.
struct Round {
    Cluster cluster;
    ProfileSet profiles;
    std::vector<JobState> jobs;

    void add(const char* model, int gpus, bool running = false) {
        JobState j;
        j.index = static_cast<int>(jobs.size());
        j.gpus = gpus;
        j.model = model;
        j.running = running;
        jobs.push_back(j);
    }

    // Observes the jobs arriving one event at a time, then ranks.
    std::vector<int> rank(PriorityOrder& order) const {
        std::vector<const JobState*> by_index(jobs.size(), nullptr);
        std::vector<int> ranked;
        for (std::size_t n = 1; n <= jobs.size(); ++n) {
            by_index[n - 1] = &jobs[n - 1];
            const int arrived = static_cast<int>(n - 1);
            SchedulerInput in;
            in.cluster = &cluster;
            in.profiles = &profiles;
            in.active = std::span<const JobState>(jobs.data(), n);
            in.arrived = std::span<const int>(&arrived, 1);
            in.by_index = by_index;
            order.observe(in);
            if (n == jobs.size()) order.rank(in, ranked);
        }
        return ranked;
    }
};

}  // namespace

class TestSynergyOrders : public QObject {
    Q_OBJECT

private slots:
    // 128 GPUs, 384 CPUs, 8000 GB. An 8-GPU resnet18 at its best (9 CPUs, 62.5 GB per GPU)
    // holds 72/384 = 0.1875 of the CPUs; a 1-GPU gnmt (1 CPU, 20.83 GB) 1/128 of the GPUs.
    void drfRanksSmallerDominantShareFirst() {
        Round r{cluster(16), profiles(), {}};
        r.add("resnet18", 8);
        r.add("gnmt", 1);
        auto drf = makeDrfOrder();
        QCOMPARE(drf->name(), std::string("drf"));
        QCOMPARE(r.rank(*drf), (std::vector<int>{1, 0}));
        // Regardless of arrival.
        Round s{cluster(16), profiles(), {}};
        s.add("gnmt", 1);
        s.add("resnet18", 8);
        auto drf2 = makeDrfOrder();
        QCOMPARE(s.rank(*drf2), (std::vector<int>{0, 1}));
        // GPUs dominate a 4-GPU gnmt (4/128 > 4/384): after a 1-GPU resnet18 (9/384 = 0.0234
        // < 4/128 = 0.03125).
        Round t{cluster(16), profiles(), {}};
        t.add("gnmt", 4);
        t.add("resnet18", 1);
        auto drf3 = makeDrfOrder();
        QCOMPARE(t.rank(*drf3), (std::vector<int>{1, 0}));
    }

    void drfTiesKeepArrivalOrder() {
        Round r{cluster(16), profiles(), {}};
        r.add("gnmt", 1);
        r.add("resnet18", 8);
        r.add("gnmt", 1);
        r.add("resnet18", 8);
        r.add("gnmt", 1);
        auto drf = makeDrfOrder();
        QCOMPARE(r.rank(*drf), (std::vector<int>{0, 2, 4, 1, 3}));
    }

    // A job without a matrix (no profile, or a profile without extra.synergy) demands its
    // GPU-proportional share: the same share of every resource, GPUs / 128.
    void drfHandlesJobsWithoutMatrix() {
        Round r{cluster(16), profiles(), {}};
        r.add("resnet18", 8);  // 0.1875
        r.add("unknown", 2);   // 2/128 = 0.015625
        r.add("gnmt", 1);      // 1/128
        r.add("mystery", 1);   // 1/128: ties with gnmt, arrived later
        r.add("unknown", 16);  // 16/128 = 0.125
        auto drf = makeDrfOrder();
        QCOMPARE(r.rank(*drf), (std::vector<int>{2, 3, 1, 4, 0}));
    }

    // One server (8 GPUs, 24 CPUs, 500 GB). A running 2-GPU cpuhog holds 12 CPUs and
    // 41.67 GB: free = (6, 12, 458.3), normalised (0.75, 0.5, 0.917). A pending 2-GPU memhog
    // (2, 2, 250) scores 0.1875 + 0.0417 + 0.4583 = 0.6875, a pending 2-GPU cpuhog
    // (2, 12, 41.67) 0.1875 + 0.25 + 0.0764 = 0.514: the memory-heavy job fits the free
    // shape better and goes first although it arrived later. The running job is scored
    // against free + its own demand (the whole server) and stays first.
    void tetrisPrefersJobMatchingFreeShape() {
        Round r{cluster(1), profiles(), {}};
        r.add("cpuhog", 2, true);
        r.add("cpuhog", 2);
        r.add("memhog", 2);
        auto tetris = makeTetrisOrder();
        QCOMPARE(tetris->name(), std::string("tetris"));
        QCOMPARE(r.rank(*tetris), (std::vector<int>{0, 2, 1}));
        // The other way round when a memhog runs: free = (6, 22, 250).
        Round s{cluster(1), profiles(), {}};
        s.add("memhog", 2, true);
        s.add("cpuhog", 2);
        s.add("memhog", 2);
        auto tetris2 = makeTetrisOrder();
        QCOMPARE(s.rank(*tetris2), (std::vector<int>{0, 1, 2}));
    }

    // Tetris only scores jobs that fit: an 8-GPU gnmt (8, 8, 166.7) would align well (score
    // 0.75 + 0.167 + 0.306 = 1.22) but only 6 GPUs are free, so the 1-GPU gnmt (score 0.153)
    // goes first.
    void tetrisRanksFittingJobsFirst() {
        Round r{cluster(1), profiles(), {}};
        r.add("cpuhog", 2, true);
        r.add("gnmt", 8);
        r.add("gnmt", 1);
        auto tetris = makeTetrisOrder();
        QCOMPARE(r.rank(*tetris), (std::vector<int>{0, 2, 1}));
    }

    // A 2-GPU job without a matrix demands (2, 6, 125): score 0.1875 + 0.125 + 0.229 = 0.542
    // with the cpuhog running, between the pending memhog (0.6875) and cpuhog (0.514).
    void tetrisHandlesJobsWithoutMatrix() {
        Round r{cluster(1), profiles(), {}};
        r.add("cpuhog", 2, true);
        r.add("cpuhog", 2);
        r.add("unknown", 2);
        r.add("memhog", 2);
        r.add("mystery", 2);  // same demand as "unknown": tie, arrived later
        auto tetris = makeTetrisOrder();
        QCOMPARE(r.rank(*tetris), (std::vector<int>{0, 3, 2, 4, 1}));
    }

    void registered() {
        const auto names = orderNames();
        QVERIFY(std::find(names.begin(), names.end(), "drf") != names.end());
        QVERIFY(std::find(names.begin(), names.end(), "tetris") != names.end());
        QCOMPARE(makeScheduler("drf", Conventions{})->name(), std::string("drf"));
        QCOMPARE(makeScheduler("tetris+firstfit", Conventions{})->name(), std::string("tetris+firstfit"));
    }

    void malformedMatrixNamesTheModel() {
        Round r{cluster(1), profiles(), {}};
        r.profiles.models["gnmt"].extra.edit()["synergy"]["throughput"] = nlohmann::json::array();
        r.add("gnmt", 1);
        auto drf = makeDrfOrder();
        try {
            r.rank(*drf);
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("model 'gnmt' extra.synergy.throughput") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestSynergyOrders)
#include "test_synergy_orders.moc"
