#include "views/shell/cluster_page.h"

#include <QAction>
#include <QFileDialog>
#include <QKeySequence>
#include <QMessageBox>
#include <QSettings>

#include "core/model/cluster.h"
#include "views/cluster/cluster_diagram.h"
#include "views/cluster/cluster_editor.h"
#include "views/common/export_folder.h"
#include "views/topology_placement/placement_dialog.h"

namespace cl::views {

namespace {

const QString kSplitterKey = QStringLiteral("clusterEditor/splitter");

}  // namespace

ClusterPage::ClusterPage(QWidget* tabs, QObject* parent)
    : MainWindowPage(
          {QStringLiteral("cluster"), tr("Cluster"), "cluster", tr("Visual editor of the cluster layout")},
          parent),
      m_editor(new ClusterEditor(tabs)) {
    m_editor->setObjectName(QStringLiteral("clusterEditor"));
    m_exportJson = makeAction(this, "export", tr("Export Cluster as &JSON\u2026"), {},
                              tr("Write the edited cluster as a layout JSON file"));
    connect(m_exportJson, &QAction::triggered, this, &ClusterPage::exportJson);
    m_placement = makeAction(
        this, "run", tr("Topology &Placement\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
        tr("Compare the placement policies on the network of the cluster in the editor"));
    connect(m_placement, &QAction::triggered, this, &ClusterPage::openPlacementDialog);
}

QWidget* ClusterPage::widget() const {
    return m_editor;
}

PaintFunction ClusterPage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { renderWidget(p, r, m_editor->diagram()); };
}

void ClusterPage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    // Nothing of the previous workspace stays in the editor; the new one opens none.
    if (store) return;
    m_editor->setCluster(cl::Cluster{});
    m_editor->setWhatIfScenario({}, {});
}

void ClusterPage::saveSettings(QSettings& settings) const {
    settings.setValue(kSplitterKey, m_editor->splitterState());
}

void ClusterPage::restoreSettings(const QSettings& settings) {
    if (const QByteArray split = settings.value(kSplitterKey).toByteArray(); !split.isEmpty())
        m_editor->setSplitterState(split);
}

void ClusterPage::exportJson() {
    const QString name = QString::fromStdString(m_editor->cluster().name);
    const QString path = QFileDialog::getSaveFileName(m_editor->window(), tr("Export cluster"),
                                                      defaultExportPath(name + QStringLiteral(".json")),
                                                      tr("Cluster layout JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_editor->exportJson(path, &error))
        QMessageBox::warning(m_editor->window(), tr("Export cluster"),
                             tr("Cannot write %1:\n\n%2").arg(path, error));
    else
        emit logMessage(tr("Exported cluster %1 to %2").arg(name, path));
}

void ClusterPage::openPlacementDialog() {
    auto* dialog = new PlacementDialog(m_editor->cluster(), m_editor->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

}  // namespace cl::views
