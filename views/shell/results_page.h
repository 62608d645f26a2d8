#pragma once
// The Results page: the summary of the selected scenario family's runs and the GPU
// utilization of the selected one.
#include "views/shell/main_window_page.h"

namespace cl::views {

class ResultsView;

class ResultsPage : public MainWindowPage {
    Q_OBJECT

public:
    ResultsPage(QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    ResultsView* view() const { return m_view; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

private:
    ResultsView* m_view = nullptr;
};

}  // namespace cl::views
