#pragma once
// The Compare page: runs side by side against a baseline. The page keeps the user's choice of
// runs in the workspace file and writes the comparison report (File > Comparison Report).
#include <QStringList>

#include "views/shell/main_window_page.h"

namespace cl::views {

class ComparisonView;

class ComparePage : public MainWindowPage {
    Q_OBJECT

public:
    ComparePage(QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    ComparisonView* view() const { return m_view; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

    QAction* reportAction() const { return m_report; }
    // What File > Comparison Report writes, without its dialog.
    bool writeReport(const QString& path, QString* error);
    // The report's list of the compared scenarios: which inputs differ, then each scenario's
    // cluster, trace, policy, conventions, load and the other settings that set it apart.
    QStringList reportScenarios() const;

private:
    void askAndWriteReport();
    // The runs and baseline, per workspace file (docs/architecture.md section 9.2).
    void restoreSelection();
    void saveSelection();

    ComparisonView* m_view = nullptr;
    cl::ScenarioStore* m_store = nullptr;
    QAction* m_report = nullptr;
};

}  // namespace cl::views
