#pragma once
// The comparison view (docs/architecture.md section 7.5): any selection of stored runs side by
// side, as the papers show them — bars normalized to a baseline run (Muri Tables 4-5, Synergy
// Table 5), JCT CDFs, average JCT per model and for large vs small jobs, average JCT against offered load
// (Synergy Fig. 9) — over the comparison table.
#include <vector>

#include <QHash>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "core/model/sim_result.h"
#include "views/common/themed_plot.h"
#include "views/results/comparison_model.h"
#include "views/results/run_breakdown.h"

class QCheckBox;
class QComboBox;
class QCPItemText;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPainter;
class QRectF;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace cl {
class ScenarioStore;
struct ScenarioInfo;
}  // namespace cl

namespace cl::views {

// Jobs per hour the trace offers: (jobs - 1) over the span from the first to the last
// submission. NaN with fewer than two jobs or when they all arrive at once.
double offeredLoadPerHour(const std::vector<cl::JobRecord>& jobs);

class ComparisonView : public QWidget {
    Q_OBJECT

public:
    enum Chart { NormalizedChart = 0, CdfChart, ModelChart, SizeChart, LoadChart, ChartCount };

    explicit ComparisonView(QWidget* parent = nullptr);
    ~ComparisonView() override;

    // Lists the store's finished runs and compares the default selection (see
    // setFocusScenario). nullptr clears the view. The store must outlive the view or be
    // replaced first.
    void setStore(cl::ScenarioStore* store);
    // The scenario selected in the workspace. Until the user ticks runs or picks a baseline,
    // or a selection is restored, the view compares the latest run of each scenario of its
    // family (ResultsView::familyOf) that ran the same trace, with the scenario's own run as
    // the baseline, or for a what-if the run of the scenario it was made from: runs of other
    // workloads are not divided by it unasked.
    void setFocusScenario(const QString& name);
    // Re-reads the run list (after runs were added or deleted). A chosen selection is kept, a
    // scenario run again shows its newest run, and the first run of a new scenario of the
    // baseline's family and trace (a what-if just run) is ticked.
    void refreshRuns();
    // Compares exactly these runs, in this order (ids the store does not know are skipped).
    void setRuns(const QList<qint64>& runIds);
    // Puts back a remembered selection: runs of scenarios run again since are replaced by
    // their newest run. Counts as the user's choice.
    void restoreSelection(const QList<qint64>& runIds, qint64 baselineRunId);
    // True once the user ticked runs or picked the baseline (or a selection was restored).
    bool isUserSelection() const { return m_userChose; }
    // The visible warning shown when the compared runs ran different traces; empty if none.
    QString traceWarning() const;
    QList<qint64> runs() const;
    void setBaselineRun(qint64 runId);
    qint64 baselineRun() const;  // 0 without runs

    void setCurrentChart(Chart chart);
    Chart currentChart() const;
    // Jobs with more GPUs than this are large (default kDefaultLargeJobThreshold).
    void setLargeJobThreshold(int gpus);
    int largeJobThreshold() const;
    void setLogTimeAxis(bool on);  // the CDF's x axis
    bool logTimeAxis() const;

    // Draws the current chart with this title and its legend into rect, as vectors.
    void paintExport(QPainter& painter, const QRectF& rect, const QString& title);

    ComparisonModel* model() const { return m_model; }
    // The table the PDF report lays out on an A4 page: the model's headline columns, up to the
    // average queueing and its ratio. The p95 queueing and the cost follow it in the report as
    // reportTailAndCostHtml(), since all fourteen columns do not fit a portrait page.
    const QAbstractItemModel* reportTable() const { return m_reportTable; }
    QString reportTailAndCostHtml() const;
    QString message() const;  // the banner text; empty when hidden

