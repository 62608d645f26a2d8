// The profiler-trace (Kineto) import dialog: files chosen through its chooser seam, read off the
// GUI thread with a busy bar, the breakdown (medians, ranks, steps, spread) equal to what core
// computes, storing into a named workspace profile set, and clear errors. Offscreen, on the
// shared real traces (../shared/data/kineto) and the small hand-made ones of tests/fixtures.
#include <memory>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include "named_child.h"
#include "screenshot_checks.h"

#include "core/io/kineto_trace.h"
#include "core/store/profile_set_versions.h"
#include "core/store/scenario_store.h"
#include "views/common/app_theme.h"
#include "views/profiles/kineto_figures_model.h"
#include "views/profiles/kineto_import_dialog.h"
#include "views/profiles/profile_breakdown_chart.h"
#include "views/profiles/profile_figures.h"
#include "views/profiles/profile_spread_chart.h"

using namespace cl::views;

namespace {

constexpr int kTimeoutMs = 60000;

QString shared(const QString& name) {
    return QStringLiteral(CLUSTERLOOM_SHARED_DATA_DIR "/kineto/") + name;
}

QString fixture(const QString& name) {
    return QStringLiteral(CLUSTERLOOM_FIXTURES_DIR "/kineto/") + name;
}

const cl::test::ScreenshotDir& shots() {
    static const cl::test::ScreenshotDir dir;
    return dir;
}

// The dialog's parts, found by their object names as a user finds them by their labels.
QPushButton* addButton(const KinetoImportDialog& d) {
    return namedChild<QPushButton>(d, "addFiles");
}
QPushButton* storeButton(const KinetoImportDialog& d) {
    return namedChild<QPushButton>(d, "store");
}
QLabel* summaryLabel(const KinetoImportDialog& d) {
    return namedChild<QLabel>(d, "summary");
}
QProgressBar* busyBar(const KinetoImportDialog& d) {
    return namedChild<QProgressBar>(d, "busy");
}
KinetoFiguresModel* rankModel(const KinetoImportDialog& d) {
    return namedChild<KinetoFiguresModel>(d, "rankFigures");
}
KinetoFiguresModel* stepModel(const KinetoImportDialog& d) {
    return namedChild<KinetoFiguresModel>(d, "stepFigures");
}
QTableView* rankTable(const KinetoImportDialog& d) {
    return namedChild<QTableView>(d, "ranks");
}
ProfileBreakdownChart* breakdownChart(const KinetoImportDialog& d) {
    return namedChild<ProfileBreakdownChart>(d, "breakdown");
}
ProfileSpreadChart* spreadChart(const KinetoImportDialog& d) {
    return namedChild<ProfileSpreadChart>(d, "spread");
}

}  // namespace

