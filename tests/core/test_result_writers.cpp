// The CSV writers of run results (core/io/result_writers.h): the streamed segments writer, which
// formats and writes on a thread of its own (docs/architecture.md section 2.9), gives the same
// bytes as writing the whole list at the end, whatever the batches; an uncommitted writer
// leaves nothing behind; rows are written field by field as documented (NaN empty, text quoted
// when it needs to be, "%.17g" numbers).
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/io/result_writers.h"

using namespace cl;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Segments whose times need all 17 digits and repeat (the writer keeps recent texts).
std::vector<GpuSegment> someSegments(int n) {
    std::vector<GpuSegment> v;
    for (int i = 0; i < n; ++i) v.push_back({i % 37, i * 0.1, i * 0.1 + 1.0 / 3.0, i / 3});
    return v;
}

}  // namespace

class TestResultWriters : public QObject {
    Q_OBJECT

private slots:
    // 100,003 segments in batches of 1, 0, 7, 40,000 and the rest: more batches than the
    // writer lets wait, and one larger than the others together.
    void streamedSegmentsAreTheBytesOfTheWholeList() {
        QTemporaryDir tmp;
        const std::vector<GpuSegment> all = someSegments(100003);
        SimResult whole;
        whole.segments = all;
        const std::string expected_path = tmp.filePath("whole.csv").toStdString();
        writeSegmentsCsv(whole, expected_path);

        const std::string path = tmp.filePath("streamed.csv").toStdString();
        SegmentsCsvWriter writer(path);
        std::size_t at = 0;
        for (std::size_t n : {std::size_t{1}, std::size_t{0}, std::size_t{7}, std::size_t{40000}}) {
            writer.write(std::span<const GpuSegment>(all.data() + at, n));
            at += n;
        }
        for (; at < all.size(); at += 1000)
            writer.write(
                std::span<const GpuSegment>(all.data() + at, std::min<std::size_t>(1000, all.size() - at)));
        QCOMPARE(writer.rows(), all.size());
        writer.commit();
        const std::string got = slurp(path);
        QCOMPARE(got, slurp(expected_path));
        QVERIFY(got.starts_with("gpu,t0,t1,job_index\n0,0,0.33333333333333331,0\n1,0.10000000000000001,"));
    }

    void anEmptyStreamIsTheHeader() {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("segments.csv").toStdString();
        SegmentsCsvWriter writer(path);
        writer.commit();
        QCOMPARE(slurp(path), std::string("gpu,t0,t1,job_index\n"));
        QCOMPARE(writer.rows(), std::size_t{0});
    }

    // A run that fails drops its writer uncommitted: no file, no temporary file.
    void anUncommittedWriterLeavesNothing() {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("segments.csv").toStdString();
        {
            SegmentsCsvWriter writer(path);
            const std::vector<GpuSegment> some = someSegments(50000);
            writer.write(some);
        }
        QVERIFY(!std::filesystem::exists(path));
        QVERIFY(!std::filesystem::exists(path + ".tmp"));
    }

    void anUnwritableFileIsNamed() {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("no/such/dir/segments.csv").toStdString();
        SegmentsCsvWriter writer(path);
        const std::vector<GpuSegment> one = someSegments(1);
        try {
            writer.write(one);
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
    }

    // One job row: integers, quoted text, "%.17g" numbers and empty fields for NaN; one
    // series row likewise.
    void jobAndSeriesRows() {
        QTemporaryDir tmp;
        SimResult r;
        JobRecord j;
        j.index = 3;
        j.id = "a,\"b\"";
        j.model = "resnet50";
        j.gpus = 8;
        j.iterations = 0.1;
        j.submit = 12;
        j.first_start = 15.5;
        j.pending_time = 2;
        j.preemptions = 1;
        j.restarts = 2;
        r.jobs.push_back(j);
        TimeSample s;
        s.t = 1e17;
        s.queue_length = 4;
        s.running_jobs = 2;
        s.gpu_utilization = 0.75;
        r.series.push_back(s);
        const std::string jobs = tmp.filePath("jobs.csv").toStdString();
        const std::string series = tmp.filePath("series.csv").toStdString();
        writeJobsCsv(r, jobs);
        writeSeriesCsv(r, series);
        QCOMPARE(
            slurp(jobs),
            std::string("job_index,job_id,model,gpus,iterations,submit,first_start,end,jct,queueing_delay,"
                        "pending_time,preemptions,restarts\n"
                        "3,\"a,\"\"b\"\"\",resnet50,8,0.10000000000000001,12,15.5,,,,2,1,2\n"));
        QCOMPARE(slurp(series),
                 std::string("t,queue_length,running_jobs,blocking_index,gpu_utilization,storage_utilization,"
                             "cpu_utilization,gpu_compute_utilization,network_utilization\n"
                             "1e+17,4,2,0,0.75,0,0,0,0\n"));
    }
};

QTEST_APPLESS_MAIN(TestResultWriters)
#include "test_result_writers.moc"
