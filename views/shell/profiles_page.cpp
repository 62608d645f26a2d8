#include "views/shell/profiles_page.h"

#include "views/profiles/profiles_view.h"

namespace cl::views {

ProfilesPage::ProfilesPage(QWidget* tabs, QObject* parent)
    : MainWindowPage(
          {QStringLiteral("profiles"), tr("Profiles"), "import-trace",
           tr("The workspace's model profiles: time per iteration by resource, and the spread over "
              "training steps of profiles imported from profiler traces")},
          parent),
      m_view(new ProfilesView(tabs)) {
    m_view->setObjectName(QStringLiteral("profilesView"));
}

QWidget* ProfilesPage::widget() const {
    return m_view;
}

PaintFunction ProfilesPage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { m_view->paintExport(p, r); };
}

void ProfilesPage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    m_view->setStore(store);
}

void ProfilesPage::showStoredProfile(qint64 set, const QString& model) {
    m_view->refresh();
    m_view->showProfileSet(set);
    m_view->selectModel(model);
    emit showRequested();
}

}  // namespace cl::views