class TestKinetoImportDialog : public QObject {
    Q_OBJECT

private slots:
    // The dialog remembers the last set in QSettings: not the user's own.
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void figuresModelPassesTester() {
        const cl::KinetoProfile profile =
            cl::kinetoProfile({shared(QStringLiteral("resnet_1rank.json.gz")).toStdString()}, "resnet");
        KinetoFiguresModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRanks(profile);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(KinetoFiguresModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, KinetoFiguresModel::IterationColumn), KinetoFiguresModel::SortRole)
                     .toDouble(),
                 profile.median.iteration_ms);
        model.setSteps(profile.ranks[0]);
        QCOMPARE(model.rowCount(), static_cast<int>(profile.ranks[0].steps.size()) + 1);  // and the median
        QCOMPARE(model.columnCount(), int(KinetoFiguresModel::StepsColumn));
        QCOMPARE(model.data(model.index(0, KinetoFiguresModel::LabelColumn)).toString(),
                 QString::number(profile.ranks[0].steps[0].step));
        QCOMPARE(model.data(model.index(model.rowCount() - 1, KinetoFiguresModel::LabelColumn)).toString(),
                 QStringLiteral("median"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void readsOffTheGuiThreadAndShowsWhatCoreComputes() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        KinetoImportDialog dialog(&store);
        const QString path = shared(QStringLiteral("resnet_1rank.json.gz"));
        int asked = 0;
        dialog.setFileChooser([&](QWidget*) {
            ++asked;
            return QStringList{path};
        });
        dialog.show();
        QVERIFY(!storeButton(dialog)->isEnabled());
        QSignalSpy done(&dialog, &KinetoImportDialog::readFinished);
        QTest::mouseClick(addButton(dialog), Qt::LeftButton);
        QCOMPARE(asked, 1);
        // The read is on a worker thread: the dialog is busy, says so and cannot store yet.
        QVERIFY(dialog.isReading());
        QVERIFY(busyBar(dialog)->isVisible());
        QVERIFY(!storeButton(dialog)->isEnabled());
        QVERIFY(summaryLabel(dialog)->text().startsWith(QStringLiteral("Reading")));
        QVERIFY(done.wait(kTimeoutMs));
        QVERIFY(!dialog.isReading());
        QVERIFY(!busyBar(dialog)->isVisible());
        QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));

        // The same figures as core's, shown in the summary, tables and charts.
        const cl::KinetoProfile expected = cl::kinetoProfile({path.toStdString()}, "");
        QVERIFY(dialog.profile().has_value());
        QCOMPARE(dialog.profile()->median.iteration_ms, expected.median.iteration_ms);
        QCOMPARE(dialog.modelName(), QString::fromStdString(expected.name));  // resnet_1rank
        QCOMPARE(rankModel(dialog)->rowCount(), 1);
        QCOMPARE(stepModel(dialog)->rowCount(), static_cast<int>(expected.ranks[0].steps.size()) + 1);
        const ProfileBreakdownChart* bars = breakdownChart(dialog);
        QCOMPARE(bars->bars().size(), std::size_t(1));
        QCOMPARE(bars->drawnMs(0, StageResource::Gpu), expected.median.gpu_ms);
        QCOMPARE(bars->drawnMs(0, StageResource::Cpu), expected.median.cpu_ms);
        QCOMPARE(bars->drawnMs(0, StageResource::Network), expected.median.network_ms);
        QCOMPARE(spreadChart(dialog)->boxes().size(), std::size_t(5));
        QCOMPARE(spreadChart(dialog)->boxes()[0].values_ms.size(), expected.ranks[0].steps.size());
        QCOMPARE(spreadChart(dialog)->boxes()[0].values_ms[1], expected.ranks[0].steps[1].iteration_ms);
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("iteration")));
        QVERIFY(summaryLabel(dialog)->text().contains(QString::fromStdString(expected.gpu_name)));
        QVERIFY(storeButton(dialog)->isEnabled());
        // Nothing is stored before Store.
        QVERIFY(store.profileSets().empty());

        // Store: the model goes into the named set, as a new set here.
        dialog.setModelName(QStringLiteral("resnet"));
        dialog.setProfileSetName(QStringLiteral("mine"));
        QSignalSpy stored(&dialog, &KinetoImportDialog::stored);
        QTest::mouseClick(storeButton(dialog), Qt::LeftButton);
        QCOMPARE(stored.count(), 1);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const auto latest = cl::latestProfileSet(store, "mine");
        QVERIFY(latest.has_value());
        QCOMPARE(latest->id, dialog.storedSetId());
        const cl::ProfileSet set = store.profiles(latest->id);
        QVERIFY(set.has("resnet"));
        const cl::ModelProfile& model = *set.find("resnet");
        QCOMPARE(model.by_gpus.size(), std::size_t(1));
        QCOMPARE(model.by_gpus[0].solo_iteration_time, expected.median.iteration_ms / 1000.0);
        QCOMPARE(model.by_gpus[0].stage_times.size(), std::size_t(4));
        QVERIFY(stepSeries(model).has_value());  // the Profiles view's spread has its steps
    }

    void severalFilesAreTheRanksOfOneRun() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        KinetoImportDialog dialog(&store);
        const QStringList paths{shared(QStringLiteral("allreduce_2ranks_rank0.json.gz")),
                                shared(QStringLiteral("dataloader_alltoall_8ranks_rank3.json.gz"))};
        dialog.setModelName(QStringLiteral("mixed"));
        QSignalSpy done(&dialog, &KinetoImportDialog::readFinished);
        dialog.setFiles(paths);
        QVERIFY(done.wait(kTimeoutMs));
        QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
        const cl::KinetoProfile expected =
            cl::kinetoProfile({paths[0].toStdString(), paths[1].toStdString()}, "mixed");
        QCOMPARE(dialog.profile()->ranks.size(), std::size_t(2));
        QCOMPARE(dialog.profile()->slowest_rank, expected.slowest_rank);
        // A typed name survives the read.
        QCOMPARE(dialog.modelName(), QStringLiteral("mixed"));
        QCOMPARE(rankModel(dialog)->rowCount(), 2);
        const int slowest = static_cast<int>(expected.slowest_rank);
        QVERIFY(rankModel(dialog)
                    ->data(rankModel(dialog)->index(slowest, 0))
                    .toString()
                    .contains(QStringLiteral("slowest")));
        QCOMPARE(breakdownChart(dialog)->bars().size(), std::size_t(2));
        // The slowest rank's steps are shown first; choosing the other rank shows its steps.
        QCOMPARE(stepModel(dialog)->rowCount(),
                 static_cast<int>(expected.ranks[expected.slowest_rank].steps.size()) + 1);
        const int other = 1 - slowest;
        auto* proxy = static_cast<QSortFilterProxyModel*>(rankTable(dialog)->model());
        rankTable(dialog)->selectRow(proxy->mapFromSource(rankModel(dialog)->index(other, 0)).row());
        QCOMPARE(stepModel(dialog)->rowCount(),
                 static_cast<int>(expected.ranks[std::size_t(other)].steps.size()) + 1);
        dialog.resize(1300, 760);
        cl::test::shoot(dialog, shots(), QStringLiteral("kineto_two_ranks.png"),
                        dialog.palette().color(QPalette::Text));
    }

    void errorsAreShownAndNothingCanBeStored() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        KinetoImportDialog dialog(&store);
        QSignalSpy done(&dialog, &KinetoImportDialog::readFinished);
        dialog.setFiles({fixture(QStringLiteral("no_steps.json"))});
        QVERIFY(done.wait(kTimeoutMs));
        QVERIFY(!dialog.profile().has_value());
        QVERIFY2(dialog.error().contains(QStringLiteral("no_steps.json")), qPrintable(dialog.error()));
        QVERIFY2(dialog.error().contains(QStringLiteral("ProfilerStep")), qPrintable(dialog.error()));
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("No profile")));
        QVERIFY(!storeButton(dialog)->isEnabled());
        QVERIFY(!dialog.store(false));
        dialog.accept();  // Enter on the dialog: nothing happens
        QVERIFY(dialog.isVisible() || dialog.result() != QDialog::Accepted);

        // A file that does not exist names itself.
        dialog.setFiles({dir.filePath(QStringLiteral("missing.json.gz"))});
        QVERIFY(done.wait(kTimeoutMs));
        QVERIFY2(dialog.error().contains(QStringLiteral("missing.json.gz")), qPrintable(dialog.error()));

        // A good file read after a bad one clears the error; removing it empties the dialog.
        dialog.setFiles({fixture(QStringLiteral("two_steps.json.gz"))});
        QVERIFY(done.wait(kTimeoutMs));
        QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
        QVERIFY(storeButton(dialog)->isEnabled());
        dialog.setFiles({});
        QVERIFY(!dialog.profile().has_value());
        QVERIFY(!storeButton(dialog)->isEnabled());
        // Without a model name there is nothing to store under.
        dialog.setFiles({fixture(QStringLiteral("two_steps.json"))});
        QVERIFY(done.wait(kTimeoutMs));
        dialog.setModelName(QString());
        QVERIFY(!storeButton(dialog)->isEnabled());
    }

    void storingAgainReplacesTheModelInANewVersion() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        std::int64_t first = 0;
        for (const char* file : {"two_steps.json", "resnet_1rank.json.gz"}) {
            KinetoImportDialog dialog(&store);
            QSignalSpy done(&dialog, &KinetoImportDialog::readFinished);
            const QString name = QString::fromLatin1(file);
            dialog.setFiles({name.startsWith(QLatin1String("resnet")) ? shared(name) : fixture(name)});
            QVERIFY(done.wait(kTimeoutMs));
            dialog.setModelName(QStringLiteral("m"));
            dialog.setProfileSetName(QStringLiteral("profiles"));
            QVERIFY(dialog.store(false));  // no question: the test answers it
            if (first == 0) first = dialog.storedSetId();
        }
        const auto latest = cl::latestProfileSet(store, "profiles");
        QVERIFY(latest->id != first);
        // The earlier version is kept for the scenarios that use it.
        QVERIFY(store.profiles(first).has("m"));
        QVERIFY(store.profiles(first).find("m")->by_gpus[0].solo_iteration_time !=
                store.profiles(latest->id).find("m")->by_gpus[0].solo_iteration_time);
    }

    void closingWhileReadingIsSafe() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        {
            KinetoImportDialog dialog(&store);
            dialog.setFiles({shared(QStringLiteral("dataloader_alltoall_8ranks_rank3.json.gz"))});
            QVERIFY(dialog.isReading());
        }
        // The worker finishes on its own; nothing reaches the deleted dialog.
        QThreadPool::globalInstance()->waitForDone(kTimeoutMs);
        QCoreApplication::processEvents();
    }

    void darkThemeShot() {
        applyTheme(Theme::Dark);
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        KinetoImportDialog dialog(&store);
        QSignalSpy done(&dialog, &KinetoImportDialog::readFinished);
        dialog.setFiles({shared(QStringLiteral("resnet_1rank.json.gz"))});
        QVERIFY(done.wait(kTimeoutMs));
        dialog.resize(1300, 760);
        dialog.show();
        QCoreApplication::processEvents();
        cl::test::shoot(dialog, shots(), QStringLiteral("kineto_dark.png"),
                        dialog.palette().color(QPalette::Text));
        applyTheme(Theme::Light);
    }
};

QTEST_MAIN(TestKinetoImportDialog)
#include "test_kineto_import_dialog.moc"
