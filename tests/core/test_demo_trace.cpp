// The bundled demo trace is our generator's output (data/README.md gives the command).
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
        Trace fresh = generate(g, &profiles);
        Trace bundled = demoTrace();
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
