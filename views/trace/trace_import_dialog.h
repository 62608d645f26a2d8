#pragma once
// Imports a trace file: parses it as soon as a file is chosen, or shortly after a typed path
// stops changing, and shows a summary, a preview of the first jobs and the histograms, or the
// list of errors (each naming file, line and field). Only a previewed, valid file can be
// imported: Enter on a path not yet previewed previews it instead of importing. The dialog
// stores nothing; the caller takes trace() on accept.
#include <memory>

#include <QDialog>
#include <QStringList>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;

namespace cl::views {

class JobTableModel;
class TraceHistograms;

class TraceImportDialog : public QDialog {
    Q_OBJECT

public:
    static constexpr int kPreviewRows = 200;
    // How long a typed path must stay unchanged before it is read.
    static constexpr int kTypingPauseMs = 400;

    // The profile set (may be null) checks model names and must outlive the dialog.
    explicit TraceImportDialog(const cl::ProfileSet* profiles, QWidget* parent = nullptr);

    // Sets the path and parses the file with the chosen format; true on success.
    bool loadFile(const QString& path);
    void setFormat(const QString& format);  // "auto" or one of cl::traceFormatNames()
    void setSkipInvalidRows(bool skip);

    QString path() const;
    QString format() const;
    bool skipInvalidRows() const;
    QStringList errors() const { return m_errors; }
    QStringList warnings() const { return m_warnings; }
    std::shared_ptr<cl::Trace> trace() const { return m_trace; }
    // The file shown is the one named in the path field, and it is valid.
    bool canImport() const;
    // A typed path waits for its preview (the typing pause has not passed yet).
    bool isPreviewPending() const;

    // Imports only what canImport() allows.
    void accept() override;

public slots:
    // Parses the current path again with the current options.
    bool reload();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void browse();
    void showResult();
    void pathEdited();

    const cl::ProfileSet* m_profiles;
    std::shared_ptr<cl::Trace> m_trace;
    QStringList m_errors;
    QStringList m_warnings;
    QString m_detectedFormat;
    QString m_previewedPath;  // the path the shown result was read from
    QTimer* m_typingPause = nullptr;

    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QCheckBox* m_skip = nullptr;
    QLabel* m_summary = nullptr;
    QListWidget* m_problems = nullptr;
    QSplitter* m_previewArea = nullptr;
    QTableView* m_table = nullptr;
    JobTableModel* m_preview = nullptr;
    TraceHistograms* m_histograms = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_import = nullptr;
};

}  // namespace cl::views
