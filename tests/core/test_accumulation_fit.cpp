// The SJF-BSBF profile fitter: least squares and overlap search recover known parameters, a model
// folder written from known parameters is fitted back, bad CSVs name file and line, the built-in
// profile set parses and matches a fresh fit of Pollux's measurements.
#include <QTemporaryDir>
#include <QtTest>

#include "shared_data.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/io/accumulation_profile_json.h"
#include "core/io/builtin_data.h"
#include "core/io/csv_table.h"
#include "core/io/parse_error.h"
#include "core/io/pollux_model_folder.h"
#include "core/io/profile_io.h"
#include "core/model/accumulation_fit.h"

using namespace cl;

namespace {

bool within(double got, double want, double rel) {
    return std::abs(got - want) <= rel * std::abs(want);
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::string pollux(const char* model) {
    return std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/pollux/models" + (model[0] ? "/" : "") + model;
}

// A model folder measured exactly by Eq. 7 with the given parameters.
void writeSyntheticFolder(const std::string& dir, const AccumulationProfile& p) {
    std::string placements = "placement,local_bsz,step_time,sync_time\n";
    const char* shapes[] = {"1", "2", "3", "4", "11", "22", "44", "1111", "444"};
    for (const char* shape : shapes) {
        PolluxRow r;
        r.nodes = static_cast<int>(std::string(shape).size());
        r.replicas = 0;
        for (const char* c = shape; *c; ++c) r.replicas += *c - '0';
        for (int b : {8, 16, 32, 64, 128}) {
            r.local_bsz = b;
            const double sync = r.replicas > 1 ? allReduceTime(p, r.replicas, r.nodes) : 0.0;
            placements += std::string(shape) + "," + std::to_string(b) + "," +
                          std::to_string(predictedStepTime(p, r)) + "," + std::to_string(sync) + "\n";
        }
    }
    std::string scalability = "num_nodes,num_replicas,local_bsz,step_time,sync_time\n";
    for (int nodes : {3, 5, 8}) {
        PolluxRow r;
        r.nodes = nodes;
        r.replicas = nodes * 4;
        for (int b : {16, 64}) {
            r.local_bsz = b;
            scalability += std::to_string(nodes) + "," + std::to_string(r.replicas) + "," +
                           std::to_string(b) + "," + std::to_string(predictedStepTime(p, r)) + "," +
                           std::to_string(allReduceTime(p, r.replicas, r.nodes)) + "\n";
        }
    }
    writeText(dir + "/placements.csv", placements);
    writeText(dir + "/scalability.csv", scalability);
}

}  // namespace

class TestAccumulationFit : public QObject {
    Q_OBJECT

private slots:
    void linearFitExact() {
        std::vector<double> x, y;
        for (int i = 1; i <= 12; ++i) {
            x.push_back(4.0 * i);
            y.push_back(0.025 + 0.0031 * x.back());
        }
        const LinearFit f = fitLinear(x, y);
        QVERIFY(within(f.alpha, 0.025, 1e-9));
        QVERIFY(within(f.beta, 0.0031, 1e-9));
        QCOMPARE(f.samples, 12);
        QVERIFY(!f.constant);
        QVERIFY(!f.clamped);
    }

    void linearFitSlightlyNoisy() {
        // +-0.5% deterministic noise, alternating: alpha and beta stay within 1%.
        std::vector<double> x, y;
        for (int i = 1; i <= 40; ++i) {
            x.push_back(i);
            y.push_back((0.1 + 0.02 * i) * (i % 2 ? 1.005 : 0.995));
        }
        const LinearFit f = fitLinear(x, y);
        QVERIFY2(within(f.alpha, 0.1, 0.01), qPrintable(QString::number(f.alpha)));
        QVERIFY2(within(f.beta, 0.02, 0.01), qPrintable(QString::number(f.beta)));
    }

