// What a job asked the scheduler for (requested GPU type, nodes, time limit) and when the recorded
// run started it, carried through our CSV and JSON traces, the workspace and its content hash, and
// imported from Slurm's accounting in both machine forms (core/model/job.h, core/io/README.md,
// docs/architecture.md 8.1, 8.5, 8.8, 9.2, 9.3). A trace without them reads, writes and hashes as
// before they existed.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include "core/io/parse_error.h"
#include "core/io/sacct_trace.h"
#include "core/io/slurm_sacct.h"
#include "core/io/trace_readers.h"
#include "core/io/trace_writers.h"
#include "core/store/content_hash.h"
#include "core/store/scenario_store.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::parseError;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

Job plainJob(const std::string& id, double submit) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = 2;
    j.duration = 3600;
    return j;
}

// Two jobs: one asking for everything, one for nothing (every field at its default).
Trace requestingTrace() {
    Trace t;
    t.name = "requests";
    Job a = plainJob("a", 0);
    a.partition = "gpu,debug";
    a.requested_gpu_type = "A100";
    a.nodes = 2;
    a.time_limit = 5400;
    a.recorded_start = 0.1 + 0.2;  // not a short decimal
    t.jobs = {a, plainJob("b", 60)};
    return t;
}

void expectSameRequests(const Trace& a, const Trace& b) {
    QCOMPARE(a.jobs.size(), b.jobs.size());
    for (std::size_t k = 0; k < a.jobs.size(); ++k) {
        const Job &x = a.jobs[k], &y = b.jobs[k];
        QCOMPARE(x.id, y.id);
        QCOMPARE(x.partition, y.partition);
        QCOMPARE(x.requested_gpu_type, y.requested_gpu_type);
        QCOMPARE(x.nodes, y.nodes);
        QVERIFY(x.time_limit == y.time_limit);  // exact, not QCOMPARE's fuzzy doubles
        QVERIFY(x.recorded_start == y.recorded_start);
        QVERIFY(x.duration == y.duration);
    }
}

// The hash of a job without planning or request fields as it was computed before either existed
// (schema 6): a trace of such jobs keeps the hash, so its stored runs stay reusable.
std::string hashBeforeRequests(const Trace& t) {
    ContentHasher h;
    h.add(t.name);
    for (const auto& line : t.provenance) h.add(line);
    for (const Job& j : t.jobs) {
        h.add(j.id).add(j.submit_time).add(static_cast<long long>(j.gpus)).add(j.model).add(j.iterations);
        h.add(j.duration).add(static_cast<long long>(j.batch_size)).add(j.user).add(j.vc);
        h.add(j.solo_iteration_time).add(static_cast<long long>(j.stage_times.size()));
        for (double s : j.stage_times) h.add(s);
        h.add(static_cast<long long>(j.priority));
    }
    return h.hex();
}

// 2024-03-01T10:00:00 UTC in seconds since 1970.
constexpr double kMarch1At10 = 1709287200.0;

// A Slurm history with every Timelimit form sacct prints, a job submitted to two partitions, one
// that asked for an A100 and ran on an H100, one on two nodes, and one that never started.
const char* kSacctText =
    "JobID|State|Submit|Start|End|Elapsed|Partition|NNodes|ReqTRES|AllocTRES|Timelimit\n"
    "1|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|gpu,debug|2|"
    "cpu=16,gres/gpu:a100=8,gres/gpu=8|cpu=16,gres/gpu:h100=8,gres/gpu=8|UNLIMITED\n"
    "1.batch|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|gpu|1||"
    "cpu=8|\n"
    "2|COMPLETED|2024-03-01T10:10:00|2024-03-01T10:10:00|2024-03-01T10:40:00|00:30:00|gpu|1|gres/gpu=2|"
    "gres/gpu:v100=2|Partition_Limit\n"
    "3|TIMEOUT|2024-03-01T10:20:00|2024-03-01T10:30:00|2024-03-01T12:00:00|01:30:00|gpu|1|gres/gpu:A100=1|"
    "gres/gpu:a100=1|01:30:00\n"
    "4|PENDING|2024-03-01T10:30:00|Unknown|Unknown|00:00:00|debug|1|gres/gpu:v100=1||2-00:00:00\n"
    "5|COMPLETED|2024-03-01T10:40:00|2024-03-01T10:40:00|2024-03-01T10:50:00|00:10:00|gpu|1|gres/gpu=1|"
    "gres/gpu=1|INVALID\n"
    "6|COMPLETED|2024-03-01T10:40:00|2024-03-01T10:40:00|2024-03-01T10:50:00|10:00|gpu|1|gres/gpu=1|"
    "gres/gpu=1|\n";

