#pragma once
// Imports a trace file: parses it as soon as a file is chosen and shows a summary, a
// preview of the first jobs and the histograms, or the list of errors (each naming file,
// line and field). The dialog stores nothing; the caller takes trace() on accept.
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

namespace cl::views {

class JobTableModel;
class TraceHistograms;

class TraceImportDialog : public QDialog {
    Q_OBJECT

public:
    static constexpr int kPreviewRows = 200;

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
    bool canImport() const;

    JobTableModel* previewModel() const { return m_preview; }
    TraceHistograms* histograms() const { return m_histograms; }

public slots:
    // Parses the current path again with the current options.
    bool reload();

private:
    void browse();
    void showResult();

    const cl::ProfileSet* m_profiles;
    std::shared_ptr<cl::Trace> m_trace;
    QStringList m_errors;
    QStringList m_warnings;
    QString m_detected_format;

    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QCheckBox* m_skip = nullptr;
    QLabel* m_summary = nullptr;
    QListWidget* m_problems = nullptr;
    QSplitter* m_preview_area = nullptr;
    QTableView* m_table = nullptr;
    JobTableModel* m_preview = nullptr;
    TraceHistograms* m_histograms = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_import = nullptr;
};

}  // namespace cl::views