    // What the charts plot, read back from the plots (row = the model's row).
    double normalizedBar(int row, ComparisonModel::Metric metric) const;
    QVector<QPointF> cdfPoints(int row) const;
    QStringList plottedModels() const;
    double modelBar(int row, const QString& model) const;  // seconds; NaN without a bar
    double sizeBar(int row, bool large) const;             // seconds; NaN without a bar
    SizeSplit sizeSplit(int row) const;
    // The load chart: its lines (legend order: a policy, or "policy on cluster" when the runs
    // used several clusters) and each one's points, x in jobs per hour, y in hours, sorted by
    // x; the note above it (runs left out, or a hint), empty when none.
    QStringList loadPolicies() const;
    QVector<QPointF> loadPoints(const QString& policy) const;
    QString loadNote() const;

    QSize sizeHint() const override;

signals:
    void runsChanged(const QList<qint64>& runIds);
    void baselineRunChanged(qint64 runId);
    // The user ticked or unticked a run or picked another baseline.
    void selectionEdited();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractItemModel* m_reportTable = nullptr;
    struct ValueLabel {
        QCPItemText* item = nullptr;
        double key = 0.0;
        double value = 0.0;
    };
    struct BarLayout {
        std::vector<ValueLabel> labels;
        double bar_width = 0.0;  // in key units
        double top = 0.0;        // largest bar
        double floor_top = 0.0;  // the y range never ends below this (the baseline line)
    };

    void buildUi();
    void fillRunList(const QList<qint64>& checked);
    QList<qint64> latestRuns();
    // What setFocusScenario describes; *baseline gets the focus scenario's run (0: none).
    QList<qint64> defaultSelection(qint64* baseline);
    // The scenario a what-if was made from (by its name) if it has a run in `latest` on the
    // same trace, else the scenario itself.
    qint64 whatIfSourceOf(const cl::ScenarioInfo& scenario, const QList<qint64>& latest,
                          const QHash<qint64, qint64>& scenarioOfRun);
    void applyDefaultSelection();
    void updateTraceWarning();
    void onItemChanged(QListWidgetItem* item);
    void loadSelection();
    void showMessage(const QString& text);
    void syncBaselineCombo();
    void rebuildAll();
    void rebuildNormalized();
    void rebuildCdf();
    void rebuildModels();
    void rebuildSizes();
    void rebuildLoad();
    void preparePlot(Chart chart, const QString& title);
    void addGroupedBars(Chart chart, const QStringList& categories,
                        const std::vector<std::vector<double>>& values,
                        const std::vector<QStringList>& labels, const std::vector<QStringList>& tips);
    void layoutLabels(Chart chart, QSizeF axisRectSize);
    void fitLabelsToWidget(Chart chart);
    void showBarTip(Chart chart, const QPoint& pos);

    cl::ScenarioStore* m_store = nullptr;
    QList<qint64> m_selected;
    QHash<qint64, cl::SimResult> m_loaded;  // results of selected runs, so toggling is cheap
    ComparisonModel* m_model = nullptr;
    std::vector<SizeSplit> m_splits;

    QListWidget* m_runList = nullptr;
    QComboBox* m_baseline = nullptr;
    QTabWidget* m_tabs = nullptr;
    QCheckBox* m_logX = nullptr;
    QSpinBox* m_threshold = nullptr;
    QLabel* m_sizeCounts = nullptr;
    QLabel* m_loadNote = nullptr;
    QLabel* m_banner = nullptr;
    QLabel* m_traceWarning = nullptr;
    QTableView* m_table = nullptr;
    ThemedPlot* m_plots[ChartCount] = {};  // objectNames "comparisonPlot0" ... by Chart
    BarLayout m_bars[ChartCount];
    std::vector<std::vector<QString>> m_barTips[ChartCount];  // [series][key index]
    QStringList m_models;
    bool m_filling = false;
    QString m_focus;                // the workspace's selected scenario
    bool m_userChose = false;       // the selection is the user's (or restored), not the default
    QSet<qint64> m_knownScenarios;  // scenarios with a finished run at the last refresh
};

}  // namespace cl::views
