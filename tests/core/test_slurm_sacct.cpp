// Slurm accounting history (sacct --parsable2) read into jobs: steps folded, arrays and
// heterogeneous components, every state, every memory form, times, bad rows refused with file,
// line and field (core/io/slurm_sacct.h; the fixture follows sacct(1)'s documented output).
#include <QtTest>

#include <cmath>
#include <map>
#include <string>

#include "core/io/parse_error.h"
#include "core/io/slurm_sacct.h"
#include "error_capture.h"

using namespace cl;

namespace {

const std::string kFixture = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/slurm/sacct_parsable2.txt";

const SlurmJob* find(const SacctImport& imported, const std::string& id) {
    for (const SlurmJob& j : imported.jobs)
        if (j.id == id) return &j;
    return nullptr;
}

// 2024-03-01T10:00:00 UTC in seconds since 1970.
constexpr double kMarch1At10 = 1709287200.0;

}  // namespace

class TestSlurmSacct : public QObject {
    Q_OBJECT

private slots:
    void keepsFinishedWorkAndSaysWhatItDropped() {
        const SacctImport s = readSacctParsable(kFixture);
        QCOMPARE(s.rows, 21);
        std::vector<std::string> kept;
        for (const SlurmJob& j : s.jobs) kept.push_back(j.id);
        QCOMPARE(kept, (std::vector<std::string>{"100", "101_3", "102+0", "104", "106", "107", "108", "109",
                                                 "115"}));
        const std::map<std::string, int> dropped = {{"never started", 4}, {"no GPUs", 1},
                                                    {"still running", 1}, {"requeued attempt", 1},
                                                    {"refused row", 4},   {"step without its job", 1}};
        QCOMPARE(s.dropped, dropped);
    }

    void foldsStepsAndReadsTheJobRow() {
        const SacctImport s = readSacctParsable(kFixture);
        const SlurmJob* j = find(s, "100");
        QVERIFY(j);
        QCOMPARE(j->line, 2);
        QCOMPARE(j->name, std::string("train-bert"));
        QCOMPARE(j->user, std::string("alice"));
        QCOMPARE(j->account, std::string("nlp"));
        QCOMPARE(j->partition, std::string("gpu"));
        QCOMPARE(j->state, std::string("COMPLETED"));
        QCOMPARE(j->gpus, 4);
        QCOMPARE(j->gpu_type, std::string("a100"));  // AllocTRES of a job that ran
        QVERIFY(j->requested_gpu_type.empty());      // ReqTRES gres/gpu=4: any type
        QCOMPARE(j->cpus, 8);
        QCOMPARE(j->memory_gb, 64.0);
        QCOMPARE(j->submit, kMarch1At10);
        QCOMPARE(j->start, kMarch1At10 + 300);
        QCOMPARE(j->elapsed, 7200.0);
        QCOMPARE(j->time_limit, 86400.0);  // Timelimit 1-00:00:00
        QVERIFY(j->started);
    }

    void arraysHetJobsAndMemoryForms() {
        const SacctImport s = readSacctParsable(kFixture);
        const SlurmJob* task = find(s, "101_3");
        QVERIFY(task);
        QCOMPARE(task->gpus, 2);
        QCOMPARE(task->gpu_type, std::string("v100"));
        QCOMPARE(task->requested_gpu_type, std::string("v100"));
        QCOMPARE(task->memory_gb, 4000.0 * 4 / 1024);  // 4000Mc: per CPU, 4 CPUs
        QCOMPARE(task->elapsed, 600.0);
        QVERIFY(std::isinf(task->time_limit));  // UNLIMITED
        const SlurmJob* het = find(s, "102+0");
        QVERIFY(het);
        QCOMPARE(het->memory_gb, 64.0);            // 32Gn: per node, 2 nodes
        QCOMPARE(het->elapsed, 90000.0);           // 1-01:00:00
        QCOMPARE(find(s, "107")->elapsed, 300.0);  // MM:SS
        QCOMPARE(find(s, "115")->memory_gb, 1024.0);
        QCOMPARE(find(s, "115")->gpu_type, std::string("h100"));
        QCOMPARE(find(s, "115")->requested_gpu_type, std::string("h100"));
        QCOMPARE(find(s, "104")->elapsed, 1800.0);  // cancelled after start: its run time kept
        // Kept on request: the pending range is one job per task, the running one so far.
        SacctOptions keep;
        keep.keep_unstarted = true;
        keep.keep_running = true;
        const SacctImport all = readSacctParsable(kFixture, keep);
        for (const char* id : {"101_4", "101_5", "101_6", "103"}) {
            QVERIFY2(find(all, id), id);
            QVERIFY(!find(all, id)->started);
            QCOMPARE(find(all, id)->elapsed, 0.0);
        }
        QCOMPARE(find(all, "105")->elapsed, 10800.0);
        QCOMPARE(all.jobs.size(), s.jobs.size() + 5);
    }

