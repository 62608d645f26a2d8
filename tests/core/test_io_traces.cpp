// Trace readers and writers (core/io): one small hand-written fixture per format, the real
// samples of the public datasets (docs/architecture.md section 10) where that format exists
// there, broken inputs, round trips.
#include <QtTest>

#include "shared_data.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "core/io/parse_error.h"
#include "core/io/trace_readers.h"
#include "core/io/trace_writers.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;
using cl::test::parseError;

namespace {

std::string fixture(const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/io/" + name;
}
// Inputs the fuzz targets once failed on (tests/fuzz/regressions/<target>/).
std::string fuzzRegression(const std::string& target, const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/../fuzz/regressions/" + target + "/" + name;
}
std::string shared(const std::string& rel) {
    return std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/" + rel;
}

ProfileSet muriModels() {
    ProfileSet ps;
    for (const char* m : {"a2c", "bert", "dqn", "gpt2", "resnet18", "shufflenet_v2_x1_0", "vgg16", "vgg19"}) {
        ModelProfile p;
        p.name = m;
        p.by_gpus.push_back({});
        ps.models[m] = p;
    }
    return ps;
}

// Exact equality, field by field (QCOMPARE on doubles is fuzzy; round trips must be exact).
void expectSameJob(const Job& a, const Job& b, bool csv_subset) {
    const QString where = QString::fromStdString("job " + a.id);
    QVERIFY2(a.id == b.id, qPrintable(where));
    QVERIFY2(a.submit_time == b.submit_time, qPrintable(where + " submit_time"));
    QVERIFY2(a.gpus == b.gpus, qPrintable(where + " gpus"));
    QVERIFY2(a.model == b.model, qPrintable(where + " model"));
    QVERIFY2(a.iterations == b.iterations, qPrintable(where + " iterations"));
    QVERIFY2(a.duration == b.duration, qPrintable(where + " duration"));
    QVERIFY2(a.batch_size == b.batch_size, qPrintable(where + " batch_size"));
    QVERIFY2(a.user == b.user, qPrintable(where + " user"));
    QVERIFY2(a.vc == b.vc, qPrintable(where + " vc"));
    QVERIFY2(a.name == b.name, qPrintable(where + " name"));
    QVERIFY2(a.account == b.account, qPrintable(where + " account"));
    QVERIFY2(a.partition == b.partition, qPrintable(where + " partition"));
    QVERIFY2(a.cpus == b.cpus, qPrintable(where + " cpus"));
    QVERIFY2(a.memory_gb == b.memory_gb, qPrintable(where + " memory_gb"));
    QVERIFY2(a.gpu_type == b.gpu_type, qPrintable(where + " gpu_type"));
    QVERIFY2(a.requested_gpu_type == b.requested_gpu_type, qPrintable(where + " requested_gpu_type"));
    QVERIFY2(a.nodes == b.nodes, qPrintable(where + " nodes"));
    QVERIFY2(a.time_limit == b.time_limit, qPrintable(where + " time_limit"));
    QVERIFY2(a.recorded_start == b.recorded_start, qPrintable(where + " recorded_start"));
    if (csv_subset) return;
    QVERIFY2(a.solo_iteration_time == b.solo_iteration_time, qPrintable(where + " iteration_time"));
    QVERIFY2(a.stage_times == b.stage_times, qPrintable(where + " stage_times"));
    QVERIFY2(a.priority == b.priority, qPrintable(where + " priority"));
}

void expectSameJobs(const Trace& a, const Trace& b, bool csv_subset) {
    QCOMPARE(a.jobs.size(), b.jobs.size());
    for (std::size_t k = 0; k < a.jobs.size(); ++k) {
        expectSameJob(a.jobs[k], b.jobs[k], csv_subset);
        if (QTest::currentTestFailed()) return;
    }
}

// Values that trip naive double formatting.
Trace awkwardTrace() {
    Trace t;
    t.name = "awk \"ward\" ✓";
    t.provenance = {"line one", "line, two \"quoted\""};
    const double values[] = {0.0,  0.1 + 0.2, 1.0 / 3.0, 1e-300, 123456789.123456789, 3.141592653589793,
                             1e17, 2.5e-7};
    int k = 0;
    for (double v : values) {
        Job j;
        j.id = "j" + std::to_string(k);
        j.submit_time = v;
        j.gpus = 1 + k;
        j.model = k % 2 ? "resnet18" : "";
        j.iterations = v * 7;
        j.duration = v / 3;
        j.batch_size = 16 * k;
        j.user = k == 1 ? "bob, jr" : (k == 2 ? " padded " : (k == 3 ? "say \"hi\"" : ""));
        j.vc = k == 4 ? "multi\nline" : "vc" + std::to_string(k % 3);
        j.solo_iteration_time = v / 11;
        if (k % 3 == 0) j.stage_times = {v, v / 2, 0.0};
        j.priority = k % 4;
        if (k % 2) {  // the planning columns, on some jobs only
            j.name = k == 1 ? "train, \"bert\"" : "job" + std::to_string(k);
            j.account = "acct" + std::to_string(k % 3);
            j.partition = k == 3 ? "" : "gpu";
            j.cpus = 4 * k;
            j.memory_gb = v / 5;
            j.gpu_type = k == 5 ? "rtx a6000" : "A100";
        }
        if (k % 3 == 1) {  // the request columns, on other jobs
            j.requested_gpu_type = k == 4 ? "rtx a6000, \"pcie\"" : "";
            j.nodes = k;
            j.time_limit = v * 13;
            j.recorded_start = k == 7 ? -1.0 : v + 0.1;
        }
        t.jobs.push_back(j);
        ++k;
    }
    return t;
}

}  // namespace

