// The Profiles view: the workspace's profile sets, the models' time per iteration stacked by
// resource (four stages, the built-in three, none), the per-step spread of imported profiles,
// the GPU-count choice, clicks on bars, and both themes. Offscreen.
#include <algorithm>
#include <cmath>
#include <memory>

#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "named_child.h"
#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/store/scenario_store.h"
#include "views/common/app_theme.h"
#include "views/profiles/profile_breakdown_chart.h"
#include "views/profiles/profile_figures.h"
#include "views/profiles/profile_spread_chart.h"
#include "views/profiles/profile_table_model.h"
#include "views/profiles/profiles_view.h"
#include "views/shell/main_window.h"

using namespace cl::views;

namespace {

cl::GpuCountProfile row(int gpus, double iteration, std::vector<double> stages) {
    cl::GpuCountProfile r;
    r.gpus = gpus;
    r.solo_iteration_time = iteration;
    r.stage_times = std::move(stages);
    return r;
}

// A model as an import from profiler traces stores it: four stages at world_size GPUs and the
// per-step figures in extra["kineto"] (milliseconds).
cl::ModelProfile importedModel() {
    cl::ModelProfile m;
    m.name = "llama-ft";
    m.by_gpus = {row(8, 0.100, {0.004, 0.011, 0.080, 0.005})};
    nlohmann::json steps = nlohmann::json::array();
    const double iterations[] = {98.0, 100.0, 104.0, 101.0, 120.0};
    for (int s = 0; s < 5; ++s)
        steps.push_back({{"step", 11 + s},
                         {"iteration_ms", iterations[s]},
                         {"storage_ms", 4.0 + s},
                         {"cpu_ms", 11.0},
                         {"gpu_ms", 80.0 - s},
                         {"nccl_ms", 12.0},
                         {"network_ms", 5.0}});
    m.extra.edit()["kineto"] = {{"name", "llama-ft"},
                                {"world_size", 8},
                                {"gpu_name", "NVIDIA A100-SXM4-80GB"},
                                {"files", {"rank0.json.gz", "rank1.json.gz"}},
                                {"steps", steps}};
    return m;
}

cl::ProfileSet mixedSet() {
    cl::ProfileSet set;
    set.name = "mine";
    set.source = "test";
    set.models["llama-ft"] = importedModel();
    cl::ModelProfile three;
    three.name = "bert";
    three.by_gpus = {row(1, 0.178, {0.0005, 0.160, 0.0}), row(8, 0.192, {0.0005, 0.167, 0.059})};
    set.models["bert"] = three;
    cl::ModelProfile plain;
    plain.name = "ncf";
    plain.by_gpus = {row(1, 0.00776, {})};
    set.models["ncf"] = plain;
    return set;
}

const cl::test::ScreenshotDir& shots() {
    static const cl::test::ScreenshotDir dir;
    return dir;
}

// The view's parts, found by their object names as a user finds them by their labels.
QComboBox* profileSetCombo(const ProfilesView& v) {
    return namedChild<QComboBox>(v, "profileSets");
}
QTableView* profileTable(const ProfilesView& v) {
    return namedChild<QTableView>(v, "profileTable");
}
ProfileTableModel* tableModel(const ProfilesView& v) {
    return namedChild<ProfileTableModel>(v, "profileModel");
}
ProfileBreakdownChart* breakdownChart(const ProfilesView& v) {
    return namedChild<ProfileBreakdownChart>(v, "profileBreakdown");
}
ProfileSpreadChart* spreadChart(const ProfilesView& v) {
    return namedChild<ProfileSpreadChart>(v, "profileSpread");
}

// Records the warnings Qt prints while it lives (and passes them on), to check that painting
// emits none.
class WarningRecorder {
public:
    WarningRecorder() {
        warnings().clear();
        previous() = qInstallMessageHandler(record);
    }
    ~WarningRecorder() { qInstallMessageHandler(previous()); }
    WarningRecorder(const WarningRecorder&) = delete;
    WarningRecorder& operator=(const WarningRecorder&) = delete;
    // The recorded warnings that contain any of these words.
    static QStringList containing(const QStringList& words) {
        QStringList found;
        for (const QString& w : warnings())
            for (const QString& word : words)
                if (w.contains(word)) {
                    found << w;
                    break;
                }
        return found;
    }

private:
    static QStringList& warnings() {
        static QStringList list;
        return list;
    }
    static QtMessageHandler& previous() {
        static QtMessageHandler handler = nullptr;
        return handler;
    }
    static void record(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (type == QtWarningMsg) warnings() << message;
        if (previous()) previous()(type, context, message);
    }
};

}  // namespace

