#pragma once
// The Trace page: the browser of the shown trace (the selected scenario's, or one opened from
// the workspace) and File > Transform Trace, which makes a new trace of it.
#include <memory>

#include "core/model/trace.h"
#include "views/shell/main_window_page.h"

namespace cl {
struct ProfileSet;
}

namespace cl::views {

class TraceBrowser;

class TracePage : public MainWindowPage {
    Q_OBJECT

public:
    // `profiles` (the built-in set) names the jobs' models in the browser.
    TracePage(const cl::ProfileSet* profiles, QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    TraceBrowser* browser() const { return m_browser; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

    // Shows a trace; `storedId` is its id in the workspace (0: none or not stored).
    void showTrace(std::shared_ptr<const cl::Trace> trace, qint64 storedId);
    qint64 storedTraceId() const { return m_storedId; }
    QAction* transformAction() const { return m_transform; }

signals:
    // The user made a new trace of the shown one; the window stores it.
    void traceMade(const cl::Trace& trace, const QString& how);

private:
    void transform();

    const cl::ProfileSet* m_profiles = nullptr;
    TraceBrowser* m_browser = nullptr;
    cl::ScenarioStore* m_store = nullptr;
    std::shared_ptr<const cl::Trace> m_trace;
    qint64 m_storedId = 0;
    QAction* m_transform = nullptr;
};

}  // namespace cl::views
