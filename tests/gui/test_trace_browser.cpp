// The trace browser (table model, filter proxy, histograms), the import dialog (good and
// broken files, skipped rows), the transform dialog and the generator dialog, offscreen.
#include <algorithm>
#include <map>
#include <memory>

#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "named_child.h"
#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/workload/trace_generator.h"
#include "views/trace/job_filter_proxy.h"
#include "views/trace/job_table_model.h"
#include "views/trace/trace_browser.h"
#include "views/trace/trace_generator_dialog.h"
#include "views/trace/trace_histograms.h"
#include "views/trace/trace_import_dialog.h"
#include "views/trace/trace_transform_dialog.h"

using namespace cl::views;

namespace {

cl::Job makeJob(const char* id, double submit, int gpus, const char* model, double duration) {
    cl::Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.model = model;
    j.duration = duration;
    return j;
}

// Ten jobs, deliberately not in id or GPU order.
std::shared_ptr<const cl::Trace> knownTrace() {
    auto t = std::make_shared<cl::Trace>();
    t->name = "known";
    t->jobs = {
        makeJob("1", 0, 4, "resnet18", 600),
        makeJob("2", 60, 1, "bert", 30),
        makeJob("10", 120, 8, "resnet18", 7200),
        makeJob("3", 600, 2, "gpt2", 100),
        makeJob("4", 1800, 1, "resnet18", 5),
        makeJob("5", 3600, 16, "bert", 86400),
        makeJob("6", 3600, 2, "", 0),
        makeJob("7", 7200, 1, "gpt2", 45),
        makeJob("8", 10800, 4, "bert", 900),
        makeJob("9", 14400, 1, "resnet18", 3000),
    };
    return t;
}

QString shared(const QString& relative) {
    return QStringLiteral(CLUSTERLOOM_SHARED_DATA_DIR) + QLatin1Char('/') + relative;
}

void writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// The suite's screenshot folder (removed at exit unless CLUSTERLOOM_KEEP_SCREENSHOTS=1).
const cl::test::ScreenshotDir& shots() {
    static const cl::test::ScreenshotDir dir;
    return dir;
}

// A picture of a browser or dialog: drawn at its size, not blank, with text in its palette's
// text colour (tables, labels, fields).
void saveShot(QWidget& w, const QString& name) {
    w.show();
    QCoreApplication::processEvents();
    cl::test::shoot(w, shots(), QStringLiteral("traces_%1.png").arg(name), w.palette().color(QPalette::Text));
}

// A browser's or dialog's parts, found by their object names as a user finds them by their labels.
JobTableModel* jobModel(const TraceBrowser& b) {
    return namedChild<JobTableModel>(b, "jobModel");
}
JobFilterProxy* filterProxy(const TraceBrowser& b) {
    return namedChild<JobFilterProxy>(b, "jobFilter");
}
TraceHistograms* histograms(const TraceBrowser& b) {
    return namedChild<TraceHistograms>(b, "histograms");
}
QTableView* tableView(const TraceBrowser& b) {
    return namedChild<QTableView>(b, "jobTable");
}
JobTableModel* previewModel(const TraceImportDialog& d) {
    return namedChild<JobTableModel>(d, "preview");
}

}  // namespace

