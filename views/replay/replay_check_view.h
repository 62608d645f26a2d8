#pragma once
// The replay check in the GUI (docs/architecture.md 7.10): before planning with a replay of a
// recorded cluster, how closely does the replay follow the record? Pick a scenario whose trace
// recorded its jobs' starts and that has a finished run; the view shows the verdict, the figures
// (overall and per partition), the recorded and simulated wait distributions, every job's
// simulated against its recorded start, and the jobs the replay got most wrong. It reads the
// stored run and computes nothing but the check itself (core/metrics/replay_check.h).
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <QWidget>

#include "core/metrics/replay_check.h"

class QComboBox;
class QLabel;
class QPainter;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTableWidget;

namespace cl {
class ScenarioStore;
}

namespace cl::views {

class ReplayJobsModel;
class ReplayStartScatter;
class ReplayWaitCdf;

class ReplayCheckView : public QWidget {
    Q_OBJECT

public:
    explicit ReplayCheckView(QWidget* parent = nullptr);

    // The open workspace (may be null); the store must outlive the view or be replaced first.
    void setStore(cl::ScenarioStore* store);
    // Lists the checkable scenarios again (runs may have finished), keeping the choice.
    void refresh();
    // Lists the scenarios and shows this one's check; false when it cannot be checked (no
    // finished run, or its trace recorded no starts), with the reason shown.
    bool showScenario(std::int64_t scenarioId);
    // The scenario shown (0: none).
    std::int64_t currentScenario() const;
    std::shared_ptr<const cl::ReplayCheck> check() const { return m_check; }

    // The view at rect of an export painter (logical pixels).
    void paintExport(QPainter& painter, const QRectF& rect);

private:
    void buildContent(QWidget* content);
    void loadCurrent();
    void showCheck(std::shared_ptr<const cl::ReplayCheck> check);
    void fillFigures(const cl::ReplayCheck& check);
    // Whether the stored trace has a job with a recorded start (cached by content hash).
    bool traceHasRecordedStarts(std::int64_t traceId, const std::string& contentHash);

    cl::ScenarioStore* m_store = nullptr;
    std::map<std::string, bool> m_recordedTraces;  // trace content hash -> has recorded starts
    std::shared_ptr<const cl::ReplayCheck> m_check;
    std::int64_t m_shownRun = 0;  // the run m_check is of (0: none)
    // The scenario showScenario asked for: offered by refresh() even if a plan's point.
    std::int64_t m_requested = 0;

    QComboBox* m_scenarios = nullptr;
    QLabel* m_run = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_empty = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_notes = nullptr;
    QTableWidget* m_figures = nullptr;
    ReplayWaitCdf* m_cdf = nullptr;
    ReplayStartScatter* m_scatter = nullptr;
    ReplayJobsModel* m_jobs = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_jobsTable = nullptr;
};

}  // namespace cl::views