class TestProfilesView : public QObject {
    Q_OBJECT

private slots:
    void stagesAreNamedByHowManyThereAre() {
        const auto four = stageSegments(row(1, 1.0, {1, 2, 3, 4}));
        QCOMPARE(four.size(), std::size_t(4));
        QCOMPARE(four[0].resource, StageResource::Storage);
        QCOMPARE(four[1].resource, StageResource::Cpu);
        QCOMPARE(four[2].resource, StageResource::Gpu);
        QCOMPARE(four[3].resource, StageResource::Network);
        QCOMPARE(four[3].seconds, 4.0);
        const auto three = stageSegments(row(1, 1.0, {1, 2, 3}));
        QCOMPARE(three[0].resource, StageResource::LoadCpu);
        QCOMPARE(three[1].resource, StageResource::Gpu);
        QCOMPARE(three[2].resource, StageResource::Network);
        QCOMPARE(stageResourceName(StageResource::LoadCpu), QStringLiteral("load+CPU"));
        QVERIFY(stageSegments(row(1, 1.0, {})).empty());
        QCOMPARE(stageLayoutName(row(1, 1.0, {})), QStringLiteral("iteration time only"));
        QCOMPARE(stageLayoutName(row(1, 1.0, {1, 2, 3})), QStringLiteral("load+CPU / GPU / network"));
        // Every resource has a colour of its own.
        QSet<QRgb> colours;
        for (StageResource r : {StageResource::Storage, StageResource::Cpu, StageResource::LoadCpu,
                                StageResource::Gpu, StageResource::Network})
            colours.insert(stageResourceColor(r).rgb());
        QCOMPARE(colours.size(), 5);
    }

    void stepSeriesReadsTheImportedFigures() {
        const auto steps = stepSeries(importedModel());
        QVERIFY(steps.has_value());
        QCOMPARE(steps->steps, (std::vector<int>{11, 12, 13, 14, 15}));
        QCOMPARE(steps->iteration_ms[4], 120.0);
        QCOMPARE(steps->storage_ms[2], 6.0);
        QCOMPARE(steps->world_size, 8);
        QCOMPARE(steps->ranks, 2);
        QCOMPARE(steps->gpu_name, QStringLiteral("NVIDIA A100-SXM4-80GB"));
        // Built-in profiles have none; a broken section is no series rather than a wrong one.
        QVERIFY(!stepSeries(cl::builtinProfiles().models.begin()->second));
        cl::ModelProfile broken = importedModel();
        broken.extra.edit()["kineto"]["steps"][2].erase("gpu_ms");
        QVERIFY(!stepSeries(broken));
    }

    void spreadFiguresAreQuartilesAndExtremes() {
        const auto f = ProfileSpreadChart::figuresOf({98.0, 100.0, 104.0, 101.0, 120.0});
        QCOMPARE(f.min, 98.0);
        QCOMPARE(f.max, 120.0);
        QCOMPARE(f.median, 101.0);
        QCOMPARE(f.q1, 100.0);  // nearest rank: ceil(0.25 * 5) = 2nd value
        QCOMPARE(f.q3, 104.0);  // ceil(0.75 * 5) = 4th value
    }