class TestTraceBrowser : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        m_profiles = cl::builtinProfiles();
        m_demo = std::make_shared<const cl::Trace>(cl::demoTrace());
    }

    void jobModelPassesTester() {
        JobTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(m_demo, &m_profiles);
        QCOMPARE(model.rowCount(), static_cast<int>(m_demo->jobs.size()));
        QCOMPARE(model.columnCount(), int(JobTableModel::ColumnCount));
        model.setTrace(knownTrace());
        QCOMPARE(model.data(model.index(2, JobTableModel::IdColumn)).toString(), QStringLiteral("10"));
        QCOMPARE(model.data(model.index(2, JobTableModel::GpusColumn), JobTableModel::SortRole).toDouble(),
                 8.0);
        QCOMPARE(model.data(model.index(6, JobTableModel::ModelColumn)).toString(), QStringLiteral("\u2014"));
        QCOMPARE(model.data(model.index(6, JobTableModel::DurationColumn)).toString(),
                 QStringLiteral("\u2014"));
        QVERIFY(
            !model.data(model.index(0, JobTableModel::SubmitColumn), Qt::ToolTipRole).toString().isEmpty());
        model.setTrace(m_demo, &m_profiles, 50);
        QCOMPARE(model.rowCount(), 50);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void iterationOnlyJobsGetAProfileDuration() {
        auto t = std::make_shared<cl::Trace>();
        cl::Job j = makeJob("a", 0, 1, "resnet18", 0);
        j.iterations = 1000;
        t->jobs = {j};
        const cl::GpuCountProfile* p = m_profiles.find("resnet18")->at(1);
        JobTableModel model;
        model.setTrace(t, &m_profiles);
        QCOMPARE(model.duration(0), 1000 * p->solo_iteration_time);
        model.setTrace(t, nullptr);
        QCOMPARE(model.data(model.index(0, JobTableModel::DurationColumn)).toString(),
                 QStringLiteral("\u2014"));
    }

    void proxyPassesTesterWhileFilteringAndSorting() {
        JobTableModel model;
        JobFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(m_demo, &m_profiles);
        proxy.sort(JobTableModel::DurationColumn, Qt::DescendingOrder);
        proxy.setModelFilter(std::string("bert"));
        proxy.setGpuRange(2, 8);
        proxy.setTimeRange(3600, 7 * 3600);
        proxy.clearFilter();
        QCOMPARE(proxy.rowCount(), static_cast<int>(m_demo->jobs.size()));
        model.setTrace(knownTrace());
        QCOMPARE(proxy.rowCount(), 10);
    }

    void sortsByGpusAndSubmitTime() {
        JobTableModel model;
        JobFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setTrace(knownTrace());
        const auto column = [&](int c) {
            QStringList ids;
            for (int r = 0; r < proxy.rowCount(); ++r)
                ids << proxy.data(proxy.index(r, JobTableModel::IdColumn)).toString() + QLatin1Char(':') +
                           proxy.data(proxy.index(r, c)).toString();
            return ids.join(QLatin1Char(' '));
        };
        proxy.sort(JobTableModel::GpusColumn, Qt::AscendingOrder);
        // Ties keep trace order.
        QCOMPARE(column(JobTableModel::GpusColumn),
                 QStringLiteral("2:1 4:1 7:1 9:1 3:2 6:2 1:4 8:4 10:8 5:16"));
        proxy.sort(JobTableModel::SubmitColumn, Qt::DescendingOrder);
        QStringList order;
        for (int r = 0; r < proxy.rowCount(); ++r)
            order << proxy.data(proxy.index(r, JobTableModel::IdColumn)).toString();
        QCOMPARE(order.join(QLatin1Char(',')), QStringLiteral("9,8,7,6,5,4,3,10,2,1"));
        // Numeric ids sort as numbers: 10 after 9.
        proxy.sort(JobTableModel::IdColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.data(proxy.index(9, JobTableModel::IdColumn)).toString(), QStringLiteral("10"));
        // Unknown durations sort after every known one.
        proxy.sort(JobTableModel::DurationColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, JobTableModel::IdColumn)).toString(), QStringLiteral("4"));
        QCOMPARE(proxy.data(proxy.index(9, JobTableModel::IdColumn)).toString(), QStringLiteral("6"));
    }

    void filtersGiveExactCounts() {
        JobTableModel model;
        JobFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setTrace(knownTrace());
        proxy.setModelFilter(std::string("resnet18"));
        QCOMPARE(proxy.rowCount(), 4);
        proxy.setModelFilter(std::string());  // jobs without a model
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setModelFilter(std::nullopt);
        proxy.setGpuRange(2, 8);
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setGpuRange(0, std::numeric_limits<int>::max());
        proxy.setTimeRange(600, 3600);  // both ends included
        QCOMPARE(proxy.rowCount(), 4);
        proxy.setModelFilter(std::string("bert"));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.acceptedSourceRows(), std::vector<int>({5}));
    }

    void browserFilterBarDrivesTheProxy() {
        TraceBrowser browser;
        browser.setTrace(knownTrace());
        QCOMPARE(browser.countText(), QStringLiteral("10 jobs"));
        auto* model = browser.findChild<QComboBox*>(QStringLiteral("modelFilter"));
        auto* min_gpus = browser.findChild<QSpinBox*>(QStringLiteral("minGpus"));
        auto* max_gpus = browser.findChild<QSpinBox*>(QStringLiteral("maxGpus"));
        auto* to = browser.findChild<QDoubleSpinBox*>(QStringLiteral("timeTo"));
        QVERIFY(model && min_gpus && max_gpus && to);
        QCOMPARE(model->count(), 5);  // any, bert, gpt2, resnet18, (no model)
        QCOMPARE(max_gpus->maximum(), 16);
        model->setCurrentIndex(model->findText(QStringLiteral("resnet18")));
        QTRY_COMPARE(filterProxy(browser)->rowCount(), 4);
        QCOMPARE(browser.countText(), QStringLiteral("4 of 10 jobs"));
        min_gpus->setValue(2);
        browser.applyFilters();
        QCOMPARE(filterProxy(browser)->rowCount(), 2);
        int gpu_jobs = 0;
        for (double c : histograms(browser)->gpuChart().counts[0]) gpu_jobs += static_cast<int>(c);
        QCOMPARE(gpu_jobs, 2);
        browser.resetFilters();
        QCOMPARE(filterProxy(browser)->rowCount(), 10);
        to->setValue(1.0);  // hours: the trace spans 4 h
        browser.applyFilters();
        QCOMPARE(filterProxy(browser)->rowCount(), 7);
    }

    // Imported Slurm jobs show their name, account, partition and GPU type, sortable by a
    // header click; a paper trace without them does not grow four empty columns.
    void planningColumnsShowOnlyWhenAJobHasThem() {
        TraceBrowser browser;
        auto* table = browser.findChild<QTableView*>(QStringLiteral("jobTable"));
        QVERIFY(table);
        browser.setTrace(knownTrace());
        for (int c = JobTableModel::NameColumn; c < JobTableModel::ColumnCount; ++c)
            QVERIFY(table->isColumnHidden(c));
        auto planned = std::make_shared<cl::Trace>(*knownTrace());
        planned->jobs[0].name = "zeta";
        planned->jobs[1].name = "alpha";
        planned->jobs[1].partition = "gpu";
        planned->jobs[2].gpu_type = "A100";
        browser.setTrace(planned);
        for (int c = JobTableModel::NameColumn; c < JobTableModel::ColumnCount; ++c)
            QVERIFY(!table->isColumnHidden(c));
        QCOMPARE(table->model()->headerData(JobTableModel::GpuTypeColumn, Qt::Horizontal).toString(),
                 QStringLiteral("GPU type"));
        QCOMPARE(table->model()->index(2, JobTableModel::GpuTypeColumn).data().toString(),
                 QStringLiteral("A100"));
        table->sortByColumn(JobTableModel::NameColumn, Qt::DescendingOrder);
        QCOMPARE(table->model()->index(0, JobTableModel::NameColumn).data().toString(),
                 QStringLiteral("zeta"));
        QCOMPARE(table->model()->index(1, JobTableModel::NameColumn).data().toString(),
                 QStringLiteral("alpha"));
        browser.setTrace(knownTrace());
        QVERIFY(table->isColumnHidden(JobTableModel::NameColumn));
    }

    void hundredThousandJobs() {
        cl::GeneratorConfig config;
        config.jobs = 100000;
        config.seed = 3;
        config.jobs_per_hour = 400;
        auto trace = std::make_shared<const cl::Trace>(cl::generate(config, &m_profiles));
        TraceBrowser browser;
        browser.resize(1400, 900);
        browser.setTrace(trace, &m_profiles);
        QCOMPARE(jobModel(browser)->rowCount(), 100000);
        tableView(browser)->sortByColumn(JobTableModel::DurationColumn, Qt::DescendingOrder);
        filterProxy(browser)->setFilter([] {
            JobFilter f;
            f.model = "bert";
            f.min_gpus = 2;
            f.from = 24 * 3600.0;
            f.to = 96 * 3600.0;
            return f;
        }());
        int expected = 0;
        for (const cl::Job& j : trace->jobs)
            if (j.model == "bert" && j.gpus >= 2 && j.submit_time >= 24 * 3600.0 &&
                j.submit_time <= 96 * 3600.0)
                ++expected;
        QVERIFY(expected > 0);
        QCOMPARE(filterProxy(browser)->rowCount(), expected);
        const QModelIndex first = filterProxy(browser)->index(0, JobTableModel::DurationColumn);
        const QModelIndex second = filterProxy(browser)->index(1, JobTableModel::DurationColumn);
        QVERIFY(first.data(JobTableModel::SortRole).toDouble() >=
                second.data(JobTableModel::SortRole).toDouble());
        // The filter bar too: any model, GPUs 4..8.
        browser.resetFilters();
        browser.findChild<QSpinBox*>(QStringLiteral("minGpus"))->setValue(4);
        browser.findChild<QSpinBox*>(QStringLiteral("maxGpus"))->setValue(8);
        browser.applyFilters();
        const auto in_range = std::count_if(trace->jobs.begin(), trace->jobs.end(),
                                            [](const cl::Job& j) { return j.gpus >= 4 && j.gpus <= 8; });
        QCOMPARE(filterProxy(browser)->rowCount(), static_cast<int>(in_range));
        saveShot(browser, QStringLiteral("browser_100k"));
    }

    void browserScreenshotDemo() {
        TraceBrowser browser;
        browser.resize(1400, 900);
        browser.setTrace(m_demo, &m_profiles);
        saveShot(browser, QStringLiteral("browser_demo"));
    }

    void importsGoodFiles_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("jobs");
        QTest::newRow("muri trace1") << shared(QStringLiteral("muri-traces/trace1.csv")) << 1494;
        QTest::newRow("demo") << QString::fromStdString(cl::dataFile("traces/demo.json")) << 400;
        QTest::newRow("fixture csv") << QStringLiteral(CLUSTERLOOM_FIXTURES_DIR "/io/trace_small.csv") << 3;
    }

    void importsGoodFiles() {
        QFETCH(QString, path);
        QFETCH(int, jobs);
        TraceImportDialog dialog(&m_profiles);
        QVERIFY2(dialog.loadFile(path), qPrintable(dialog.errors().join(QLatin1Char('\n'))));
        QVERIFY(dialog.canImport());
        QVERIFY(dialog.errors().isEmpty());
        QCOMPARE(static_cast<int>(dialog.trace()->jobs.size()), jobs);
        QCOMPARE(previewModel(dialog)->rowCount(), std::min(jobs, TraceImportDialog::kPreviewRows));
        QVERIFY(dialog.findChild<QDialogButtonBox*>()->buttons().size() == 2);
        if (jobs == 1494) {
            dialog.resize(1400, 900);
            saveShot(dialog, QStringLiteral("import_good"));
        }
    }

    // A typed path is previewed once the typing pauses, without Reload; Enter on a path not yet
    // previewed previews it and does not import; Enter on the previewed file imports it.
    void typedPathIsPreviewedAndEnterNeverImportsUnseen() {
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first.csv"));
        writeFile(first, "job_id,submit_time,gpus,model,duration\nj1,0,1,resnet18,60\nj2,10,2,bert,60\n");
        const QString second = dir.filePath(QStringLiteral("second.csv"));
        writeFile(second, "job_id,submit_time,gpus,model,duration\nk1,0,4,vgg16,60\n");
        TraceImportDialog dialog(&m_profiles);
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        auto* path = dialog.findChild<QLineEdit*>(QStringLiteral("path"));
        QVERIFY(path);
        path->setFocus();

        QTest::keyClicks(path, first);
        QVERIFY(dialog.isPreviewPending());
        QVERIFY(!dialog.canImport());
        QTRY_VERIFY(dialog.canImport());  // after the typing pause, no Reload pressed
        QCOMPARE(previewModel(dialog)->rowCount(), 2);
        QCOMPARE(static_cast<int>(dialog.trace()->jobs.size()), 2);

        // Typing another path drops the first file's preview at once.
        path->clear();
        QTest::keyClicks(path, second);
        QVERIFY(!dialog.canImport());
        QVERIFY(!dialog.trace());
        // Enter before the pause: the file is read and shown, but not imported.
        QTest::keyClick(path, Qt::Key_Return);
        QVERIFY(!dialog.isPreviewPending());
        QCOMPARE(accepted.count(), 0);
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.canImport());
        QCOMPARE(static_cast<int>(dialog.trace()->jobs.size()), 1);
        QCOMPARE(dialog.trace()->jobs.front().id, std::string("k1"));
        // Enter again, on the file now shown, imports it.
        QTest::keyClick(path, Qt::Key_Return);
        QCOMPARE(accepted.count(), 1);

        // A file that does not exist is previewed as an error and cannot be imported by Enter.
        TraceImportDialog again(&m_profiles);
        QSignalSpy acceptedAgain(&again, &QDialog::accepted);
        again.show();
        QVERIFY(QTest::qWaitForWindowActive(&again));
        auto* againPath = again.findChild<QLineEdit*>(QStringLiteral("path"));
        againPath->setFocus();
        QTest::keyClicks(againPath, dir.filePath(QStringLiteral("nothing-here.csv")));
        QTest::keyClick(againPath, Qt::Key_Return);
        QTest::keyClick(againPath, Qt::Key_Return);
        QCOMPARE(acceptedAgain.count(), 0);
        QVERIFY(!again.errors().isEmpty());
        QVERIFY(!again.canImport());
    }

    void importRejectsBrokenFiles() {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("missing_gpus.csv"));
        writeFile(missing, "job_id,submit_time,model,duration\nj1,0,resnet18,60\n");
        TraceImportDialog dialog(&m_profiles);
        QVERIFY(!dialog.loadFile(missing));
        QVERIFY(!dialog.canImport());
        QVERIFY(!dialog.trace());
        QCOMPARE(dialog.errors().size(), 1);
        QVERIFY2(dialog.errors()[0].contains(QStringLiteral("missing_gpus.csv")),
                 qPrintable(dialog.errors()[0]));
        QVERIFY2(dialog.errors()[0].contains(QStringLiteral("gpus")), qPrintable(dialog.errors()[0]));

        const QString bad = dir.filePath(QStringLiteral("bad_gpus.csv"));
        writeFile(bad,
                  "job_id,submit_time,gpus,model,duration\n"
                  "j1,0,1,resnet18,60\n"
                  "j2,10,four,vgg16,60\n"
                  "j3,20,2,bert,60\n");
        QVERIFY(!dialog.loadFile(bad));
        QVERIFY(!dialog.canImport());
        QVERIFY(!dialog.trace());
        QCOMPARE(dialog.errors().size(), 1);
        const QString error = dialog.errors()[0];
        QVERIFY2(error.contains(QStringLiteral("bad_gpus.csv:3")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("gpus")), qPrintable(error));
        auto* import = dialog.findChild<QDialogButtonBox*>()->buttons().last();
        for (QAbstractButton* b : dialog.findChild<QDialogButtonBox*>()->buttons())
            if (dialog.findChild<QDialogButtonBox*>()->buttonRole(b) == QDialogButtonBox::AcceptRole)
                import = b;
        QVERIFY(!import->isEnabled());
        dialog.resize(1400, 900);
        saveShot(dialog, QStringLiteral("import_broken"));

        // Skipping invalid rows imports the others and lists the skipped one.
        dialog.setSkipInvalidRows(true);
        QVERIFY(dialog.loadFile(bad));
        QVERIFY(dialog.canImport());
        QVERIFY(import->isEnabled());
        QCOMPARE(static_cast<int>(dialog.trace()->jobs.size()), 2);
        QCOMPARE(dialog.warnings().size(), 1);
        QVERIFY2(dialog.warnings()[0].contains(QStringLiteral("bad_gpus.csv:3")),
                 qPrintable(dialog.warnings()[0]));
        saveShot(dialog, QStringLiteral("import_skipped"));
    }

    void transformDialogPreviewsAndValidates() {
        TraceTransformDialog dialog(m_demo);
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(dialog.addStepFromSpec(QStringLiteral("scale=2")));
        QCOMPARE(dialog.specs(), std::vector<std::string>{"scale=2"});
        QTRY_VERIFY(dialog.result() != nullptr);
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.result()->lastSubmit(), m_demo->lastSubmit() / 2.0);
        QCOMPARE(dialog.result()->jobs.size(), m_demo->jobs.size());

        // A window whose end lies before its start, through the typed editors.
        dialog.addStep(TraceTransformDialog::Kind::Window);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("windowFrom"))->setValue(2.0);
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("windowTo"))->setValue(1.0);
        QTRY_VERIFY(!dialog.errorText().isEmpty());
        QVERIFY(!ok->isEnabled());
        QVERIFY(!dialog.result());
        QVERIFY2(dialog.errorText().contains(QStringLiteral("Step 2")), qPrintable(dialog.errorText()));
        dialog.resize(1400, 900);
        saveShot(dialog, QStringLiteral("transform_invalid"));
        dialog.findChild<QDoubleSpinBox*>(QStringLiteral("windowTo"))->setValue(4.0);
        QTRY_VERIFY(dialog.result() != nullptr);
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.specs(), (std::vector<std::string>{"scale=2", "window=7200:14400"}));
        dialog.moveStep(1, 0);
        QCOMPARE(dialog.specs().front(), std::string("window=7200:14400"));
        QVERIFY(dialog.addStepFromSpec(QStringLiteral("tasks=image:1,language:2,rl:0@5")));
        QCOMPARE(dialog.specs().back(), std::string("tasks=image:1,language:2,rl:0@5"));
        QVERIFY(!dialog.addStepFromSpec(QStringLiteral("bogus=1")));
        dialog.refreshPreview();
        QVERIFY(dialog.result());
        saveShot(dialog, QStringLiteral("transform"));
    }

    void generatorDialogIsDeterministic() {
        TraceGeneratorDialog dialog(&m_profiles);
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        dialog.findChild<QSpinBox*>(QStringLiteral("jobs"))->setValue(500);
        dialog.findChild<QSpinBox*>(QStringLiteral("seed"))->setValue(11);
        QCOMPARE(dialog.config().jobs, 500);
        QCOMPARE(dialog.config().seed, std::uint64_t(11));
        const auto first = dialog.trace();
        QVERIFY(first);
        QCOMPARE(static_cast<int>(first->jobs.size()), 500);
        QTRY_VERIFY(ok->isEnabled());

        TraceGeneratorDialog again(&m_profiles);
        again.setConfig(dialog.config());
        const auto second = again.trace();
        QVERIFY(second);
        QCOMPARE(second->jobs.size(), first->jobs.size());
        for (std::size_t i = 0; i < first->jobs.size(); ++i) {
            QCOMPARE(second->jobs[i].submit_time, first->jobs[i].submit_time);
            QCOMPARE(second->jobs[i].gpus, first->jobs[i].gpus);
            QCOMPARE(second->jobs[i].duration, first->jobs[i].duration);
            QCOMPARE(second->jobs[i].model, first->jobs[i].model);
        }

        dialog.findChild<QLineEdit*>(QStringLiteral("gpuWeights"))->setText(QStringLiteral("1:0.5,2:abc"));
        QTRY_VERIFY(!dialog.errorText().isEmpty());
        QVERIFY(!ok->isEnabled());
        QVERIFY(!dialog.trace());
        QVERIFY2(dialog.errorText().contains(QStringLiteral("GPU weights")), qPrintable(dialog.errorText()));
        dialog.resize(1400, 900);
        saveShot(dialog, QStringLiteral("generator_invalid"));
        dialog.findChild<QLineEdit*>(QStringLiteral("gpuWeights"))->clear();
        QTRY_VERIFY(dialog.errorText().isEmpty() && ok->isEnabled());
        saveShot(dialog, QStringLiteral("generator"));
    }

    void generatorDialogAssignsModelsTheSynergyWay() {
        // Task split over the Synergy catalog by share: exactly 20/70/10 of 100 jobs, no draws.
        TraceGeneratorDialog dialog(&m_profiles);
        cl::GeneratorConfig c;
        c.jobs = 100;
        c.tasks = cl::parseTaskSplit("image:20,language:70,speech:10");
        c.task_catalog = "synergy";
        c.model_rule = cl::ModelRule::TaskShare;
        dialog.setConfig(c);
        auto* share = dialog.findChild<QCheckBox*>(QStringLiteral("taskShare"));
        QVERIFY(share && share->isChecked() && share->isEnabled());
        QCOMPARE(dialog.config().model_rule, cl::ModelRule::TaskShare);
        const auto trace = dialog.trace();
        QVERIFY(trace);
        std::map<std::string, int> per_model;
        for (const auto& j : trace->jobs) ++per_model[j.model];
        QCOMPARE(per_model["resnet18"] + per_model["resnet50"] + per_model["mobilenet"] +
                     per_model["alexnet"] + per_model["shufflenet"],
                 20);
        QCOMPARE(per_model["gnmt"] + per_model["transformer"] + per_model["lstm"], 70);
        QCOMPARE(per_model["m5"] + per_model["deepspeech"], 10);
        share->setChecked(false);
        QCOMPARE(dialog.config().model_rule, cl::ModelRule::Seeded);
    }

    // On a narrow chart the duration axis keeps only labels that do not run into each other
    // (the Trace view at 1366 pixels), and brings back the finer ones when widened.
    void durationLabelsNeverOverlap() {
        cl::views::TraceHistograms histograms;
        histograms.setTrace(*m_demo, &m_profiles);
        const auto labelsAt = [&](int width) {
            histograms.resize(width, 260);
            histograms.show();
            QCoreApplication::processEvents();
            QCustomPlot* plot = histograms.plot(1);
            plot->replot();
            auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
            const QMap<double, QString> ticks = ticker->ticks();
            const QFontMetricsF fm(plot->xAxis->tickLabelFont());
            double last_right = -1e9;
            for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
                const double x = plot->xAxis->coordToPixel(it.key());
                const double half = fm.horizontalAdvance(it.value()) / 2;
                if (x - half < last_right) return -1;  // overlap
                last_right = x + half;
            }
            return static_cast<int>(ticks.size());
        };
        const int narrow = labelsAt(3 * 250);
        QVERIFY2(narrow >= 3, qPrintable(QString::number(narrow)));
        const int wide = labelsAt(3 * 700);
        QVERIFY2(wide > narrow, qPrintable(QString("%1 vs %2").arg(wide).arg(narrow)));
    }

private:
    cl::ProfileSet m_profiles;
    std::shared_ptr<const cl::Trace> m_demo;
};

QTEST_MAIN(TestTraceBrowser)
#include "test_trace_browser.moc"