// The same jobs as sacct --json prints them (the limit in minutes, three versions' forms).
std::string sacctJson() {
    const auto t = [](double seconds) {
        return std::to_string(static_cast<long long>(kMarch1At10 + seconds));
    };
    const auto job = [&](int id, const std::string& state, double submit, double start, double end,
                         double elapsed, const std::string& partition, int nodes,
                         const std::string& requested, const std::string& allocated,
                         const std::string& limit) {
        return "{\"job_id\": " + std::to_string(id) + ", \"state\": {\"current\": [\"" + state +
               "\"]}, \"partition\": \"" + partition + "\", \"allocation_nodes\": " + std::to_string(nodes) +
               ", \"time\": {\"submission\": " + t(submit) + ", \"start\": " + (start < 0 ? "0" : t(start)) +
               ", \"end\": " + (end < 0 ? "0" : t(end)) +
               ", \"elapsed\": " + std::to_string(static_cast<long long>(elapsed)) + ", \"limit\": " + limit +
               "}, \"tres\": {\"requested\": [" + requested + "], \"allocated\": [" + allocated +
               "]}, \"steps\": []}";
    };
    const auto gpus = [](const std::string& name, int n) {
        return "{\"type\": \"gres\", \"name\": \"" + name + "\", \"count\": " + std::to_string(n) + "}";
    };
    return "{\"jobs\": [\n" +
           job(1, "COMPLETED", 0, 300, 3900, 3600, "gpu,debug", 2,
               gpus("gpu:a100", 8) + ", " + gpus("gpu", 8), gpus("gpu:h100", 8) + ", " + gpus("gpu", 8),
               "{\"set\": true, \"infinite\": true, \"number\": 0}") +
           ",\n" +
           job(2, "COMPLETED", 600, 600, 2400, 1800, "gpu", 1, gpus("gpu", 2), gpus("gpu:v100", 2),
               "{\"set\": false, \"infinite\": false, \"number\": 0}") +
           ",\n" +
           job(3, "TIMEOUT", 1200, 1800, 7200, 5400, "gpu", 1, gpus("gpu:A100", 1), gpus("gpu:a100", 1),
               "{\"set\": true, \"infinite\": false, \"number\": 90}") +
           ",\n" + job(4, "PENDING", 1800, -1, -1, 0, "debug", 1, gpus("gpu:v100", 1), "", "2880") + ",\n" +
           job(5, "COMPLETED", 2400, 2400, 3000, 600, "gpu", 1, gpus("gpu", 1), gpus("gpu", 1),
               "4294967294") +
           ",\n" +
           job(6, "COMPLETED", 2400, 2400, 3000, 600, "gpu", 1, gpus("gpu", 1), gpus("gpu", 1),
               "4294967295") +
           "\n]}\n";
}

