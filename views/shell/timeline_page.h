#pragma once
// The Timeline page: every GPU over time for the run selected in the Results, another run of
// the family below it on the same axis, and the selected job's interleaving group handed to
// the Interleaving page. A big run has millions of segments: the page reads its run on a
// worker thread, and only while it is shown.
#include <memory>
#include <vector>

#include <QPair>
#include <QString>
#include <QStringList>

#include "views/shell/main_window_page.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
template <typename T>
class QFutureWatcher;

namespace cl {
struct GroupingLog;
struct ProfileSet;
struct SimResult;
}  // namespace cl

namespace cl::views {

class ResultsView;
class TimelinePanel;
struct GroupingsExplained;

class TimelinePage : public MainWindowPage {
    Q_OBJECT

public:
    // `results` tells which runs the family has; `profiles` (the built-in set) draws no run.
    TimelinePage(const ResultsView* results, const cl::ProfileSet* profiles, QWidget* tabs, QObject* parent);
    // Cancels an explanation still being worked out (the worker would otherwise finish it unheard).
    ~TimelinePage() override;

    QWidget* widget() const override { return m_widget; }
    TimelinePanel* panel() const { return m_panel; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

    // The run selected in the Results (0: none), shown now or when the page is.
    void showRun(const QString& scenario, qint64 run);
    // The runs of the family changed: offer the others again below the shown one.
    void updateSecondRunChoices();
    // Stored runs were deleted, and their ids can be given to new runs: read the run again.
    void forgetRuns();

signals:
    // The timeline now shows this run (read in the background).
    void runLoaded(qint64 run);
    // The selected job's group, for the Interleaving page: names, stage times, solo times.
    void interleavingRequested(const QStringList& names, const std::vector<std::vector<double>>& stages,
                               const std::vector<double>& solo);
    // A run shown was stored without its GPU timeline (a plan point, docs/architecture.md 7.9
    // "Storage") and the user asked for one: simulate the scenario again, forced, storing the
    // segments. The first run's new run comes back through showRun (the Results select the
    // latest run of their selected scenario); the second run's replaces it below once listed.
    void simulateWithTimelineRequested(const QString& scenario);

protected:
    void activated() override;

private:
    QHBoxLayout* createBar();
    void update();
    void updateSecondRun();
    // The interleaving group of the job picked in the timeline.
    std::vector<int> interleavingGroupOf(int job) const;
    void sendGroupToInterleaving();
    void requestTimeline(int which);
    // Why Muri grouped the shown run's jobs (docs/architecture.md 5.1, "Why this grouping"):
    // the scenario simulated again on a worker with the grouping log on, cancellable.
    bool shownRunIsMuri() const;
    void resetGroupings();
    void toggleExplaining();
    void startExplaining();
    void explainingFinished();
    void showExplanation();

    const ResultsView* m_results = nullptr;
    const cl::ProfileSet* m_builtinProfiles = nullptr;
    QWidget* m_widget = nullptr;
    QComboBox* m_second = nullptr;
    QPushButton* m_toInterleaving = nullptr;
    QPushButton* m_explain = nullptr;
    QLabel* m_why = nullptr;  // the selected job's group, explained
    QFutureWatcher<GroupingsExplained>* m_explaining = nullptr;
    std::shared_ptr<const cl::GroupingLog> m_groupings;
    TimelinePanel* m_panel = nullptr;

    cl::ScenarioStore* m_store = nullptr;
    QString m_path;
    QPair<QString, qint64> m_wanted;  // the Results' selected scenario and run
    qint64 m_shown = 0;
    QString m_shownScenario;   // of m_shown
    QString m_secondScenario;  // of the run shown below
    QString m_followSecond;    // its new run replaces the second run once listed (see requestTimeline)
    qint64 m_loading = 0;      // run being read (0: none)
    int m_generation = 0;      // loads of older generations are dropped
    std::shared_ptr<const cl::SimResult> m_result;
    std::shared_ptr<const cl::ProfileSet> m_profiles;
    QString m_clusterKey;  // which GPUs the shown run used (cluster id / server count)
};

}  // namespace cl::views
