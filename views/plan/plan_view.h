#pragma once
// The Plan view (docs/architecture.md 7.9): the planner's question asked in the GUI.
// Inputs on the left (trace, base cluster, profiles, candidate server types from data/server_types.json,
// policies, targets as rows, growth, seeds, budget, scenario prefix); a run on a worker thread
// with progress and cancel (ticked servers without a price are priced first, or knowingly left
// unpriced, in plan_price_dialog.h); the ranked candidates above the charts (frontier, cliff,
// queue over time) on the right; "Open as scenario" for any ranked row, and the plan as a PDF report.
// Inputs take the mouse wheel only once focused, so the wheel scrolls the inputs panel.
#include <map>
#include <memory>
#include <string>

#include <QWidget>

#include "core/planning/capacity_plan.h"
#include "core/store/scenario_store.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTabWidget;

namespace cl::views {

class PlanCliffPlot;
class PlanFrontierPlot;
class PlanQueuePlot;
class PlanTableModel;
class PlanTargetsEditor;
class PlanWork;

class PlanView : public QWidget {
    Q_OBJECT

public:
    explicit PlanView(QWidget* parent = nullptr);
    ~PlanView() override;

    // The open workspace (may be null); the store must outlive the view or be replaced first.
    void setStore(cl::ScenarioStore* store);
    // Reads the workspace's traces, clusters and profile sets again, keeping the choices.
    void refresh();
    // Takes trace, cluster and profiles from a stored scenario (the one selected elsewhere).
    void useScenarioInputs(const QString& scenario);

    // Starts the plan with the current inputs; false (and the reason shown) when they are not valid.
    bool runPlan();
    void cancelPlan();
    bool isRunning() const;
    // The scenario of the selected ranked row's plan at its first seed (empty when none).
    QString selectedScenario() const;
    // Shows a plan computed elsewhere (e.g. by `clusterloom plan` or a test) as if run here; its
    // scenarios are named with `prefix`. Not while a plan runs (its result would replace it).
    void showPlan(std::shared_ptr<const cl::PlanRequest> request,
                  std::shared_ptr<const cl::PlanReport> report, const QString& prefix);
    // Writes the plan (table, its notes, frontier, cliff, queue over time) as an A4 PDF report.
    bool exportReport(const QString& path, QString* error) const;

    std::shared_ptr<const cl::PlanReport> report() const { return m_report; }
    std::shared_ptr<const cl::PlanRequest> request() const { return m_request; }
    // The charts, which the main window exports.
    PlanFrontierPlot* frontierPlot() const { return m_frontier; }
    PlanCliffPlot* cliffPlot() const { return m_cliff; }
    PlanQueuePlot* queuePlot() const { return m_queue; }

signals:
    void openScenarioRequested(const QString& name);
    // A plan stored new scenarios (the workspace browser should refresh).
    void scenariosAdded();
    void planFinished(bool cancelled);
    // The plan stopped with an error (shown in the view), instead of planFinished.
    void planFailed(const QString& message);

private:
    void buildInputs(QWidget* panel);
    // The inputs of the last plan run, kept in the workspace's settings (architecture.md 9.2).
    void saveInputs();
    void restoreInputs();
    void onFinished(std::shared_ptr<const cl::PlanReport> report, bool cancelled);
    // The cliff and the queue of the selected ranked row (the queue of the cheapest plan when
    // the row has no answer).
    void showSelected();
    void updateButtons();
    // Names the base cluster's unpriced servers in the server-type list and unticks them.
    void showBasePrice();
    // When servers of `request` have no price, asks for prices (plan_price_dialog.h) and puts the
    // ones entered into the request; false when the planner cancels (nothing is to run). `note`
    // tells which prices were entered, for the status line.
    bool settlePrices(cl::PlanRequest& request, QString* note);

    cl::ScenarioStore* m_store = nullptr;
    std::shared_ptr<const cl::PlanRequest> m_request;
    std::shared_ptr<const cl::PlanReport> m_report;
    QString m_reportPrefix;
    PlanWork* m_work = nullptr;
    // The price dialog's answers this session, never stored (its prices are for plans only): the
    // prices last entered per server kind prefill it, and "Don't ask again" keeps the choice.
    std::map<std::string, cl::ServerPrice> m_sessionPrices;
    enum class PriceAnswer { Ask, WithPrices, ByGpuCount };
    PriceAnswer m_priceAnswer = PriceAnswer::Ask;

    QComboBox* m_trace = nullptr;
    QComboBox* m_cluster = nullptr;
    QComboBox* m_profiles = nullptr;
    QListWidget* m_serverTypes = nullptr;  // the candidate server types, by preset id
    QListWidget* m_policies = nullptr;
    PlanTargetsEditor* m_targets = nullptr;
    QDoubleSpinBox* m_loadFactor = nullptr;
    QSpinBox* m_seeds = nullptr;
    QDoubleSpinBox* m_budget = nullptr;
    QLineEdit* m_prefix = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_table = nullptr;
    PlanTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_export = nullptr;
    QTabWidget* m_charts = nullptr;
    PlanFrontierPlot* m_frontier = nullptr;
    PlanCliffPlot* m_cliff = nullptr;
    PlanQueuePlot* m_queue = nullptr;
};

}  // namespace cl::views