    void linearFitFallbacks() {
        // One distinct x: a constant fit at the mean.
        LinearFit c = fitLinear({5, 5, 5}, {1, 2, 3});
        QVERIFY(c.constant);
        QCOMPARE(c.alpha, 2.0);
        QCOMPARE(c.beta, 0.0);
        // Negative intercept: pinned to 0, slope through the origin = sum(xy) / sum(xx).
        LinearFit n = fitLinear({1, 2, 3}, {0.5, 1.5, 2.5}, true);
        QVERIFY(n.clamped);
        QCOMPARE(n.alpha, 0.0);
        QVERIFY(within(n.beta, (0.5 + 3.0 + 7.5) / 14.0, 1e-12));
        // Negative slope: pinned to 0, intercept = mean.
        LinearFit s = fitLinear({1, 2, 3}, {3, 2, 1}, true);
        QVERIFY(s.clamped);
        QCOMPARE(s.beta, 0.0);
        QCOMPARE(s.alpha, 2.0);
        QCOMPARE(fitLinear({}, {}).samples, 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitLinear({1}, {}));
    }

    void overlapDeltaRecovered() {
        for (double delta : {1.0, 1.37, 2.5, 6.0}) {
            std::vector<OverlapSample> samples;
            for (int i = 1; i <= 20; ++i) {
                const double comp = 0.01 * i, comm = 0.2 - 0.008 * i;
                samples.push_back(
                    {comp, comm, std::pow(std::pow(comp, delta) + std::pow(comm, delta), 1.0 / delta)});
            }
            const double got = fitOverlapDelta(samples);
            QVERIFY2(within(got, delta, 0.01), qPrintable(QString("%1 vs %2").arg(got).arg(delta)));
        }
        QCOMPARE(fitOverlapDelta({}), 1.0);
    }

    void syntheticFolderFittedBack() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        AccumulationProfile truth;
        truth.alpha_comp = 0.02;
        truth.beta_comp = 0.0015;
        truth.gradient_mb = 100;
        truth.alpha_comm_intra = 0.004;
        truth.beta_comm_intra = 0.0003;
        truth.alpha_comm_inter = 0.03;
        truth.beta_comm_inter = 0.0021;
        truth.delta = 1.6;
        const std::string dir = tmp.path().toStdString();
        writeSyntheticFolder(dir, truth);
        PolluxModelConstants k;
        k.name = "synthetic";
        k.gradient_mb = 100;
        k.default_batch = 32;
        const AccumulationFit fit = fitPolluxModelFolder(dir, k);
        const AccumulationProfile& p = fit.profile;
        QVERIFY(within(p.alpha_comp, truth.alpha_comp, 0.01));
        QVERIFY(within(p.beta_comp, truth.beta_comp, 0.01));
        QVERIFY(within(p.alpha_comm_intra, truth.alpha_comm_intra, 0.01));
        QVERIFY(within(p.beta_comm_intra, truth.beta_comm_intra, 0.01));
        QVERIFY(within(p.alpha_comm_inter, truth.alpha_comm_inter, 0.01));
        QVERIFY(within(p.beta_comm_inter, truth.beta_comm_inter, 0.01));
        QVERIFY2(within(p.delta, truth.delta, 0.01), qPrintable(QString::number(p.delta)));
        QCOMPARE(fit.single_gpu_rows, 5);
        QCOMPARE(fit.intra_rows, 15);  // 2, 3, 4
        QCOMPARE(fit.inter_rows, 31);  // 11, 22, 44, 1111, 444 and six scalability rows
        QCOMPARE(fit.error.rows, 51);
        QVERIFY(fit.error.rms_rel_error < 1e-4);  // the CSV keeps six decimals
        QVERIFY(fit.error.max_rel_error < 1e-3);
    }