class TestIoTraces : public QObject {
    Q_OBJECT

private slots:
    // --- Muri / Tiresias -------------------------------------------------------------
    void muriThirteenColumnsInMilliseconds() {
        Trace t = readMuriTraceCsv(fixture("muri_small.csv"));
        QCOMPARE(t.name, std::string("muri_small"));
        QCOMPARE(t.jobs.size(), std::size_t(3));
        QVERIFY(!t.provenance.empty());
        // File order is kept (the simulator sorts stably by submit time).
        QCOMPARE(t.jobs[0].id, std::string("7"));
        QCOMPARE(t.jobs[1].id, std::string("3"));
        QCOMPARE(t.jobs[2].id, std::string("12"));
        const Job& j = t.jobs[0];
        QCOMPARE(j.gpus, 2);
        QCOMPARE(j.model, std::string("resnet18"));
        QCOMPARE(j.batch_size, 128);
        QCOMPARE(j.iterations, 1200.0);
        QVERIFY(j.duration == 1057200 / 1000.0);
        QVERIFY(j.solo_iteration_time == 881 / 1000.0);
        QCOMPARE(j.stage_times.size(), std::size_t(3));
        QVERIFY(j.stage_times[0] == 687 / 1000.0 && j.stage_times[1] == 110 / 1000.0 &&
                j.stage_times[2] == 95 / 1000.0);
        QCOMPARE(j.priority, 1);
        QVERIFY(t.jobs[1].submit_time == 1.5);
        QVERIFY(t.jobs[1].stage_times[2] == 0.5 / 1000.0);
    }

    void tiresiasSevenColumnsInSeconds() {
        Trace t = readMuriTraceCsv(fixture("tiresias_small.csv"));
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QVERIFY(t.jobs[0].duration == 780.5);
        QVERIFY(t.jobs[1].submit_time == 60.0);
        QCOMPARE(t.jobs[1].gpus, 8);
        QVERIFY(t.jobs[1].stage_times.empty());
        QCOMPARE(t.jobs[1].solo_iteration_time, 0.0);
        QCOMPARE(readTrace(fixture("tiresias_small.csv"), "tiresias").jobs.size(), std::size_t(2));
    }

    void muriRealTraces() {
        const std::string path = shared("muri-traces/trace1.csv");
        REQUIRE_SHARED_DATA(path);
        const ProfileSet models = muriModels();
        TraceReadOptions opts;
        opts.profiles = &models;  // every model of the artifact traces is a built-in one
        Trace t = readMuriTraceCsv(path, opts);
        QCOMPARE(t.jobs.size(), std::size_t(1494));
        const Job& j = t.jobs[0];
        QCOMPARE(j.id, std::string("0"));
        QCOMPARE(j.model, std::string("dqn"));
        QVERIFY(j.duration == 2868294.0);
        QVERIFY(j.solo_iteration_time == 0.49);
        QVERIFY(j.stage_times == std::vector<double>({0.446, 0.008, 0.0}));
        QVERIFY(t.jobs[1].submit_time == 201694.0);
        for (const Job& job : t.jobs) QVERIFY(job.gpus >= 1 && job.gpus <= 32);
        QCOMPARE(readTrace(shared("muri-traces/trace3.csv")).jobs.size(), std::size_t(992));
        QCOMPARE(readTrace(shared("muri-traces/trace1_pr.csv")).lastSubmit(), 0.0);
    }

