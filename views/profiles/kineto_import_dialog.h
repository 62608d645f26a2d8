#pragma once
// Imports a model profile from PyTorch profiler (Kineto) traces (docs/architecture.md section
// 8.6): the user picks one trace, or several (the ranks of one run), names the model and the
// profile set; the traces are read on a worker thread while a busy bar runs, and the breakdown
// (medians, per rank, per step, the spread over the steps) is shown before anything is stored.
// Store adds the model to the newest version of the named set in the workspace.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include <QDialog>
#include <QFutureWatcher>
#include <QStringList>

#include "core/model/kineto_profile.h"

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;

namespace cl {
class ScenarioStore;
}

namespace cl::views {

class KinetoFiguresModel;
class ProfileBreakdownChart;
class ProfileSpreadChart;

class KinetoImportDialog : public QDialog {
    Q_OBJECT

public:
    // How the dialog asks for trace files; tests replace the native file dialog by their own.
    using FileChooser = std::function<QStringList(QWidget* parent)>;

    // The store must outlive the dialog.
    explicit KinetoImportDialog(cl::ScenarioStore* store, QWidget* parent = nullptr);
    ~KinetoImportDialog() override;

    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }
    // Replaces the files and reads them (in the background).
    void setFiles(const QStringList& paths);
    QStringList files() const;
    void setModelName(const QString& name);
    QString modelName() const;
    void setProfileSetName(const QString& name);
    QString profileSetName() const;

    // Reading in progress.
    bool isReading() const;
    // The last read, when it succeeded.
    const std::optional<cl::KinetoProfile>& profile() const { return m_profile; }
    QString error() const { return m_error; }
    bool canStore() const;

    // After a successful Store: the stored set version and the model name.
    std::int64_t storedSetId() const { return m_storedSet; }

    // Stores, asking first when the set already has a model of that name (unless told not to).
    void accept() override;
    bool store(bool askBeforeReplacing = true);

signals:
    // A read has finished (successfully or not).
    void readFinished();
    // The model was stored in the set version set_id.
    void stored(qint64 set_id, const QString& model);

private:
    // The sections of the dialog, top to bottom; each makes its widgets.
    QHBoxLayout* makeFileRow();
    QComboBox* makeProfileSetCombo();
    QFormLayout* makeInputForm();
    QListWidget* makeWarningList();
    QSplitter* makeResults();
    QDialogButtonBox* makeButtons();
    void connectInputs();

    void chooseFiles();
    void removeSelected();
    void read();
    void showProfile();
    void showRank(int rank);
    void updateButtons();

    cl::ScenarioStore* m_store;
    FileChooser m_chooser;
    std::optional<cl::KinetoProfile> m_profile;
    QString m_error;
    bool m_nameTyped = false;  // the user typed a model name: a new read leaves it alone
    int m_generation = 0;      // reads of older generations are dropped
    std::int64_t m_storedSet = 0;
    QFutureWatcher<void>* m_watcher = nullptr;

    QListWidget* m_files = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_remove = nullptr;
    QLineEdit* m_name = nullptr;
    QComboBox* m_set = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_summary = nullptr;
    QListWidget* m_warnings = nullptr;
    QWidget* m_results = nullptr;
    KinetoFiguresModel* m_rankModel = nullptr;
    KinetoFiguresModel* m_stepModel = nullptr;
    QTableView* m_rankTable = nullptr;
    QTableView* m_stepTable = nullptr;
    ProfileBreakdownChart* m_breakdown = nullptr;
    ProfileSpreadChart* m_spread = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_storeButton = nullptr;
};

}  // namespace cl::views