// What both forms give, as a trace (job 6: empty Timelimit in the text, 22.05's INFINITE in JSON).
void expectImportedRequests(const SacctImport& history, const std::string& file) {
    QVERIFY2(history.refused.empty(), history.refused.empty() ? "" : history.refused.front().c_str());
    QCOMPARE(history.jobs.size(), std::size_t(6));
    QVERIFY(std::isinf(history.jobs[0].time_limit));  // UNLIMITED
    QVERIFY(std::isnan(history.jobs[1].time_limit));  // Partition_Limit
    QCOMPARE(history.jobs[0].requested_gpu_type, std::string("a100"));
    QCOMPARE(history.jobs[0].gpu_type, std::string("h100"));
    const Trace t = traceFromSacct(history, "q", file);
    QCOMPARE(t.jobs.size(), std::size_t(6));
    const Job &a = t.jobs[0], &b = t.jobs[1], &c = t.jobs[2], &pending = t.jobs[3];
    QCOMPARE(a.partition, std::string("gpu,debug"));  // the list as sacct gives it
    QCOMPARE(a.requested_gpu_type, std::string("A100"));
    QCOMPARE(a.gpu_type, std::string("H100"));
    QCOMPARE(a.nodes, 2);
    QCOMPARE(a.time_limit, 0.0);  // UNLIMITED: the partition's MaxTime or none
    QCOMPARE(a.recorded_start, 300.0);
    QVERIFY(b.requested_gpu_type.empty());  // gres/gpu=2: any type
    QCOMPARE(b.gpu_type, std::string("V100"));
    QCOMPARE(b.nodes, 1);
    QCOMPARE(b.time_limit, 0.0);  // Partition_Limit
    QCOMPARE(b.recorded_start, 600.0);
    QCOMPARE(c.requested_gpu_type, std::string("A100"));  // Slurm's type names in any case
    QCOMPARE(c.time_limit, 5400.0);                       // 01:30:00
    QCOMPARE(c.recorded_start, 1800.0);
    QCOMPARE(pending.time_limit, 172800.0);  // 2-00:00:00
    QCOMPARE(pending.duration, 172800.0);    // a never-started job replays its limit
    QCOMPARE(pending.recorded_start, -1.0);  // never started
    QCOMPARE(pending.requested_gpu_type, std::string("V100"));
    QCOMPARE(pending.partition, std::string("debug"));
    QCOMPARE(t.jobs[4].time_limit, 0.0);  // INVALID / NO_VAL: no limit of its own
}

}  // namespace

