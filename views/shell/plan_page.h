#pragma once
// The Plan page: capacity planning, the cheapest cluster and policy that meet the targets,
// with the cost frontier, the cliff and the headroom (docs/architecture.md section 7.9).
#include "views/shell/main_window_page.h"

namespace cl::views {

class PlanView;

class PlanPage : public MainWindowPage {
    Q_OBJECT

public:
    PlanPage(QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    PlanView* view() const { return m_view; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

private:
    PlanView* m_view = nullptr;
};

}  // namespace cl::views