    void refusedRowsNameFileLineAndField() {
        const SacctImport s = readSacctParsable(kFixture);
        const auto has = [&](const std::string& text) {
            for (const std::string& r : s.refused)
                if (r.find(text) != std::string::npos) return true;
            return false;
        };
        QVERIFY2(has("sacct_parsable2.txt:17: Submit: cannot read '2024-13-45T99:00:00' as a time"),
                 qPrintable(QString::fromStdString(s.refused.front())));
        QVERIFY(has("sacct_parsable2.txt:18: State: unknown state 'WEIRD'"));
        QVERIFY(has("sacct_parsable2.txt:19: ReqMem: cannot read 'lots'"));
        QVERIFY(has("sacct_parsable2.txt:20: row: has 5 fields, the header 16"));
        QVERIFY(has("sacct_parsable2.txt:21: JobID: step of job 999"));
    }

    void timesAreLocalToTheCluster() {
        SacctOptions cet;
        cet.utc_offset_s = parseUtcOffset("+01:00");
        QCOMPARE(find(readSacctParsable(kFixture, cet), "100")->submit, kMarch1At10 - 3600);
        QCOMPARE(parseUtcOffset("UTC"), 0.0);
        QCOMPARE(parseUtcOffset("-0530"), -(5 * 3600.0 + 1800));
        QCOMPARE(parseUtcOffset("+2"), 7200.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseUtcOffset("Europe/Paris"));
    }

    void pieces() {
        QCOMPARE(parseSlurmElapsed("2-03:04:05"), 2 * 86400.0 + 3 * 3600 + 4 * 60 + 5);
        QCOMPARE(parseSlurmElapsed("04:05"), 245.0);
        QCOMPARE(parseSlurmElapsed("00:00:01.500"), 1.5);
        QVERIFY(std::isinf(parseSlurmElapsed("UNLIMITED")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSlurmElapsed("1:75"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSlurmElapsed("soon"));
        QCOMPARE(parseSlurmMemoryGb("4000M", 4, 1), 4000.0 / 1024);
        QCOMPARE(parseSlurmMemoryGb("2048", 1, 1), 2.0);  // no unit: MB
        QCOMPARE(parseSlurmMemoryGb("512K", 1, 1), 512.0 / 1024 / 1024);
        QCOMPARE(parseSlurmMemoryGb("8Gc", 3, 1), 24.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSlurmMemoryGb("8X", 1, 1));
        QCOMPARE(parseTresGpus("cpu=4,gres/gpu=2").count, 2);
        QCOMPARE(parseTresGpus("gres/gpu:l40s=3").type, std::string("l40s"));
        QCOMPARE(parseTresGpus("gres/gpu:l40s=3").count, 3);
        QCOMPARE(parseTresGpus("cpu=4,mem=8G").count, 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTresGpus("gres/gpu=lots"));
    }

    void aFileWithoutTheNeededColumnsIsRefused() {
        cl::test::expectError(cl::test::errorOf([] { parseSacctParsable("JobName|User\nx|y\n", "h.txt"); }),
                              {"h.txt", "JobID", "State", "Submit"});
        cl::test::expectError(cl::test::errorOf([] { parseSacctParsable("\n\n", "e.txt"); }),
                              {"e.txt", "empty"});
    }
};

QTEST_GUILESS_MAIN(TestSlurmSacct)
#include "test_slurm_sacct.moc"