class TestTraceRequests : public QObject {
    Q_OBJECT

private slots:
    // --- Our CSV and JSON -------------------------------------------------------------------
    void csvCarriesTheRequestColumnsOnlyWhenSet() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("r.csv").toStdString();
        const Trace t = requestingTrace();
        writeTraceCsv(t, out);
        QCOMPARE(
            QString::fromStdString(slurp(out)),
            QString("job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc,name,account,"
                    "partition,cpus,memory_gb,gpu_type,requested_gpu_type,nodes,time_limit,recorded_start\n"
                    "a,0,2,,0,3600,0,,,,,\"gpu,debug\",0,0,,A100,2,5400,0.30000000000000004\n"
                    "b,60,2,,0,3600,0,,,,,,0,0,,,0,0,-1\n"));
        expectSameRequests(t, readTraceCsv(out));
        // Request columns without planning columns: only the request columns are added.
        Trace only = t;
        only.jobs[0].partition.clear();
        writeTraceCsv(only, out);
        QCOMPARE(QString::fromStdString(slurp(out)).section('\n', 0, 0),
                 QString("job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc,"
                         "requested_gpu_type,nodes,time_limit,recorded_start"));
        expectSameRequests(only, readTraceCsv(out));
        // Without them, as before: byte for byte, and read back with the defaults.
        Trace plain = t;
        plain.jobs[0] = plainJob("a", 0);
        writeTraceCsv(plain, out);
        QCOMPARE(QString::fromStdString(slurp(out)),
                 QString("job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc\n"
                         "a,0,2,,0,3600,0,,\nb,60,2,,0,3600,0,,\n"));
        const Trace back = readTraceCsv(out);
        QCOMPARE(back.jobs[0].recorded_start, -1.0);
        QCOMPARE(back.jobs[0].nodes, 0);
    }

    void jsonCarriesTheRequestKeysOnlyWhenSet() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("r.json").toStdString();
        const Trace t = requestingTrace();
        writeTraceJson(t, out);
        const std::string text = slurp(out);
        QVERIFY(
            text.find(
                "{\"id\":\"a\",\"submit_time\":0,\"gpus\":2,\"duration\":3600,\"partition\":\"gpu,debug\","
                "\"requested_gpu_type\":\"A100\",\"nodes\":2,\"time_limit\":5400,"
                "\"recorded_start\":0.30000000000000004}") != std::string::npos);
        QVERIFY(text.find("{\"id\":\"b\",\"submit_time\":60,\"gpus\":2,\"duration\":3600}") !=
                std::string::npos);
        expectSameRequests(t, readTraceJson(out));
    }

    void badRequestValuesAreRefused_data() {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("what");
        QTest::newRow("negative time limit") << "time_limit"
                                             << "-60"
                                             << "time_limit"
                                             << "negative";
        QTest::newRow("time limit not a number") << "time_limit"
                                                 << "1:30:00"
                                                 << "time_limit"
                                                 << "1:30:00";
        QTest::newRow("fractional nodes") << "nodes"
                                          << "1.5"
                                          << "nodes"
                                          << "whole number";
        QTest::newRow("negative nodes") << "nodes"
                                        << "-2"
                                        << "nodes"
                                        << "negative";
        QTest::newRow("empty nodes") << "nodes"
                                     << ""
                                     << "nodes"
                                     << "empty";
        QTest::newRow("start not a number") << "recorded_start"
                                            << "soon"
                                            << "recorded_start"
                                            << "soon";
    }
    void badRequestValuesAreRefused() {
        QFETCH(QString, header);
        QFETCH(QString, row);
        QFETCH(QString, field);
        QFETCH(QString, what);
        QTemporaryDir dir;
        const std::string csv = dir.filePath("bad.csv").toStdString();
        spit(csv, "job_id,submit_time,gpus," + header.toStdString() + "\na,0,1,0\nb,5,1," +
                      row.toStdString() + "\n");
        expectError(parseError([&] { readTraceCsv(csv); }), {"bad.csv:3", "field '" + field + "'", what});
        if (row.isEmpty() || field == "recorded_start" || row == "1:30:00") return;
        const std::string json = dir.filePath("bad.json").toStdString();
        spit(json,
             "{\"format\": \"clusterloom-trace\", \"version\": 1, \"jobs\": [\n"
             "  {\"id\": \"a\", \"submit_time\": 0, \"gpus\": 1},\n"
             "  {\"id\": \"b\", \"submit_time\": 5, \"gpus\": 1, \"" +
                 header.toStdString() + "\": " + row.toStdString() + "}\n]}\n");
        expectError(parseError([&] { readTraceJson(json); }),
                    {"bad.json:3", "field 'jobs[1]." + field + "'"});
    }

    void jsonRequestKeysHaveTheirTypes() {
        QTemporaryDir dir;
        const std::string json = dir.filePath("typed.json").toStdString();
        spit(json,
             "{\"format\": \"clusterloom-trace\", \"version\": 1, \"jobs\": [\n"
             "  {\"id\": \"a\", \"submit_time\": 0, \"gpus\": 1, \"requested_gpu_type\": 7}\n]}\n");
        expectError(parseError([&] { readTraceJson(json); }),
                    {"typed.json:2", "field 'jobs[0].requested_gpu_type'"});
    }

    // --- The workspace ----------------------------------------------------------------------
    void theWorkspaceKeepsAndHashesThem() {
        QTemporaryDir dir;
        ScenarioStore store(dir.filePath("ws.clusterloom").toStdString());
        const Trace t = requestingTrace();
        const auto id = store.putTrace(t);
        expectSameRequests(t, store.trace(id));
        QCOMPARE(store.putTrace(t), id);  // the same content: the same id
        // A trace without them hashes as before they existed.
        Trace plain = t;
        plain.jobs[0] = plainJob("a", 0);
        QCOMPARE(traceContentHash(plain), hashBeforeRequests(plain));
        // Each one set is other content.
        std::set<std::string> hashes{traceContentHash(plain)};
        for (int field = 0; field < 4; ++field) {
            Trace one = plain;
            Job& j = one.jobs[1];
            if (field == 0) j.requested_gpu_type = "A100";
            if (field == 1) j.nodes = 2;
            if (field == 2) j.time_limit = 60;
            if (field == 3) j.recorded_start = 0;
            hashes.insert(traceContentHash(one));
            const auto stored = store.putTrace(one);
            QVERIFY(stored != id);
            expectSameRequests(one, store.trace(stored));
        }
        QCOMPARE(hashes.size(), std::size_t(5));
    }

    // Schema 9 added the columns: a trace stored before reads back with the defaults (nothing
    // asked for, start not recorded), and new traces keep theirs.
    void olderWorkspacesMigrate() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("old.clusterloom").toStdString();
        std::int64_t old_id = 0;
        {
            ScenarioStore old(path, 8);
            Trace t = requestingTrace();
            t.jobs[0].requested_gpu_type.clear();
            t.jobs[0].nodes = 0;
            t.jobs[0].time_limit = 0;
            t.jobs[0].recorded_start = -1;
            old_id = old.putTrace(t);
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), 11);
        const Trace back = store.trace(old_id);
        QCOMPARE(back.jobs[0].partition, std::string("gpu,debug"));
        QCOMPARE(back.jobs[0].recorded_start, -1.0);
        QCOMPARE(back.jobs[0].nodes, 0);
        QCOMPARE(back.jobs[1].time_limit, 0.0);
        const auto fresh = store.putTrace(requestingTrace());
        expectSameRequests(requestingTrace(), store.trace(fresh));
    }

    // --- Slurm --------------------------------------------------------------------------------
    void slurmTextFormCarriesTheRequests() {
        SacctOptions keep;
        keep.keep_unstarted = true;
        expectImportedRequests(parseSacctParsable(kSacctText, "req.txt", keep), "req.txt");
    }

    void slurmJsonFormCarriesTheRequests() {
        SacctOptions keep;
        keep.keep_unstarted = true;
        const SacctImport history = parseSacctJson(sacctJson(), "req.json", keep);
        expectImportedRequests(history, "req.json");
        QVERIFY(std::isinf(history.jobs[5].time_limit));  // 22.05's plain INFINITE
        QVERIFY(std::isnan(history.jobs[4].time_limit));  // 22.05's plain NO_VAL
        QCOMPARE(history.jobs[3].time_limit, 172800.0);   // 22.05's plain minutes
    }

    void aTimelimitSacctDoesNotWriteIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("limits.txt").toStdString();
        spit(path,
             "JobID|State|Submit|Start|End|Elapsed|ReqTRES|AllocTRES|Timelimit\n"
             "1|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|01:00:00|gres/gpu=1|"
             "gres/gpu=1|01:00:00\n"
             "2|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|01:00:00|gres/gpu=1|"
             "gres/gpu=1|90\n"
             "3|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|01:00:00|gres/gpu=1|"
             "gres/gpu=1|forever\n");
        const SacctImport s = readSacctParsable(path);
        QCOMPARE(s.jobs.size(), std::size_t(1));
        QCOMPARE(s.refused.size(), std::size_t(2));
        QVERIFY2(QString::fromStdString(s.refused[0]).startsWith("limits.txt:3: Timelimit: cannot read '90'"),
                 s.refused[0].c_str());
        QVERIFY2(
            QString::fromStdString(s.refused[1]).startsWith("limits.txt:4: Timelimit: cannot read 'forever'"),
            s.refused[1].c_str());
        // As a trace: refused with the file, the line and the field.
        expectError(parseError([&] { readSacctTrace(path); }), {"limits.txt:3: Timelimit", "'90'"});
    }
};

QTEST_GUILESS_MAIN(TestTraceRequests)
#include "test_trace_requests.moc"
