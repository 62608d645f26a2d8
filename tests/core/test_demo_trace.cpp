// The bundled demo traces are our generator's output (data/README.md gives the commands).
#include <QtTest>

#include "core/io/builtin_data.h"
#include "core/io/trace_readers.h"
#include "core/workload/trace_generator.h"

using namespace cl;

class TestDemoTrace : public QObject {
    Q_OBJECT

private slots:
    void demoTraceIsReproducedByTheGenerator() {
        ProfileSet profiles = builtinProfiles();
        GeneratorConfig g;
        g.jobs = 400;
        g.seed = 42;
        g.jobs_per_hour = 30;
        g.gpu_weights = parseGpuWeights("1:0.55,2:0.15,4:0.15,8:0.1,16:0.05");
        g.name = "demo";
        expectSameJobs(generate(g, &profiles), demoTrace());
    }

    void backlogDemoTraceIsReproducedByTheGenerator() {
        ProfileSet profiles = builtinProfiles();
        GeneratorConfig g;
        g.jobs = 400;
        g.seed = 1;
        g.jobs_per_hour = 24;
        g.duration = DurationModel::SynergyLogUniform;
        g.gpu_weights = parseGpuWeights("1:0.359,2:0.003,4:0.283,8:0.311,16:0.027,32:0.017");
        g.name = "demo-backlog";
        expectSameJobs(generate(g, &profiles), backlogDemoTrace());
    }

private:
    static void expectSameJobs(const Trace& fresh, const Trace& bundled) {
        QCOMPARE(bundled.name, fresh.name);
        QCOMPARE(bundled.jobs.size(), fresh.jobs.size());
        for (std::size_t i = 0; i < fresh.jobs.size(); ++i) {
            const Job& a = fresh.jobs[i];
            const Job& b = bundled.jobs[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.submit_time, a.submit_time);
            QCOMPARE(b.gpus, a.gpus);
            QCOMPARE(b.model, a.model);
            QCOMPARE(b.iterations, a.iterations);
            QCOMPARE(b.duration, a.duration);
        }
    }
};

QTEST_APPLESS_MAIN(TestDemoTrace)
#include "test_demo_trace.moc"