    void muriBrokenInputs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("missing column")
            << "muri_missing_column.csv"
            << QStringList{"muri_missing_column.csv:1", "'model_name'", "missing column"};
        QTest::newRow("bad number") << "muri_bad_number.csv"
                                    << QStringList{"muri_bad_number.csv:3", "field 'submit_time'", "'12o0'"};
        QTest::newRow("negative gpus")
            << "muri_negative_gpus.csv" << QStringList{"muri_negative_gpus.csv:4", "field 'num_gpu'", "-4"};
        QTest::newRow("wrong width") << "muri_wrong_width.csv"
                                     << QStringList{"muri_wrong_width.csv:3",
                                                    "expected 13 columns, found 12"};
    }
    void muriBrokenInputs() {
        QFETCH(QString, file);
        QFETCH(QStringList, parts);
        expectError(parseError([&] { readMuriTraceCsv(fixture(file.toStdString())); }), parts);
    }

    void unknownModelOnlyWithProfiles() {
        const std::string path = fixture("muri_unknown_model.csv");
        QCOMPARE(readMuriTraceCsv(path).jobs.size(), std::size_t(2));
        const ProfileSet models = muriModels();
        TraceReadOptions opts;
        opts.profiles = &models;
        expectError(
            parseError([&] { readMuriTraceCsv(path, opts); }),
            {"muri_unknown_model.csv:3", "field 'model_name'", "unknown model 'mystery_net'", "resnet18"});
    }

    void skipInvalidRowsWarns() {
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.skip_invalid_rows = true;
        opts.warnings = &warnings;
        Trace t = readMuriTraceCsv(fixture("muri_negative_gpus.csv"), opts);
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(warnings[0]).contains("muri_negative_gpus.csv:4"));
        QVERIFY(QString::fromStdString(t.provenance.back()).contains("1 invalid rows skipped"));
    }

    // --- Synergy ---------------------------------------------------------------------
    void synergyReplayWithoutHeader() {
        Trace t = readSynergyReplayCsv(fixture("synergy_small.csv"));
        QCOMPARE(t.jobs.size(), std::size_t(3));
        QCOMPARE(t.jobs[1].id, std::string("job-b"));
        QCOMPARE(t.jobs[1].model, std::string("lstm"));
        QVERIFY(t.jobs[1].submit_time == 42.5);
        QCOMPARE(t.jobs[1].iterations, 1200.0);
        QCOMPARE(t.jobs[1].gpus, 4);
    }

    // --- Philly cluster_job_log JSON ---------------------------------------------------
    void phillyJobLog() {
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.warnings = &warnings;
        Trace t = readPhillyJobLogJson(fixture("philly_small.json"), opts);
        QCOMPARE(t.jobs.size(), std::size_t(2));
        const Job& a = t.jobs[0];
        QCOMPARE(a.id, std::string("application_1_0001"));
        QCOMPARE(a.gpus, 4);              // last attempt: 2 + 2 GPUs
        QVERIFY(a.duration == 3600.0);    // last attempt 03:00 -> 04:00
        QVERIFY(a.submit_time == 177.0);  // earliest submission (a skipped job) is 02:40:00
        QCOMPARE(a.user, std::string("alice"));
        QCOMPARE(a.vc, std::string("vc-alpha"));
        QVERIFY(t.jobs[1].submit_time == 76800.0);
        QVERIFY(t.jobs[1].duration == 600.0);
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(warnings[0]).contains("skipped 3 jobs"), warnings[0].c_str());
    }

    void phillyTruncatedJson() {
        expectError(parseError([] { readPhillyJobLogJson(fixture("philly_truncated.json")); }),
                    {"philly_truncated.json:11", "invalid JSON"});
    }

    // --- Pollux ----------------------------------------------------------------------
    void polluxPhillyJobs() {
        Trace t = readPolluxPhillyCsv(fixture("pollux_philly_small.csv"));
        QCOMPARE(t.jobs.size(), std::size_t(3));  // the trailing blank line is no job
        QCOMPARE(t.jobs[0].id, std::string("0"));
        QVERIFY(t.jobs[0].submit_time == 2932.0);  // 07:01:55 - 06:13:03
        QVERIFY(t.jobs[1].submit_time == 0.0);
        QVERIFY(t.jobs[2].submit_time == 86400.0);
        QCOMPARE(t.jobs[1].gpus, 4);
        QVERIFY(t.jobs[2].duration == 10.5);
        QCOMPARE(t.jobs[1].vc, std::string("6214e9"));
        QCOMPARE(t.jobs[1].iterations, 0.0);
    }

    void polluxPhillyEmptyGpuCount() {
        const std::string path = fixture("pollux_philly_empty_gpus.csv");
        expectError(parseError([&] { readPolluxPhillyCsv(path); }),
                    {"pollux_philly_empty_gpus.csv:4", "field 'num_gpus'"});
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.skip_invalid_rows = true;
        opts.warnings = &warnings;
        Trace t = readPolluxPhillyCsv(path, opts);
        QCOMPARE(t.jobs.size(), std::size_t(3));
        QCOMPARE(t.jobs[2].id, std::string("3"));  // ids are data-row indexes, stable under skipping
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(warnings[0]).contains("num_gpus"));
    }

    // Reading speed is measured in bench/ (BM_ReadPhillyCsv), not asserted here.
    void polluxPhillyRealFile() {
        const std::string path = shared("philly/philly_jobs.csv");
        REQUIRE_SHARED_DATA(path);
        Trace t = readPolluxPhillyCsv(path);
        QCOMPARE(t.jobs.size(), std::size_t(82247));
        QCOMPARE(t.firstSubmit(), 0.0);
        for (const Job& j : t.jobs) QVERIFY(j.gpus >= 1 && j.duration >= 0);
        QCOMPARE(detectTraceFormat(path), std::string("pollux-philly"));
    }

    void polluxWorkload() {
        Trace t = readPolluxWorkloadCsv(fixture("pollux_workload_small.csv"));
        QCOMPARE(t.jobs.size(), std::size_t(3));
        QCOMPARE(t.jobs[0].id, std::string("cifar10-0"));
        QVERIFY(t.jobs[0].submit_time == 107.0);
        QCOMPARE(t.jobs[0].model, std::string("cifar10"));
        QCOMPARE(t.jobs[0].gpus, 6);
        QCOMPARE(t.jobs[0].batch_size, 2048);
        QCOMPARE(t.jobs[0].duration, 0.0);
        QCOMPARE(t.jobs[0].iterations, 0.0);

        const std::string real = shared("pollux/workloads/workload-1.csv");
        REQUIRE_SHARED_DATA(real);
        Trace w = readTrace(real);
        QCOMPARE(w.jobs.size(), std::size_t(160));
        for (const Job& j : w.jobs) QVERIFY(!j.model.empty() && j.gpus >= 1);
    }

    // --- Helios / Alibaba ---------------------------------------------------------------
    void heliosClusterLog() {
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.warnings = &warnings;
        Trace t = readHeliosCsv(fixture("helios_small.csv"), opts);
        QCOMPARE(t.jobs.size(), std::size_t(3));  // j2 is a CPU job
        QCOMPARE(t.jobs[0].id, std::string("j1"));
        QVERIFY(t.jobs[0].submit_time == 600.0);  // the clock starts at the CPU job's 00:00:00
        QVERIFY(t.jobs[0].duration == 3600.0);
        QCOMPARE(t.jobs[0].gpus, 8);
        QCOMPARE(t.jobs[0].vc, std::string("vcA"));
        QCOMPARE(t.jobs[0].user, std::string("u1"));
        QVERIFY(t.jobs[2].submit_time == 1200.0);  // epoch seconds 1585700400 = 00:20:00
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(warnings[0]).contains("1 CPU-only"));
    }

    void alibabaPai() {
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.warnings = &warnings;
        const std::string jobs = fixture("alibaba/pai_job_table.csv");
        Trace t = readAlibabaPai(jobs, fixture("alibaba/pai_task_table.csv"), opts);
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QCOMPARE(t.jobs[0].id, std::string("pai_job_1"));
        QCOMPARE(t.jobs[0].gpus, 3);  // ceil(2 x 100% + 1 x 50%)
        QVERIFY(t.jobs[0].submit_time == 100.0);
        QVERIFY(t.jobs[0].duration == 600.0);
        QCOMPARE(t.jobs[0].user, std::string("user_x"));
        QCOMPARE(t.jobs[1].gpus, 1);                // 3 x 33.33% is one GPU, not two
        QCOMPARE(warnings.size(), std::size_t(2));  // a CPU-only job, a job still running
        QCOMPARE(detectTraceFormat(jobs), std::string("alibaba"));
        QCOMPARE(readTrace(jobs).jobs.size(), std::size_t(2));
    }

    // --- Our formats -------------------------------------------------------------------
    void traceJson() {
        Trace t = readTraceJson(fixture("trace_small.json"));
        QCOMPARE(t.name, std::string("hand-made"));
        QCOMPARE(t.provenance.size(), std::size_t(1));
        QCOMPARE(t.jobs.size(), std::size_t(3));
        const Job& b = t.jobs[1];
        QVERIFY(b.submit_time == 12.5);
        QCOMPARE(b.gpus, 4);
        QCOMPARE(b.user, std::string("alice"));
        QVERIFY(b.solo_iteration_time == 0.19);
        QVERIFY(b.stage_times == std::vector<double>({0.0005, 0.163, 0.018}));
        QCOMPARE(b.priority, 2);
        QCOMPARE(t.jobs[2].model, std::string());
        QCOMPARE(t.jobs[0].batch_size, 128);
    }

    void traceJsonBrokenInputs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("negative gpus")
            << "trace_bad_gpus.json" << QStringList{"trace_bad_gpus.json:9", "field 'jobs[2].gpus'", "-3"};
        QTest::newRow("future version") << "trace_future_version.json"
                                        << QStringList{"trace_future_version.json:1", "version 2 is newer"};
        QTest::newRow("wrong type") << "trace_wrong_type.json"
                                    << QStringList{"trace_wrong_type.json:5", "field 'jobs[0].submit_time'",
                                                   "expected a number"};
        QTest::newRow("not our format")
            << "philly_small.json" << QStringList{"philly_small.json:1", "expected an object"};
        QTest::newRow("duplicate id")
            << "trace_duplicate_id.json"
            << QStringList{"trace_duplicate_id.json:6", "field 'jobs[1].id'", "duplicate job id 'a'"};
    }
    void traceJsonBrokenInputs() {
        QFETCH(QString, file);
        QFETCH(QStringList, parts);
        expectError(parseError([&] { readTraceJson(fixture(file.toStdString())); }), parts);
    }

    void traceCsv() {
        Trace t = readTraceCsv(fixture("trace_small.csv"));
        QCOMPARE(t.jobs.size(), std::size_t(3));
        QCOMPARE(t.jobs[1].user, std::string("bob, jr"));
        QVERIFY(t.jobs[1].submit_time == 7.25);
        QCOMPARE(t.jobs[1].vc, std::string());
        QCOMPARE(t.jobs[2].model, std::string());
        QCOMPARE(t.jobs[2].gpus, 16);
        QCOMPARE(t.jobs[2].vc, std::string("prod"));
    }

    void absurdGpuCount() {
        expectError(parseError([] { readTraceCsv(fixture("trace_absurd_gpus.csv")); }),
                    {"trace_absurd_gpus.csv:3", "field 'gpus'", "implausible GPU count 250000"});
    }

    void jsonRoundTripIsExact() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("awkward.json").toStdString();
        const Trace original = awkwardTrace();
        writeTraceJson(original, out);
        Trace back = readTraceJson(out);
        QCOMPARE(back.name, original.name);
        QCOMPARE(back.provenance, original.provenance);
        expectSameJobs(original, back, false);
    }

    void csvRoundTripIsExact() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("awkward.csv").toStdString();
        const Trace original = awkwardTrace();
        writeTraceCsv(original, out);
        expectSameJobs(original, readTraceCsv(out), true);
    }

    void csvWithoutPlanningColumnsIsWrittenAsBefore() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("plain.csv").toStdString();
        Trace t;
        Job j;
        j.id = "a";
        j.gpus = 2;
        t.jobs.push_back(j);
        writeTraceCsv(t, out);
        QFile f(QString::fromStdString(out));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(
            QString::fromUtf8(f.readAll()),
            QString(
                "job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc\na,0,2,,0,0,0,,\n"));
    }

    void realTraceRoundTrips() {
        const std::string path = shared("muri-traces/trace1.csv");
        REQUIRE_SHARED_DATA(path);
        const Trace t = readMuriTraceCsv(path);
        QTemporaryDir dir;
        const std::string json = dir.filePath("t.json").toStdString();
        const std::string csv = dir.filePath("t.csv").toStdString();
        writeTrace(t, json);  // by extension
        writeTrace(t, csv);
        expectSameJobs(t, readTrace(json), false);
        expectSameJobs(t, readTrace(csv), true);
        QCOMPARE(readTrace(json).provenance, t.provenance);
    }

    // --- Detection and dispatch -----------------------------------------------------------
    void detectFormat_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::newRow("muri") << "muri_small.csv"
                              << "muri";
        QTest::newRow("tiresias") << "tiresias_small.csv"
                                  << "tiresias";
        QTest::newRow("synergy") << "synergy_small.csv"
                                 << "synergy";
        QTest::newRow("philly-json") << "philly_small.json"
                                     << "philly-json";
        QTest::newRow("pollux-philly") << "pollux_philly_small.csv"
                                       << "pollux-philly";
        QTest::newRow("pollux-workload") << "pollux_workload_small.csv"
                                         << "pollux-workload";
        QTest::newRow("helios") << "helios_small.csv"
                                << "helios";
        QTest::newRow("alibaba") << "alibaba/pai_job_table.csv"
                                 << "alibaba";
        QTest::newRow("sacct") << "sacct_small.txt"
                               << "sacct";
        QTest::newRow("json") << "trace_small.json"
                              << "json";
        QTest::newRow("csv") << "trace_small.csv"
                             << "csv";
    }
    void detectFormat() {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const std::string path = fixture(file.toStdString());
        QCOMPARE(QString::fromStdString(detectTraceFormat(path)), format);
        QVERIFY(!readTrace(path).jobs.empty());
        QVERIFY(!readTrace(path, format.toStdString()).jobs.empty());
    }

    // A Slurm history read as a trace: as measured, with no model (import slurm adds them).
    void sacctAsATrace() {
        const Trace t = readTrace(fixture("sacct_small.txt"));
        QCOMPARE(t.name, std::string("sacct_small"));
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QCOMPARE(t.jobs[0].id, std::string("7"));
        QCOMPARE(t.jobs[0].gpus, 2);
        QCOMPARE(t.jobs[0].duration, 3600.0);
        QCOMPARE(t.jobs[1].submit_time, 1800.0);
        QCOMPARE(t.jobs[1].duration, 600.0);
        QVERIFY(t.jobs[1].gpu_type.empty());
        // Refused rows fail a plain read, naming the first; skipping makes them warnings.
        const std::string bad = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/slurm/sacct_parsable2.txt";
        expectError(
            parseError([&] { readTrace(bad, "sacct"); }),
            {"sacct_parsable2.txt", "5 rows cannot be read, the first: sacct_parsable2.txt:17: Submit"});
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.skip_invalid_rows = true;
        opts.warnings = &warnings;
        QCOMPARE(readTrace(bad, "sacct", opts).jobs.size(), std::size_t(9));
        QCOMPARE(warnings.size(), std::size_t(5));
    }

    void unknownFormats() {
        const auto names = traceFormatNames();
        QCOMPARE(names.front(), std::string("auto"));
        QCOMPARE(names.size(), std::size_t(12));
        // A cluster spec is no trace: the error lists what is supported.
        expectError(parseError([] { detectTraceFormat(fixture("cluster_spec.csv")); }),
                    {"cluster_spec.csv", "muri", "pollux-philly", "alibaba"});
        // A damaged Muri header is still recognised, so that the reader names the missing column.
        QCOMPARE(detectTraceFormat(fixture("muri_missing_column.csv")), std::string("muri"));
        expectError(parseError([] { readTrace(fixture("muri_missing_column.csv")); }), {"'model_name'"});
        expectError(parseError([] { readTrace(fixture("muri_small.csv"), "parquet"); }),
                    {"unknown trace format 'parquet'", "helios"});
        expectError(parseError([] { readTrace(fixture("no_such_file.csv")); }),
                    {"no_such_file.csv", "cannot open"});
    }

    // --- A bad GPU count, in every reader that has a GPU count field ------------------------
    // Each row writes a small file of that format whose data line `line` has `value` as the
    // job's GPU count (the text "{G}" below), reads it with the format's reader and expects a
    // ParseError naming the file, the line, the field and the value found. readTrace with
    // automatic detection says the same.
    void badGpuCountInEveryReader_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("content");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("why");
        const QString csv =
            "job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc\n"
            "a,0,1,resnet18,1000,0,128,alice,vc1\n"
            "b,10,{G},bert,2000,0,4,bob,vc1\n";
        const QString json =
            "{\n"
            "  \"format\": \"clusterloom-trace\",\n"
            "  \"version\": 1,\n"
            "  \"jobs\": [\n"
            "    {\"id\": \"a\", \"submit_time\": 0, \"gpus\": 1},\n"
            "    {\"id\": \"b\", \"submit_time\": 5,\n"
            "     \"gpus\": {G}}\n"
            "  ]\n"
            "}\n";
        const QString muri =
            "job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,iteration_time,"
            "resource_time_0,resource_time_1,resource_time_2,priority\n"
            "7,2,0,1200,resnet18,128,1057200,0,881,687,110,95,1\n"
            "3,{G},1500,400,vgg16,64,42800,1500,107,117,68,0.5,0\n";
        const QString tiresias =
            "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
            "0,1,0,1000,resnet18,780.5,0\n"
            "1,8,60,500,dqn,255,60\n"
            "2,{G},70,500,dqn,255,60\n";
        const QString synergy = "job-a,resnet18,0,3000,1\njob-b,lstm,42.5,1200,{G}\n";
        const QString polluxPhilly =
            "timestamp,duration,num_gpus,gpu_time,cluster\n"
            "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
            "2017-10-09 06:13:03,2951.0,{G},11804.0,6214e9\n";
        const QString polluxWorkload =
            "name,time,application,num_replicas,batch_size\n"
            "cifar10-0,107,cifar10,6,2048\n"
            "ncf-1,110,ncf,{G},256\n";
        const QString helios =
            "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n"
            "j1,u1,vcA,8,48,1,COMPLETED,2020-04-01 00:10:00,2020-04-01 00:10:05,2020-04-01 01:10:05,3600,5\n"
            "j3,u1,vcA,{G},96,2,FAILED,2020-04-01 00:20:00,2020-04-01 00:30:00,2020-04-01 00:31:00,60,600\n";
        struct Format {
            const char* name;
            const char* file;
            QString content;
            int line;
            const char* field;
        };
        const Format formats[] = {
            {"csv", "bad.csv", csv, 3, "gpus"},
            {"json", "bad.json", json, 7, "jobs[1].gpus"},
            {"muri", "bad_muri.csv", muri, 3, "num_gpu"},
            {"tiresias", "bad_tiresias.csv", tiresias, 4, "num_gpu"},
            {"synergy", "bad_synergy.csv", synergy, 2, "gpu_demand"},
            {"pollux-philly", "bad_philly.csv", polluxPhilly, 3, "num_gpus"},
            {"pollux-workload", "bad_workload.csv", polluxWorkload, 3, "num_replicas"},
            {"helios", "bad_helios.csv", helios, 3, "gpu_num"},
        };
        for (const Format& f : formats) {
            const QString field = QString::fromLatin1(f.field);
            const bool is_json = QString(f.name) == "json";
            for (const char* v : {"-2", "0", "abc", "1.5", "250000"}) {
                QString value = v, why;
                if (value == "abc") {
                    if (is_json) value = "\"abc\"";
                    why = "expected a number";
                } else if (value == "1.5") {
                    why = "expected a whole number";
                } else if (value == "250000") {
                    why = is_json ? "must be between 1 and 100000" : "implausible GPU count";
                } else {
                    why = is_json ? "must be between 1 and 100000" : "GPU count must be positive";
                }
                // Helios: 0 GPUs is a CPU job, skipped (gpuCountZeroIsACpuJobInHelios).
                if (QString(f.name) == "helios" && value == "0") continue;
                QTest::addRow("%s %s", f.name, v)
                    << f.name << f.file << f.content << f.line << field << value << why;
            }
        }
    }
    void badGpuCountInEveryReader() {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(QString, content);
        QFETCH(int, line);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, why);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(file);
        {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QString(content).replace("{G}", value).toUtf8());
        }
        const std::string p = path.toStdString();
        const QStringList parts{QStringLiteral("%1:%2: ").arg(file).arg(line), "field '" + field + "'", value,
                                why};
        expectError(parseError([&] { readTrace(p, format.toStdString()); }), parts);
        if (format != "tiresias")  // detected as "muri", the same reader
            QCOMPARE(QString::fromStdString(detectTraceFormat(p)), format);
        expectError(parseError([&] { readTrace(p); }), parts);
        // With skip_invalid_rows the row is dropped with that message as a warning; the rest stays.
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.skip_invalid_rows = true;
        opts.warnings = &warnings;
        const Trace t = readTrace(p, format.toStdString(), opts);
        QCOMPARE(t.jobs.size(), std::size_t(format == "tiresias" ? 2 : 1));
        QVERIFY(!warnings.empty());
        expectError(QString::fromStdString(warnings[0]), parts);
    }

    // Helios: a job of 0 GPUs is a CPU job, skipped with a summary warning (not an error).
    void gpuCountZeroIsACpuJobInHelios() {
        QTemporaryDir dir;
        const QString path = dir.filePath("cpu.csv");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n"
            "j1,u1,vcA,8,48,1,COMPLETED,2020-04-01 00:10:00,2020-04-01 00:10:05,2020-04-01 01:10:05,3600,5\n"
            "j2,u1,vcA,0,96,2,FAILED,2020-04-01 00:20:00,2020-04-01 00:30:00,2020-04-01 00:31:00,60,600\n");
        out.close();
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.warnings = &warnings;
        const Trace t = readHeliosCsv(path.toStdString(), opts);
        QCOMPARE(t.jobs.size(), std::size_t(1));
        QCOMPARE(t.jobs[0].gpus, 8);
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(warnings[0]).contains("1 CPU-only"));
    }

    // Alibaba PAI: GPUs come from the task table's plan_gpu (percent of one GPU): a negative or
    // non-numeric value names the task table, its line and the field; a sum beyond the limit
    // names the job table's line; a job whose tasks ask for no GPU is skipped with a warning.
    void badGpuCountInAlibabaTables_data() {
        QTest::addColumn<QString>("plan_gpu");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("why");
        QTest::newRow("negative") << "-50"
                                  << "pai_task_table.csv" << 3 << "must not be negative, found -50";
        QTest::newRow("not a number") << "lots"
                                      << "pai_task_table.csv" << 3 << "expected a number, found 'lots'";
        QTest::newRow("too many") << "20000000"
                                  << "pai_job_table.csv" << 1 << "implausible GPU count 200001";
    }
    void badGpuCountInAlibabaTables() {
        QFETCH(QString, plan_gpu);
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const QString jobs = dir.filePath("pai_job_table.csv"), tasks = dir.filePath("pai_task_table.csv");
        QFile j(jobs), t(tasks);
        QVERIFY(j.open(QIODevice::WriteOnly) && t.open(QIODevice::WriteOnly));
        j.write(
            "pai_job_1,inst_a,user_x,Terminated,1000,1600\npai_job_2,inst_b,user_y,Terminated,1100,1200\n");
        t.write(QStringLiteral("pai_job_2,worker,1,Terminated,1100,1200,600,10,100,T4\n"
                               "pai_job_1,ps,1,Terminated,1000,1600,800,40,50,V100\n"
                               "pai_job_1,worker,1,Terminated,1000,1600,600,29.3,%1,V100\n")
                    .arg(plan_gpu)
                    .toUtf8());
        j.close();
        t.close();
        expectError(parseError([&] { readAlibabaPai(jobs.toStdString(), tasks.toStdString()); }),
                    {QStringLiteral("%1:%2: ").arg(file).arg(line), "field 'plan_gpu'", why});
    }

    void alibabaJobWithoutGpusIsSkipped() {
        QTemporaryDir dir;
        const QString jobs = dir.filePath("pai_job_table.csv"), tasks = dir.filePath("pai_task_table.csv");
        QFile j(jobs), t(tasks);
        QVERIFY(j.open(QIODevice::WriteOnly) && t.open(QIODevice::WriteOnly));
        j.write(
            "pai_job_1,inst_a,user_x,Terminated,1000,1600\npai_job_2,inst_b,user_y,Terminated,1100,1200\n");
        t.write(
            "pai_job_1,worker,2,Terminated,1000,1600,600,29.3,0,V100\n"
            "pai_job_2,worker,1,Terminated,1100,1200,600,10,100,T4\n");
        j.close();
        t.close();
        std::vector<std::string> warnings;
        TraceReadOptions opts;
        opts.warnings = &warnings;
        const Trace trace = readAlibabaPai(jobs.toStdString(), tasks.toStdString(), opts);
        QCOMPARE(trace.jobs.size(), std::size_t(1));
        QCOMPARE(trace.jobs[0].id, std::string("pai_job_2"));
        QVERIFY(!warnings.empty());
        QVERIFY(QString::fromStdString(warnings[0]).contains("pai_job_1"));
    }

    // Philly job log: GPUs are counted from each attempt's "gpus" lists. A list that is not a
    // list is an error naming the line and the field; an attempt with no GPU at all makes the
    // job one that is skipped, with a warning (it was never a GPU job).
    void badGpuListInPhillyJobLog() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad_philly.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            "[\n"
            "  {\"status\": \"Pass\", \"vc\": \"v\", \"jobid\": \"app_1\", \"submitted_time\": \"2017-10-03 "
            "02:42:57\",\n"
            "   \"user\": \"u\", \"attempts\": [{\"start_time\": \"2017-10-03 02:43:08\",\n"
            "   \"end_time\": \"2017-10-03 02:45:00\",\n"
            "   \"detail\": [{\"ip\": \"m1\", \"gpus\": -2}]}]}\n"
            "]\n");
        out.close();
        expectError(parseError([&] { readPhillyJobLogJson(path.toStdString()); }),
                    {"bad_philly.json:5: ", "gpus", "-2"});
    }

    // --- Found by the fuzz targets (tests/fuzz) ---------------------------------------
    void muriMillisecondsWithExtremeExponent() {
        // "0e-2147483648" is a valid zero; moving its decimal point overflowed the exponent.
        Trace t = readMuriTraceCsv(fuzzRegression("muri_trace", "ms_exponent_int_min.csv"));
        QCOMPARE(t.jobs.size(), std::size_t(1));
        QVERIFY(t.jobs[0].stage_times == std::vector<double>({0.0, 0.110, 0.095}));
    }
};

QTEST_APPLESS_MAIN(TestIoTraces)
#include "test_io_traces.moc"
