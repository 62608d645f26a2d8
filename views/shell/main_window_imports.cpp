// MainWindow's imports of a planner's own data (docs/architecture.md sections 8.5 to 8.8): a
// Slurm cluster's job history and node inventory, and model profiles from PyTorch profiler
// traces. The dialogs read and show; what they give is stored here.
#include <exception>

#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include "core/sim/recorded_gpu_types.h"
#include "core/store/cluster_names.h"
#include "core/store/scenario_store.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/cluster_name_dialog.h"
#include "views/profiles/kineto_import_dialog.h"
#include "views/profiles/profiles_view.h"
#include "views/shell/cluster_page.h"
#include "views/shell/main_window.h"
#include "views/shell/profiles_page.h"
#include "views/shell/trace_page.h"
#include "views/slurm_import/slurm_import_dialog.h"
#include "views/trace/trace_browser.h"
#include "views/trace/trace_histograms.h"
#include "views/workspace/scenario_browser.h"

namespace cl::views {

QDialog* MainWindow::importProfilerTrace(const QStringList& paths) {
    if (!m_store) {
        statusBar()->showMessage(tr("Open a workspace first"), 5000);
        return nullptr;
    }
    auto* dialog = new KinetoImportDialog(m_store.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &KinetoImportDialog::stored, this, [this](qint64 set, const QString& model) {
        m_pages.profiles->showStoredProfile(set, model);
        log(tr("Imported the profile of %1 from profiler traces into profile set #%2").arg(model).arg(set));
        statusBar()->showMessage(tr("Profile %1 stored").arg(model), 5000);
    });
    if (!paths.isEmpty()) dialog->setFiles(paths);
    dialog->open();
    return dialog;
}

QDialog* MainWindow::importFromSlurm(const QString& sacctPath, const QString& nodesPath) {
    if (!m_store) {
        statusBar()->showMessage(tr("Open a workspace first"), 5000);
        return nullptr;
    }
    auto* dialog = new SlurmImportDialog(m_store.get(), m_profiles.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The trace browser's histograms, on the jobs as they would be imported.
    auto* histograms = new TraceHistograms(dialog);
    histograms->setToolTip(tr("GPU demand, run times and arrivals of the jobs the import keeps"));
    dialog->addPreviewTab(histograms, tr("Histo&grams"));
    connect(dialog, &SlurmImportDialog::previewTraceChanged, histograms,
            [histograms](std::shared_ptr<const cl::Trace> trace, const cl::ProfileSet* profiles) {
                if (trace && !trace->jobs.empty())
                    histograms->setTrace(*trace, profiles);
                else
                    histograms->clear();
            });
    connect(dialog, &QDialog::accepted, this, [this, dialog] { storeSlurmImport(*dialog); });
    if (!sacctPath.isEmpty()) dialog->setHistoryPath(sacctPath);
    if (!nodesPath.isEmpty()) dialog->setNodesPath(nodesPath);
    dialog->open();
    return dialog;
}

void MainWindow::storeSlurmImport(const SlurmImportDialog& dialog) {
    std::int64_t traceId = 0, clusterId = 0;
    std::shared_ptr<const cl::Trace> trace = dialog.trace();
    std::optional<cl::Cluster> cluster = dialog.cluster();
    try {
        if (trace && cluster) {
            // Accounting without typed GPUs: the type the job's servers mostly have, as
            // `import slurm` does (docs/architecture.md 8.8).
            auto typed = std::make_shared<cl::Trace>(*trace);
            const cl::ProfileSet none;
            const cl::RecordedGpuTypes types =
                cl::inferRecordedGpuTypes(*typed, *cluster, dialog.profiles() ? *dialog.profiles() : none);
            for (const auto& [type, jobs] : types.inferred)
                log(tr("%n job(s) without a recorded GPU type ran on %1, the type most of their servers have",
                       nullptr, static_cast<int>(jobs))
                        .arg(QString::fromStdString(type)));
            trace = std::move(typed);
        }
        if (trace) {
            traceId = m_store->putTrace(*trace);
            log(tr("Imported the Slurm history %1: %n job(s), stored as trace #%2", nullptr,
                   static_cast<int>(trace->jobs.size()))
                    .arg(QString::fromStdString(trace->name))
                    .arg(traceId));
        }
        if (cluster) {
            // A name a different stored cluster has is asked for first, as for any import
            // (docs/architecture.md section 9.3).
            if (cl::clusterNameClash(*m_store, *cluster)) {
                QStringList taken;
                for (const cl::StoredItem& stored : m_store->clusters())
                    taken << QString::fromStdString(stored.name);
                ClusterNameDialog names(QString::fromStdString(cluster->name), taken, this,
                                        ClusterNameDialog::Purpose::Import);
                if (names.exec() != QDialog::Accepted) {
                    log(tr("The Slurm cluster %1 was not stored: a different cluster has that name")
                            .arg(QString::fromStdString(cluster->name)));
                    cluster.reset();
                } else {
                    cluster->name = names.name().toStdString();
                }
            }
            if (cluster) {
                clusterId = m_store->putCluster(*cluster);
                log(tr("Imported the Slurm cluster %1: %n server(s), stored as cluster #%2", nullptr,
                       static_cast<int>(cluster->servers.size()))
                        .arg(QString::fromStdString(cluster->name))
                        .arg(clusterId));
            }
        }
        QString scenario;
        if (dialog.createScenario() && traceId > 0 && clusterId > 0) {
            std::int64_t profilesId = dialog.profileSetId();
            if (profilesId <= 0 && dialog.profiles()) profilesId = m_store->putProfiles(*dialog.profiles());
            cl::ScenarioSpec spec;
            spec.cluster_id = clusterId;
            spec.trace_id = traceId;
            spec.profiles_id = profilesId;
            // The replay of what happened (docs/architecture.md 4.8): Slurm's priority, main scheduler
            // and backfill on the jobs' partitions, checked on the Replay page (7.10) before a what-if.
            spec.policy = "slurm";
            spec.parameters.slurm_parameters = dialog.slurmParameters();
            spec.notes = "Imported from Slurm";
            const std::string base = "slurm/" + (trace ? trace->name : cluster->name);
            spec.name = base;
            for (int n = 2; m_store->findScenario(spec.name); ++n) spec.name = base + "-" + std::to_string(n);
            m_store->createScenario(spec);
            scenario = QString::fromStdString(spec.name);
            log(tr("Created scenario %1 (policy slurm, the replay of what happened); run it, compare "
                   "its starts with the recorded ones on the Replay page (Alt+0), then duplicate it as "
                   "a what-if")
                    .arg(scenario));
        }
        m_browser->refresh();
        if (!scenario.isEmpty()) {
            m_browser->selectScenario(scenario);
        } else if (trace) {
            m_pages.trace->showTrace(trace, traceId);
            showPage(m_pages.trace);
        }
        if (cluster && clusterId > 0 && scenario.isEmpty() && !trace && confirmDiscardEdits()) {
            clusterEditor()->setCluster(*cluster, clusterId);
            showPage(m_pages.cluster);
        }
        statusBar()->showMessage(tr("Slurm import stored"), 5000);
    } catch (const std::exception& e) {
        QMessageBox::warning(
            this, tr("Import from Slurm"),
            tr("The import was not stored completely:\n\n%1").arg(QString::fromStdString(e.what())));
        m_browser->refresh();
    }
}

}  // namespace cl::views