    void tableModelPassesTesterAndPicksGpuRows() {
        auto set = std::make_shared<const cl::ProfileSet>(mixedSet());
        ProfileTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProfiles(set);
        QCOMPARE(model.rowCount(), 3);
        const int bert = model.rowOf(QStringLiteral("bert"));
        const int llama = model.rowOf(QStringLiteral("llama-ft"));
        const int ncf = model.rowOf(QStringLiteral("ncf"));
        QCOMPARE(model.shownRow(bert)->gpus, 1);
        QCOMPARE(model.data(model.index(bert, ProfileTableModel::StorageColumn)).toString(),
                 QStringLiteral("0.50 (load+CPU)"));
        QCOMPARE(model.data(model.index(bert, ProfileTableModel::CpuColumn)).toString(),
                 QStringLiteral("in load+CPU"));
        QCOMPARE(model.data(model.index(llama, ProfileTableModel::GpuColumn), ProfileTableModel::SortRole)
                     .toDouble(),
                 80.0);
        QCOMPARE(model.steps(llama), 5);
        QCOMPARE(model.steps(ncf), 0);
        QVERIFY(
            std::isnan(model.data(model.index(ncf, ProfileTableModel::GpuColumn), ProfileTableModel::SortRole)
                           .toDouble()));
        QCOMPARE(model.data(model.index(ncf, ProfileTableModel::StagesColumn)).toString(),
                 QStringLiteral("iteration time only"));
        // At 8 GPUs bert has its own row; ncf, profiled at 1 only, keeps its nearest row and says so.
        model.setGpus(8);
        QCOMPARE(model.shownRow(bert)->gpus, 8);
        QCOMPARE(model.data(model.index(bert, ProfileTableModel::NetworkColumn), ProfileTableModel::SortRole)
                     .toDouble(),
                 59.0);
        QCOMPARE(model.shownRow(ncf)->gpus, 1);
        QVERIFY(model.data(model.index(ncf, ProfileTableModel::GpusColumn), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("nearest")));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void viewListsTheSetsAndDrawsEachModel() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        const std::int64_t builtin = store.putProfiles(cl::builtinProfiles());
        const std::int64_t mine = store.putProfiles(mixedSet());

        ProfilesView view;
        view.resize(1100, 700);
        QVERIFY(profileSetCombo(view)->count() == 0);
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("profilesSummary"))
                    ->text()
                    .contains(QStringLiteral("Open")));
        view.setStore(&store);
        QCOMPARE(profileSetCombo(view)->count(), 2);
        QCOMPARE(view.currentProfileSet(), mine);  // the newest set
        // The imported model is selected first: its spread is what only this view shows.
        QCOMPARE(view.selectedModel(), QStringLiteral("llama-ft"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // One bar per model in the table's order (by name), stacked by resource in ms.
        ProfileBreakdownChart* chart = breakdownChart(view);
        QCOMPARE(chart->bars().size(), std::size_t(3));
        QCOMPARE(chart->bars()[0].label, QStringLiteral("bert"));
        QCOMPARE(chart->drawnMs(0, StageResource::LoadCpu), 0.5);
        QCOMPARE(chart->drawnMs(0, StageResource::Gpu), 160.0);
        QCOMPARE(chart->drawnMs(0, StageResource::Storage), 0.0);
        QCOMPARE(chart->drawnMs(1, StageResource::Storage), 4.0);
        QCOMPARE(chart->drawnMs(1, StageResource::Cpu), 11.0);
        QCOMPARE(chart->drawnMs(1, StageResource::Network), 5.0);
        QVERIFY(chart->bars()[2].segments.empty());
        QCOMPARE(chart->bars()[2].iteration_s, 0.00776);
        QCOMPARE(chart->highlighted(), 1);
        QVERIFY(chart->categoryTips()[0].contains(QStringLiteral("load+CPU")));

        // The spread: five boxes over the five steps, the iteration box first.
        ProfileSpreadChart* spread = spreadChart(view);
        QVERIFY(spread->isVisible());
        QCOMPARE(spread->boxes().size(), std::size_t(5));
        QCOMPARE(spread->boxes()[0].values_ms, (std::vector<double>{98.0, 100.0, 104.0, 101.0, 120.0}));
        QCOMPARE(spread->boxes()[3].values_ms[4], 76.0);
        QVERIFY(spread->title().contains(QStringLiteral("5 training step")));

        // A click on bert's bar selects bert; it has no steps, so the spread gives way.
        chart->replot();
        const QPoint bertBar(chart->xAxis->coordToPixel(50.0), chart->yAxis->coordToPixel(0.0));
        QTest::mouseClick(chart, Qt::LeftButton, {}, bertBar);
        QCOMPARE(view.selectedModel(), QStringLiteral("bert"));
        QCOMPARE(chart->highlighted(), 0);
        QVERIFY(!spread->isVisible());

        // At 8 GPUs bert's bar is its 8-GPU row.
        view.setGpus(8);
        QCOMPARE(breakdownChart(view)->drawnMs(0, StageResource::Network), 59.0);
        QVERIFY(chart->title().contains(QStringLiteral("at 8 GPU")));

        // Sorting the table reorders the bars.
        profileTable(view)->sortByColumn(ProfileTableModel::IterationColumn, Qt::DescendingOrder);
        QCOMPARE(chart->bars()[0].label, QStringLiteral("bert"));
        QCOMPARE(chart->bars()[2].label, QStringLiteral("ncf"));

        // The other set: the built-in profiles' three stages.
        QVERIFY(view.showProfileSet(builtin));
        QCOMPARE(tableModel(view)->rowCount(), static_cast<int>(cl::builtinProfiles().models.size()));
        QVERIFY(!view.showProfileSet(9999));

        // A set stored later shows up on refresh; the chosen one stays chosen.
        cl::ProfileSet later = mixedSet();
        later.name = "later";
        later.models.erase("ncf");
        store.putProfiles(later);
        view.refresh();
        QCOMPARE(profileSetCombo(view)->count(), 3);
        QCOMPARE(view.currentProfileSet(), builtin);

        view.setStore(nullptr);
        QCOMPARE(tableModel(view)->rowCount(), 0);
        QVERIFY(chart->bars().empty());
    }

    // A 1366x768 laptop screen, the main window with its docks: the spread chart keeps room for
    // its boxes (at least 200 px, its plot area too), its value labels stand apart, and neither
    // showing nor hiding it paints into a zero-size device.
    void spreadChartHasRoomInA1366Window() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sqlite"));
        cl::ScenarioStore(path.toStdString()).putProfiles(mixedSet());
        const WarningRecorder recorder;
        {
            MainWindow window(MainWindow::Options{false});
            window.resize(1366, 740);  // the screen less the title bar
            // As `clusterloom --view profiles` starts: the view shown, then the workspace read.
            QVERIFY(window.showView(QStringLiteral("profiles")));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QString error;
            QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
            auto* view = namedChild<ProfilesView>(window, "profilesView");
            QCOMPARE(view->selectedModel(), QStringLiteral("llama-ft"));
            ProfileSpreadChart* spread = spreadChart(*view);
            QTRY_VERIFY(spread->isVisible());
            QCoreApplication::processEvents();
            spread->replot();
            qInfo("spread chart %dx%d, plot area %dx%d", spread->width(), spread->height(),
                  spread->axisRect()->width(), spread->axisRect()->height());
            QVERIFY2(spread->height() >= 200, qPrintable(QString::number(spread->height())));
            // The plot area takes most of it, the title and the box names (rotated when narrow) the
            // rest: an empty legend row once left it a strip of 30-40 px.
            QVERIFY2(spread->axisRect()->height() >= std::max(150, spread->height() / 2),
                     qPrintable(QStringLiteral("plot area %1 of %2 px")
                                    .arg(spread->axisRect()->height())
                                    .arg(spread->height())));
            // The value labels: each at least a line apart.
            const QVector<double> ticks = spread->yAxis->tickVector();
            QVERIFY(ticks.size() >= 2);
            const double apart =
                std::abs(spread->yAxis->coordToPixel(ticks[1]) - spread->yAxis->coordToPixel(ticks[0]));
            QVERIFY2(apart >= spread->fontMetrics().height() * 1.5, qPrintable(QString::number(apart)));
            // The breakdown's legend: every entry as wide as its swatch and name need, none under
            // the next.
            ProfileBreakdownChart* breakdown = breakdownChart(*view);
            breakdown->replot();
            QVERIFY(breakdown->legend->itemCount() >= 4);
            for (int i = 0; i < breakdown->legend->itemCount(); ++i) {
                QCPAbstractLegendItem* item = breakdown->legend->item(i);
                if (!item) continue;  // an empty cell of the legend's grid
                QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                         qPrintable(QStringLiteral("legend entry %1: %2 of %3 px")
                                        .arg(i)
                                        .arg(item->outerRect().width())
                                        .arg(item->minimumOuterSizeHint().width())));
                QVERIFY(breakdown->rect().contains(item->outerRect()));
            }
            // Away to a model without steps and back: the chart hides and shows again.
            profileTable(*view)->selectRow(0);
            QTRY_VERIFY(!spread->isVisible());
            QVERIFY(view->selectModel(QStringLiteral("llama-ft")));
            QTRY_VERIFY(spread->isVisible());
            QCoreApplication::processEvents();
            QVERIFY(spread->height() >= 200);
            window.hide();
        }
        const QStringList painting =
            WarningRecorder::containing({QStringLiteral("QPainter"), QStringLiteral("paint buffer")});
        QVERIFY2(painting.isEmpty(), qPrintable(painting.join(QLatin1Char('\n'))));
    }

    void bothThemesDrawLegibly() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        store.putProfiles(mixedSet());
        for (Theme theme : {Theme::Light, Theme::Dark}) {
            applyTheme(theme);
            ProfilesView view;
            view.resize(1100, 700);
            view.setStore(&store);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QCoreApplication::processEvents();
            // The charts take the page colour of the theme, and their bars show in the resource colours.
            const QColor base = view.palette().color(QPalette::Base);
            QCOMPARE(breakdownChart(view)->grab().toImage().pixelColor(2, 2), base);
            const QImage chart = breakdownChart(view)->grab().toImage();
            QVERIFY(cl::test::pixelsNear(chart, stageResourceColor(StageResource::Gpu), 2) > 100);
            QVERIFY(cl::test::pixelsNear(chart, base, 0) > chart.width() * chart.height() / 4);
            cl::test::shoot(view, shots(), QStringLiteral("profiles_%1.png").arg(themeName(theme)),
                            view.palette().color(QPalette::Text));
        }
        applyTheme(Theme::Light);
    }
};

QTEST_MAIN(TestProfilesView)
#include "test_profiles_view.moc"
