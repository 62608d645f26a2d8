#pragma once
// The Profiles page: the workspace's model profiles, time per iteration by resource and the
// spread over training steps of profiles imported from profiler traces.
#include <QString>

#include "views/shell/main_window_page.h"

namespace cl::views {

class ProfilesView;

class ProfilesPage : public MainWindowPage {
    Q_OBJECT

public:
    ProfilesPage(QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    ProfilesView* view() const { return m_view; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

    // Shows a profile just stored in this profile set, and asks to be shown.
    void showStoredProfile(qint64 set, const QString& model);

private:
    ProfilesView* m_view = nullptr;
};

}  // namespace cl::views
