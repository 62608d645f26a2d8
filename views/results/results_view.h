#pragma once
// The results of a family of scenarios side by side: every scenario whose name shares the
// selected one's first component ("demo/fifo", "demo/srtf", "demo/srtf/x2/fifo", ...), the
// latest run of each as one summary row, and the GPU utilization of the selected row's run.
// Reads the store; computes nothing.
#include <vector>

#include <QHash>
#include <QString>
#include <QWidget>

class QLabel;
class QTableView;

namespace cl {
class ScenarioStore;
struct ScenarioInfo;
struct SimResult;
}  // namespace cl

namespace cl::views {

class SummaryTableModel;
class UtilizationPlot;

class ResultsView : public QWidget {
    Q_OBJECT

public:
    explicit ResultsView(QWidget* parent = nullptr);

    void setStore(cl::ScenarioStore* store);
    // Shows the family of this scenario (empty: nothing) and selects its row.
    void showScenario(const QString& name);
    // Shows the family of the run's scenario and plots this run.
    void showRun(qint64 runId);
    // Re-reads the store for the current family (after runs finished).
    void refresh();
    // A run of this scenario is in progress (0..1 done), which the store does not know until it
    // ends: its row says "running" instead of its older figures or "not run". Cleared when the
    // run ends (clearRunProgress; no name: every run), before the refresh that shows its figures.
    void setRunProgress(const QString& scenario, double fractionDone);
    void clearRunProgress(const QString& scenario = {});

    // "demo/srtf/x2" -> "demo"; a name without '/' is its own family.
    static QString familyOf(const QString& scenarioName);

    QString family() const { return m_family; }
    // The family's scenarios run more than one trace (their figures compare workloads, not only
    // policies), and the trace a scenario runs.
    bool mixesTraces() const { return m_traceCount > 1; }
    QString traceOf(const QString& scenario) const { return m_traceOf.value(scenario); }
    qint64 plottedRun() const { return m_plottedRun; }
    UtilizationPlot* plot() const { return m_plot; }
    // The table is the child "resultsTable", its model "resultsModel".

    // Scenario and latest finished run id of each row that has one, in table order.
    QList<QPair<QString, qint64>> finishedRuns() const;
    // The summary table as CSV (scenario, policy, status and metrics in seconds).
    bool exportCsv(const QString& path, QString* error) const;

signals:
    // The selected row's latest finished run (0 when it has none).
    void runSelected(qint64 runId, const QString& scenario);
    // The user picked this row (not a refresh): the rest of the window follows the scenario.
    void scenarioPicked(const QString& scenario);
    // The family's rows or runs changed.
    void familyRefreshed();

private:
    // Which trace each of the family's scenarios runs (m_traceOf, m_traceCount), shown on the
    // rows when they differ.
    void nameTraces(const std::vector<cl::ScenarioInfo>& family);
    void plotRow(int row);
    void fitTableHeight();
    void explainInterleaving(const QString& name, const cl::SimResult& shared);

    cl::ScenarioStore* m_store = nullptr;
    QString m_family;
    QString m_selected;
    qint64 m_plottedRun = 0;
    QHash<QString, qint64> m_latestRun;  // scenario -> latest run id (0: none)
    QHash<QString, QString> m_policyOf;
    QHash<QString, QString> m_traceOf;  // scenario -> its trace's name
    int m_traceCount = 0;
    QHash<QString, double> m_runProgress;  // scenario -> fraction done, while it runs
    bool m_refreshing = false;             // the table's selection is being restored
    QLabel* m_title = nullptr;
    // Why the plotted interleaving run beat or lost to its exclusive counterpart in the family
    // (hidden when there is no such pair).
    QLabel* m_interleavingNote = nullptr;
    SummaryTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    UtilizationPlot* m_plot = nullptr;
};

}  // namespace cl::views