    void builtinProfileSetParses() {
        const ProfileSet set = builtinProfiles("sjf-bsbf");
        QCOMPARE(set.modelNames(),
                 (std::vector<std::string>{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"}));
        for (const auto& [name, m] : set.models) {
            const auto p = accumulationProfileOf(m);
            QVERIFY2(p.has_value(), name.c_str());
            QVERIFY(p->alpha_comp >= 0 && p->beta_comp > 0 && p->delta >= 1 && p->gradient_mb > 0);
            QVERIFY(p->memory_base_mb > 0 && p->memory_per_sample_mb > 0 && p->train_samples > 0);
            QCOMPARE(m.batch_size, p->default_batch);
            const int sub = largestFittingSubBatch(*p, p->default_batch, p->reference_gpu_memory_mb);
            QVERIFY(sub > 0);
            QCOMPARE(m.by_gpus.size(), std::size_t{5});
            for (const auto& row : m.by_gpus) {
                const double eq7 = accumulatedIterationTime(*p, row.gpus, consolidatedServers(row.gpus, 4),
                                                            p->default_batch * row.gpus, sub);
                QVERIFY(eq7 > 0);
                QVERIFY2(within(row.solo_iteration_time, eq7, 1e-5), name.c_str());
                QCOMPARE(row.restart_overhead, 10.0);
            }
            QVERIFY(m.extra.get()["sjf_bsbf"]["fit"]["rms_rel_error"].get<double>() < 0.25);
        }
    }

    void badCsvNamesFileAndLine() {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        const std::string scal = "num_nodes,num_replicas,local_bsz,step_time,sync_time\n2,8,16,0.5,0.2\n";
        writeText(dir + "/scalability.csv", scal);
        auto message = [&](const std::string& placements) -> std::string {
            writeText(dir + "/placements.csv", placements);
            try {
                readPolluxModelFolder(dir);
            } catch (const ParseError& e) {
                return e.what();
            }
            return "no error";
        };
        std::string m = message("placement,local_bsz,sync_time\n1,4,0.1\n");
        QVERIFY2(m.find("placements.csv:1") != std::string::npos && m.find("step_time") != std::string::npos,
                 m.c_str());
        m = message("placement,local_bsz,step_time,sync_time\n1,4,0.4,0.01\n1,8,0.5,-0.01\n");
        QVERIFY2(m.find("placements.csv:3") != std::string::npos && m.find("sync_time") != std::string::npos,
                 m.c_str());
        m = message("placement,local_bsz,step_time,sync_time\n1,4,-0.4,0.01\n");
        QVERIFY2(m.find("placements.csv:2") != std::string::npos && m.find("step_time") != std::string::npos,
                 m.c_str());
        m = message("placement,local_bsz,step_time,sync_time\n2x,4,0.4,0.01\n");
        QVERIFY2(m.find("placements.csv:2") != std::string::npos && m.find("placement") != std::string::npos,
                 m.c_str());
        writeText(dir + "/placements.csv", "placement,local_bsz,step_time,sync_time\n1,4,0.4,0.01\n");
        writeText(dir + "/scalability.csv",
                  "num_nodes,num_replicas,local_bsz,step_time,sync_time\n4,2,16,0.5,0.2\n");
        try {
            readPolluxModelFolder(dir);
            QFAIL("replicas < nodes accepted");
        } catch (const ParseError& e) {
            QVERIFY2(std::string(e.what()).find("scalability.csv:2") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ParseError, readPolluxModelFolder(dir + "/nope"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitPolluxModels(dir + "/nope"));
    }

    void realPolluxFoldersFit() {
        REQUIRE_SHARED_DATA(pollux("cifar10"));
        const std::vector<AccumulationFit> fits = fitPolluxModels(pollux(""));
        QCOMPARE(fits.size(), std::size_t{6});
        for (const auto& f : fits) {
            qInfo("%s: rows %d, RMS %.1f%%, max %.1f%%, delta %.3f", f.model.c_str(), f.error.rows,
                  f.error.rms_rel_error * 100, f.error.max_rel_error * 100, f.profile.delta);
            QVERIFY2(f.error.rms_rel_error < 0.25, f.model.c_str());
            QVERIFY(f.profile.beta_comp > 0);
            QVERIFY(f.profile.delta >= 1.0);
        }
        // The committed profile set is exactly what the fitter writes today.
        const std::string committed =
            readWholeFile(std::string(CLUSTERLOOM_SOURCE_DATA_DIR) + "/profiles/sjf-bsbf.json");
        QCOMPARE(profilesJsonText(accumulationProfileSet(fits)), committed);
    }
};

QTEST_APPLESS_MAIN(TestAccumulationFit)
#include "test_accumulation_fit.moc"
