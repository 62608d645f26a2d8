// Fidelity: with the muri-artifact conventions the engine reproduces what the authors' Muri
// simulator prints for the shared Philly-derived traces (../shared/data/muri-traces/
// reference-results.md). The issue asks for the average JCT within 10%; the engine matches
// every published figure (avg JCT and makespan) to the second, so the test holds it to that.
#include <QtTest>

#include <cmath>
#include <filesystem>

#include "core/io/layout_io.h"
#include "core/io/trace_readers.h"
#include "core/sim/simulator.h"
#include "core/util/data_paths.h"

using namespace cl;

namespace {
const std::string kDir = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/muri-traces";

struct Reference {
    const char* trace;
    const char* policy;
    double avg_jct;
    double makespan;
};
// reference-results.md (seconds).
const Reference kReference[] = {
    {"trace1", "srtf", 1370603, 26045466},    {"trace1", "srsf", 980141, 26065759},
    {"trace1", "tiresias", 3330371, 23556410}, {"trace1_pr", "srtf", 2303544, 24513544},
    {"trace1_pr", "srsf", 1801860, 24272530},  {"trace1_pr", "tiresias", 6921683, 21990478},
    {"trace3", "srtf", 193082, 8174135},       {"trace3", "srsf", 185022, 8174135},
    {"trace3", "tiresias", 347213, 8174226},   {"trace3_pr", "srtf", 844395, 7261796},
    {"trace3_pr", "srsf", 798058, 6907790},    {"trace3_pr", "tiresias", 2213110, 6761641},
};
}  // namespace

class TestGoldenMuri : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!std::filesystem::exists(kDir + "/trace1.csv"))
            QSKIP("../shared/data/muri-traces is absent; golden tests need the shared sample traces");
    }

    void averageJctMatchesTheAuthorsSimulator_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("policy");
        QTest::addColumn<double>("avg");
        QTest::addColumn<double>("makespan");
        for (const auto& r : kReference)
            QTest::newRow((std::string(r.trace) + "/" + r.policy).c_str())
                << QString(r.trace) << QString(r.policy) << r.avg_jct << r.makespan;
    }
    void averageJctMatchesTheAuthorsSimulator() {
        QFETCH(QString, trace);
        QFETCH(QString, policy);
        QFETCH(double, avg);
        QFETCH(double, makespan);
        Cluster cluster = readMuriClusterSpecCsv(kDir + "/cluster_n8g8.csv");
        ProfileSet profiles = builtinProfiles();
        Trace t = readMuriTraceCsv(kDir + "/" + trace.toStdString() + ".csv");
        SimOptions opts;
        opts.conventions = Conventions::muriArtifact();
        opts.record_segments = false;
        SimResult r = simulate(cluster, t, profiles, policy.toStdString(), opts);
        QCOMPARE(r.summary.completed, static_cast<int>(t.jobs.size()));
        double gap = std::fabs(r.summary.avg_jct - avg) / avg;
        qInfo("%s %s: avg JCT %.0f s (reference %.0f s, gap %.2f%%), makespan %.0f s (reference %.0f s)",
              qPrintable(trace), qPrintable(policy), r.summary.avg_jct, avg, gap * 100, r.summary.makespan, makespan);
        QVERIFY2(gap <= 0.10, "average JCT more than 10% away from the authors' simulator");
        QVERIFY2(std::fabs(r.summary.avg_jct - avg) < 1.0, "average JCT no longer reproduced to the second");
        QVERIFY2(std::fabs(r.summary.makespan - makespan) < 1.0, "makespan no longer reproduced to the second");
    }

    void cleanConventionsDifferFromTheArtifact() {
        Cluster cluster = readMuriClusterSpecCsv(kDir + "/cluster_n8g8.csv");
        ProfileSet profiles = builtinProfiles();
        Trace t = readMuriTraceCsv(kDir + "/trace3.csv");
        SimOptions clean;
        clean.record_segments = false;
        SimOptions artifact = clean;
        artifact.conventions = Conventions::muriArtifact();
        double a = simulate(cluster, t, profiles, "srtf", clean).summary.avg_jct;
        double b = simulate(cluster, t, profiles, "srtf", artifact).summary.avg_jct;
        QVERIFY(a != b);
    }
};

QTEST_APPLESS_MAIN(TestGoldenMuri)
#include "test_golden_muri.moc"
