// Slurm accounting history in its JSON form (sacct --json) read into the same jobs as
// --parsable2 (core/io/slurm_sacct.h). The fixture follows Slurm's documented dumps: most jobs in
// the form of Slurm 23.11 and later (data_parser v0.0.40: state lists, memory_per_cpu and
// memory_per_node), some in the 23.02 form (v0.0.39: a state string, "memory" with the per-CPU
// bit) and some in the 22.05 form (openapi/dbv0.0.38: plain numbers and nulls), so that every
// version's form is read. Its first jobs describe the same jobs as sacct_parsable2.txt.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "core/io/parse_error.h"
#include "core/io/slurm_sacct.h"
#include "error_capture.h"

using namespace cl;

namespace {

const std::string kFixtures = std::string(CLUSTERLOOM_FIXTURES_DIR);
const std::string kJson = kFixtures + "/slurm/sacct.json";
const std::string kText = kFixtures + "/slurm/sacct_parsable2.txt";

// 2024-03-01T10:00:00 UTC in seconds since 1970.
constexpr double kMarch1At10 = 1709287200.0;

const SlurmJob* find(const SacctImport& imported, const std::string& id) {
    for (const SlurmJob& j : imported.jobs)
        if (j.id == id) return &j;
    return nullptr;
}

std::vector<std::string> ids(const SacctImport& imported) {
    std::vector<std::string> out;
    for (const SlurmJob& j : imported.jobs) out.push_back(j.id);
    return out;
}

bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

// Everything but the line, which differs between the forms.
QString difference(const SlurmJob& a, const SlurmJob& b) {
    QStringList d;
    const auto text = [&](const char* what, const std::string& x, const std::string& y) {
        if (x != y)
            d << QString("%1: '%2' vs '%3'").arg(what, QString::fromStdString(x), QString::fromStdString(y));
    };
    const auto number = [&](const char* what, double x, double y) {
        if (!same(x, y)) d << QString("%1: %2 vs %3").arg(what).arg(x, 0, 'g', 17).arg(y, 0, 'g', 17);
    };
    text("id", a.id, b.id);
    text("name", a.name, b.name);
    text("user", a.user, b.user);
    text("account", a.account, b.account);
    text("partition", a.partition, b.partition);
    text("state", a.state, b.state);
    text("gpu_type", a.gpu_type, b.gpu_type);
    text("requested_gpu_type", a.requested_gpu_type, b.requested_gpu_type);
    number("submit", a.submit, b.submit);
    number("start", a.start, b.start);
    number("end", a.end, b.end);
    number("elapsed", a.elapsed, b.elapsed);
    number("started", a.started, b.started);
    number("gpus", a.gpus, b.gpus);
    number("cpus", a.cpus, b.cpus);
    number("nodes", a.nodes, b.nodes);
    number("memory_gb", a.memory_gb, b.memory_gb);
    number("time_limit", a.time_limit, b.time_limit);
    return d.join("; ");
}

// In a folder removed when the suite ends.
std::string writeTemp(const std::string& name, const std::string& text) {
    static const QTemporaryDir dir;
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace

class TestSlurmSacctJson : public QObject {
    Q_OBJECT

private slots:
    void keepsFinishedWorkAndSaysWhatItDropped() {
        const SacctImport s = readSacct(kJson);
        QCOMPARE(ids(s), (std::vector<std::string>{"100", "101_3", "102+0", "104", "106", "107", "108", "109",
                                                   "115", "116", "120+0", "121_7"}));
        const std::map<std::string, int> dropped = {{"never started", 7},
                                                    {"no GPUs", 1},
                                                    {"still running", 2},
                                                    {"requeued attempt", 1},
                                                    {"refused row", 8}};
        QCOMPARE(s.dropped, dropped);
        QCOMPARE(s.rows, 28 + 24);  // the job records and their nested steps
    }

    void theSameJobsAsTheTextForm() {
        for (const bool keep : {false, true}) {
            SacctOptions options;
            options.keep_unstarted = keep;
            options.keep_running = keep;
            const SacctImport json = readSacct(kJson, options);
            const SacctImport text = readSacct(kText, options);
            int compared = 0;
            for (const SlurmJob& t : text.jobs) {
                const SlurmJob* j = find(json, t.id);
                QVERIFY2(j, t.id.c_str());
                QVERIFY2(difference(*j, t).isEmpty(),
                         qPrintable(QString::fromStdString(t.id) + ": " + difference(*j, t)));
                ++compared;
            }
            QCOMPARE(compared, keep ? 14 : 9);
        }
    }

    void everyVersionsForms() {
        SacctOptions keep;
        keep.keep_unstarted = true;
        keep.keep_running = true;
        const SacctImport s = readSacct(kJson, keep);
        const SlurmJob* first = find(s, "100");
        QVERIFY(first);
        QCOMPARE(first->line, 29);  // the line of its job object
        QCOMPARE(first->submit, kMarch1At10);
        // 23.02: bit 63 of "memory" marks a per-CPU request (4000 MB on each of 4 CPUs).
        QCOMPARE(find(s, "101_3")->memory_gb, 4000.0 * 4 / 1024);
        // A pending range as the accounting database stores it (0x70: tasks 4, 5, 6) and as sacct
        // prints it ("1-2", 22.05).
        for (const char* id : {"101_4", "101_5", "101_6", "119_1", "119_2"}) {
            QVERIFY2(find(s, id), id);
            QVERIFY(!find(s, id)->started);
        }
        QCOMPARE(find(s, "119_1")->gpu_type, std::string("l40s"));
        QCOMPARE(find(s, "119_1")->memory_gb, 4.0);  // 22.05: "memory" in MB, the job's
        // 22.05: het offset and array task as plain numbers.
        QCOMPARE(find(s, "120+0")->elapsed, 600.0);
        QCOMPARE(find(s, "120+0")->gpu_type, std::string("t4"));  // allocated, not requested
        QVERIFY(find(s, "120+0")->requested_gpu_type.empty());    // it asked for any type
        QCOMPARE(find(s, "121_7")->line, 3815);
        // State lists (23.11 on): SUSPENDED runs on, DEADLINE never started, BOOT_FAIL finished.
        QCOMPARE(find(s, "118")->state, std::string("SUSPENDED"));
        QVERIFY(find(s, "118")->started);
        QVERIFY(!find(s, "117")->started);
        QCOMPARE(find(s, "116")->state, std::string("BOOT_FAIL"));
        QVERIFY(!find(s, "102+1"));  // no GPUs, even when kept unstarted and running
    }

    void refusedJobsNameFileLineAndField() {
        const SacctImport s = readSacct(kJson);
        const std::vector<std::string> refused = {
            "sacct.json:3952: time.submission: expected a number or {\"set\", \"infinite\", \"number\"}, "
            "found "
            "\"2024-13-45T99:00:00\"",
            "sacct.json:4165: state.current: unknown state 'WEIRD'",
            "sacct.json:4378: required.memory_per_node.number: expected a number, found \"lots\"",
            "sacct.json:4591: tres.allocated[1].count: expected a whole number from 0 to 100000, found -3",
            "sacct.json:4804: job_id: missing",
            "sacct.json:5016: array.task: expected an array range like 3-5,7, got '7-3'",
            "sacct.json:5167: time.submission: no submit time",
            "sacct.json:5380: : expected a job object, found \"not a job\""};
        QCOMPARE(s.refused, refused);
    }

    void fromMemoryAsFromTheFile() {
        std::ifstream in(kJson, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const SacctImport memory = parseSacctJson(text, "sacct.json");
        const SacctImport file = readSacctJson(kJson);
        QCOMPARE(memory.refused, file.refused);
        QCOMPARE(memory.dropped, file.dropped);
        QCOMPARE(memory.rows, file.rows);
        QCOMPARE(ids(memory), ids(file));
        for (std::size_t k = 0; k < file.jobs.size(); ++k) QCOMPARE(memory.jobs[k].line, file.jobs[k].line);
    }

    // A well-formed export is walked by the scanner; the SAX reader, which reads anything the
    // scanner does not expect (here a second, empty "jobs" list), reads the same jobs the same way.
    void theScannerAndTheSaxReaderAgree() {
        std::ifstream in(kJson, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const SacctImport scanned = parseSacctJson(text, "sacct.json");
        text.insert(text.find_last_of('}'), ", \"jobs\": []");
        const SacctImport sax = parseSacctJson(text, "sacct.json");
        QCOMPARE(sax.refused, scanned.refused);
        QCOMPARE(sax.dropped, scanned.dropped);
        QCOMPARE(sax.rows, scanned.rows);
        QCOMPARE(ids(sax), ids(scanned));
        for (std::size_t k = 0; k < scanned.jobs.size(); ++k) {
            const SlurmJob &a = sax.jobs[k], &b = scanned.jobs[k];
            QCOMPARE(a.line, b.line);
            QCOMPARE(a.gpus, b.gpus);
            QCOMPARE(a.gpu_type, b.gpu_type);
            QCOMPARE(a.requested_gpu_type, b.requested_gpu_type);
            QCOMPARE(a.elapsed, b.elapsed);
            QVERIFY(a.time_limit == b.time_limit || (std::isnan(a.time_limit) && std::isnan(b.time_limit)));
            QVERIFY(a.memory_gb == b.memory_gb || (std::isnan(a.memory_gb) && std::isnan(b.memory_gb)));
            QCOMPARE(a.cpus, b.cpus);
            QCOMPARE(a.state, b.state);
        }
    }

    void timesAreUtcAlready() {
        SacctOptions cet;
        cet.utc_offset_s = parseUtcOffset("+01:00");
        QCOMPARE(find(readSacct(kJson, cet), "100")->submit, kMarch1At10);         // epoch seconds: no offset
        QCOMPARE(find(readSacct(kText, cet), "100")->submit, kMarch1At10 - 3600);  // local time
    }

    void formsAreToldApartByContent() {
        QVERIFY(looksLikeSacct(kJson));
        QVERIFY(looksLikeSacct(kText));
        for (const char* other : {"/io/trace_small.json", "/io/trace_small.csv", "/io/philly_small.json",
                                  "/io/layout_small.json", "/io/helios_small.csv"})
            QVERIFY2(!looksLikeSacct(kFixtures + other), other);
        QVERIFY(!looksLikeSacct(kFixtures + "/no-such-file"));
        // The start of a long file is enough; the header may name JobIDRaw instead of JobID.
        std::ifstream in(kJson);
        std::string head(3200, '\0');  // the first job up to its "steps"
        in.read(head.data(), 3200);
        QVERIFY(looksLikeSacct(writeTemp("clusterloom-sacct-head.json", head)));
        QVERIFY(!looksLikeSacct(writeTemp("clusterloom-sacct-head.json", head.substr(0, 3000))));
        QVERIFY(
            looksLikeSacct(writeTemp("clusterloom-sacct-raw.txt", "JobIDRaw|State|Submit\n1|PENDING|x\n")));
        QVERIFY(!looksLikeSacct(writeTemp("clusterloom-sacct-other.txt", "job_id|state\n")));
        QVERIFY(!looksLikeSacct(writeTemp("clusterloom-sacct-empty.json", "{\"jobs\": []}")));
        // readSacct reads either; leading blank lines keep their line numbers.
        const SacctImport padded =
            readSacct(writeTemp("clusterloom-sacct-padded.json",
                                "\n\n{\"jobs\": [\n{\"job_id\": 5, \"state\": {\"current\": "
                                "\"COMPLETED\"}, \"time\": {\"submission\": 10, \"start\": 20, "
                                "\"end\": 50, \"elapsed\": 30}, \"tres\": {\"allocated\": "
                                "\"cpu=2,gres/gpu:a10=1\"}}]}"));
        QCOMPARE(padded.jobs.size(), std::size_t{1});
        QCOMPARE(padded.jobs[0].line, 4);
        QCOMPARE(padded.jobs[0].gpu_type, std::string("a10"));  // a TRES string is read too
        QCOMPARE(padded.jobs[0].elapsed, 30.0);
    }

    void aDocumentThatIsNotSacctJsonIsRefused() {
        cl::test::expectError(
            cl::test::parseError([] { parseSacctJson("{\"jobs\": [\n{\"job_id\": 1,,}]}", "t.json"); }),
            {"t.json:2", "invalid JSON"});
        cl::test::expectError(cl::test::parseError([] { parseSacctJson("{\"meta\": {}}", "m.json"); }),
                              {"m.json", "jobs", "sacct --json"});
        cl::test::expectError(cl::test::parseError([] { parseSacctJson("[1, 2]", "a.json"); }),
                              {"a.json", "jobs"});
        QCOMPARE(parseSacctJson("{\"jobs\": []}", "e.json").jobs.size(), std::size_t{0});
    }
};

QTEST_GUILESS_MAIN(TestSlurmSacctJson)
#include "test_slurm_sacct_json.moc"
