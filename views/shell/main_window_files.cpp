// MainWindow's file actions: workspaces, imports, generated and transformed traces, the
// edited cluster, exports, and files dropped on the window.
#include <exception>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUrl>

#include "core/io/layout_io.h"
#include "core/store/cluster_names.h"
#include "core/store/scenario_store.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/cluster_name_dialog.h"
#include "views/common/export_folder.h"
#include "views/results/results_view.h"
#include "views/shell/cluster_page.h"
#include "views/shell/main_window.h"
#include "views/shell/results_page.h"
#include "views/shell/trace_page.h"
#include "views/trace/trace_browser.h"
#include "views/trace/trace_generator_dialog.h"
#include "views/trace/trace_import_dialog.h"
#include "views/workspace/scenario_browser.h"

namespace cl::views {

namespace {

// Our layout JSON names its format; a Muri cluster spec CSV starts with its header. Anything
// else dropped on the window is taken for a trace.
bool looksLikeLayout(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    const QByteArray head = file.read(4096);
    return head.contains("clusterloom-cluster") || head.contains("\"server_groups\"") ||
           head.contains("\"servers\"") || head.startsWith("num_switch");
}

QStringList storedClusterNames(cl::ScenarioStore& store) {
    QStringList names;
    for (const cl::StoredItem& stored : store.clusters()) names << QString::fromStdString(stored.name);
    return names;
}

}  // namespace

void MainWindow::newWorkspace() {
    QFileDialog dialog(this, tr("New workspace"), defaultExportFolder(),
                       tr("ClusterLoom workspaces (*.sqlite);;All files (*)"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(QStringLiteral("sqlite"));
    // An existing file is never overwritten; it is offered for opening below instead.
    dialog.setOption(QFileDialog::DontConfirmOverwrite);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return;
    const QString path = dialog.selectedFiles().first();
    if (QFileInfo::exists(path)) {
        const auto answer = QMessageBox::question(
            this, tr("New workspace"),
            tr("%1 already exists. Open it instead? (It is not overwritten.)").arg(path),
            QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Open);
        if (answer != QMessageBox::Open) return;
    }
    QString error;
    if (!openWorkspace(path, Demo::No, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("New workspace"), error);
}

void MainWindow::chooseWorkspace() {
    const QString start = m_path.isEmpty() ? defaultExportFolder() : QFileInfo(m_path).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open workspace"), start, tr("ClusterLoom workspaces (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!openWorkspace(path, Demo::No, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Open workspace"), tr("Cannot open %1:\n\n%2").arg(path, error));
}

QDialog* MainWindow::importTrace(const QString& path) {
    if (!m_store) return nullptr;
    auto* dialog = new TraceImportDialog(m_profiles.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!path.isEmpty()) dialog->loadFile(path);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (auto trace = dialog->trace()) storeNewTrace(*trace, tr("Imported"));
    });
    dialog->open();
    return dialog;
}

void MainWindow::storeNewTrace(const cl::Trace& trace, const QString& what) {
    try {
        const std::int64_t id = m_store->putTrace(trace);
        m_browser->refresh();
        // The shown trace keeps the stored id it had (the id names the scenario's trace).
        m_pages.trace->showTrace(std::make_shared<const cl::Trace>(trace), m_pages.trace->storedTraceId());
        showPage(m_pages.trace);
        log(tr("%1 trace %2 (%n job(s)), stored as #%3", nullptr, static_cast<int>(trace.jobs.size()))
                .arg(what, QString::fromStdString(trace.name))
                .arg(id));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Store trace"),
                             tr("The trace was not stored:\n\n%1").arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::chooseLayoutToImport() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import cluster layout"), defaultExportFolder(),
                                     tr("Cluster layouts (*.json *.csv);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!importLayout(path, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Import cluster layout"), error);
}

bool MainWindow::importLayout(const QString& path, QString* error) {
    if (!m_store) {
        if (error) *error = tr("No workspace is open.");
        return false;
    }
    if (!confirmDiscardEdits()) return false;
    try {
        cl::Cluster cluster = cl::readCluster(path.toStdString());
        // Like Save: a layout whose name a different stored cluster has is named first, so the
        // workspace never holds two clusters of one name (docs/architecture.md section 9.3).
        // Identical content is the stored cluster again and asks nothing.
        if (cl::clusterNameClash(*m_store, cluster)) {
            ClusterNameDialog dialog(QString::fromStdString(cluster.name), storedClusterNames(*m_store), this,
                                     ClusterNameDialog::Purpose::Import);
            if (dialog.exec() != QDialog::Accepted) {
                if (error) error->clear();
                log(tr("Import of %1 cancelled: a different cluster named %2 is already stored")
                        .arg(path, QString::fromStdString(cluster.name)));
                return false;
            }
            cluster.name = dialog.name().toStdString();
        }
        const std::int64_t id = m_store->putCluster(cluster);
        clusterEditor()->setCluster(cluster, id);
        m_browser->refresh();
        showPage(m_pages.cluster);
        log(tr("Imported cluster %1 from %2, stored as #%3")
                .arg(QString::fromStdString(cluster.name), path)
                .arg(id));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = tr("Cannot import %1:\n\n%2").arg(path, QString::fromStdString(e.what()));
        log(tr("Cannot import %1: %2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
}

bool MainWindow::saveCluster(QString* error) {
    if (!m_store) {
        if (error) *error = tr("No workspace is open.");
        return false;
    }
    ClusterEditor* editor = clusterEditor();
    const QString invalid = editor->validationError();
    if (!invalid.isEmpty()) {
        if (error) *error = tr("The cluster cannot be saved: %1").arg(invalid);
        return false;
    }
    if (!editor->isModified() && editor->storedClusterId() != 0) {
        statusBar()->showMessage(tr("The cluster is already stored (#%1)").arg(editor->storedClusterId()),
                                 5000);
        return true;
    }
    try {
        // Content identical to a stored cluster is that cluster again; new content under a
        // name a stored cluster has would be a second cluster of that name: it is named first.
        if (cl::clusterNameClash(*m_store, editor->cluster())) {
            ClusterNameDialog dialog(QString::fromStdString(editor->cluster().name),
                                     storedClusterNames(*m_store), this);
            if (dialog.exec() != QDialog::Accepted) {
                if (error) error->clear();
                return false;
            }
            editor->document()->renameCluster(dialog.name());
        }
        const cl::Cluster cluster = editor->cluster();
        const std::int64_t id = m_store->putCluster(cluster);
        editor->markSaved(id);
        m_browser->refresh();
        updateTitle();
        log(tr("Stored cluster %1 as #%2 (%3 GPUs). Duplicate a scenario as a what-if to run on it.")
                .arg(QString::fromStdString(cluster.name))
                .arg(id)
                .arg(cluster.totalGpus()));
        statusBar()->showMessage(tr("Cluster stored"), 5000);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = tr("The cluster was not stored: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
}

void MainWindow::generateTrace() {
    if (!m_store) return;
    auto* dialog = new TraceGeneratorDialog(m_profiles.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (auto trace = dialog->trace()) storeNewTrace(*trace, tr("Generated"));
    });
    dialog->open();
}

void MainWindow::exportResultsCsv() {
    ResultsView* results = m_pages.results->view();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export results"), defaultExportPath(results->family() + QStringLiteral(".csv")),
        tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!results->exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export results"), tr("Cannot write %1:\n\n%2").arg(path, error));
    else
        log(tr("Exported results of %1 to %2").arg(results->family(), path));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!m_store || !event->mimeData()->hasUrls()) return;
    for (const QUrl& url : event->mimeData()->urls()) {
        const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
        if (url.isLocalFile() && (suffix == QLatin1String("csv") || suffix == QLatin1String("json"))) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    event->acceptProposedAction();
    // Dialogs open after the drop has returned, so the drag source is not left waiting.
    QTimer::singleShot(0, this, [this, paths] {
        for (const QString& path : paths) {
            if (looksLikeLayout(path)) {
                QString error;
                if (!importLayout(path, &error) && !error.isEmpty())
                    QMessageBox::warning(this, tr("Import cluster layout"), error);
            } else {
                importTrace(path);
                break;  // one import dialog at a time
            }
        }
    });
}

}  // namespace cl::views
