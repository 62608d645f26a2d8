#include "views/trace/trace_import_dialog.h"

#include <algorithm>
#include <set>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "core/io/trace_readers.h"
#include "views/common/format.h"
#include "views/common/import_summary_label.h"
#include "views/trace/job_table_model.h"
#include "views/trace/trace_histograms.h"

namespace cl::views {

namespace {

constexpr int kMaxListedProblems = 1000;
const QString kSkippedSuffix = QStringLiteral(" (row skipped)");

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

// Restores the cursor however the parse ends.
struct WaitCursor {
    WaitCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QApplication::restoreOverrideCursor(); }
    WaitCursor(const WaitCursor&) = delete;
    WaitCursor& operator=(const WaitCursor&) = delete;
};

}  // namespace

TraceImportDialog::TraceImportDialog(const cl::ProfileSet* profiles, QWidget* parent)
    : QDialog(parent), m_profiles(profiles) {
    setWindowTitle(tr("Import Trace"));

    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("path"));
    m_path->setPlaceholderText(tr("Trace file (CSV or JSON)"));
    m_path->setToolTip(
        tr("The trace file to import; it is previewed when you stop typing (Enter previews at once)"));
    m_path->setClearButtonEnabled(true);
    auto* browse = new QPushButton(tr("&Browse\u2026"), this);
    browse->setToolTip(tr("Choose a trace file (Ctrl+O)"));
    browse->setShortcut(QKeySequence::Open);
    browse->setAutoDefault(false);
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("format"));
    for (const std::string& name : cl::traceFormatNames()) m_format->addItem(fromStd(name));
    m_format->setToolTip(
        tr("File format; \"auto\" detects it from the header and extension.\n"
           "alibaba: choose the job table, the task table is found beside it."));
    m_skip = new QCheckBox(tr("&Skip invalid rows"), this);
    m_skip->setObjectName(QStringLiteral("skipInvalidRows"));
    m_skip->setToolTip(tr("Import the valid rows and list every skipped row as a warning"));
    auto* reload_button = new QPushButton(tr("&Reload"), this);
    reload_button->setToolTip(tr("Read the file again (F5)"));
    reload_button->setShortcut(QKeySequence::Refresh);
    reload_button->setAutoDefault(false);

    auto* path_row = new QHBoxLayout;
    path_row->addWidget(m_path, 1);
    path_row->addWidget(browse);
    auto* options_row = new QHBoxLayout;
    options_row->addWidget(m_format);
    options_row->addSpacing(fontMetrics().averageCharWidth() * 3);
    options_row->addWidget(m_skip);
    options_row->addStretch(1);
    options_row->addWidget(reload_button);
    auto* form = new QFormLayout;
    auto* file_label = new QLabel(tr("&File:"), this);
    file_label->setBuddy(m_path);
    auto* format_label = new QLabel(tr("F&ormat:"), this);
    format_label->setBuddy(m_format);
    form->addRow(file_label, path_row);
    form->addRow(format_label, options_row);

    m_summary = importSummaryLabel(this);

    m_problems = new QListWidget(this);
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setToolTip(tr("Errors and skipped rows, each naming the file, line and field"));
    m_problems->setWordWrap(true);
    m_problems->setAlternatingRowColors(true);

    m_preview = new JobTableModel(this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_table = new QTableView(this);
    m_table->setModel(m_preview);
    m_table->setToolTip(tr("The first %1 jobs of the file").arg(kPreviewRows));
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() * 3 / 2);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_histograms = new TraceHistograms(this);
    m_histograms->setOrientation(Qt::Vertical);

    m_previewArea = new QSplitter(Qt::Horizontal, this);
    m_previewArea->addWidget(m_table);
    m_previewArea->addWidget(m_histograms);
    m_previewArea->setStretchFactor(0, 3);
    m_previewArea->setStretchFactor(1, 2);
    m_previewArea->setChildrenCollapsible(false);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = m_buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_import->setToolTip(tr("Add the trace to the workspace"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_problems, 1);
    layout->addWidget(m_previewArea, 4);
    layout->addWidget(m_buttons);

    connect(browse, &QPushButton::clicked, this, &TraceImportDialog::browse);
    connect(reload_button, &QPushButton::clicked, this, &TraceImportDialog::reload);
    // A typed path is read once the typing pauses; Enter before that is taken by eventFilter.
    m_typingPause = new QTimer(this);
    m_typingPause->setSingleShot(true);
    m_typingPause->setInterval(kTypingPauseMs);
    connect(m_typingPause, &QTimer::timeout, this, &TraceImportDialog::reload);
    connect(m_path, &QLineEdit::textChanged, this, &TraceImportDialog::pathEdited);
    m_path->installEventFilter(this);
    connect(m_format, &QComboBox::currentTextChanged, this, [this] {
        if (!m_path->text().trimmed().isEmpty()) reload();
    });
    connect(m_skip, &QCheckBox::toggled, this, [this] {
        if (!m_path->text().trimmed().isEmpty()) reload();
    });

    const QFontMetrics fm(font());
    resize(fm.averageCharWidth() * 160, fm.height() * 44);
    showResult();
}

QString TraceImportDialog::path() const {
    return m_path->text().trimmed();
}
QString TraceImportDialog::format() const {
    return m_format->currentText();
}
bool TraceImportDialog::skipInvalidRows() const {
    return m_skip->isChecked();
}
bool TraceImportDialog::canImport() const {
    return m_trace && m_errors.isEmpty() && !isPreviewPending() && m_previewedPath == path();
}

bool TraceImportDialog::isPreviewPending() const {
    return m_typingPause->isActive();
}

void TraceImportDialog::accept() {
    if (!canImport()) return;
    QDialog::accept();
}

void TraceImportDialog::pathEdited() {
    if (path() == m_previewedPath && !m_previewedPath.isEmpty()) {
        m_typingPause->stop();
        showResult();
        return;
    }
    // What is shown belongs to another path now: it can no longer be imported.
    m_trace.reset();
    m_errors.clear();
    m_warnings.clear();
    m_detectedFormat.clear();
    m_previewedPath.clear();
    if (path().isEmpty()) {
        m_typingPause->stop();
    } else {
        m_typingPause->start();
    }
    showResult();
}

bool TraceImportDialog::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_path && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        // Enter on a path whose preview is not shown yet previews it and stops there, so the
        // Import button (the dialog's default) is never pressed for an unseen file.
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) &&
            (isPreviewPending() || m_previewedPath != path())) {
            reload();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void TraceImportDialog::setFormat(const QString& format) {
    const QSignalBlocker block(m_format);
    m_format->setCurrentText(format);
}

void TraceImportDialog::setSkipInvalidRows(bool skip) {
    const QSignalBlocker block(m_skip);
    m_skip->setChecked(skip);
}

bool TraceImportDialog::loadFile(const QString& path) {
    m_path->setText(path);
    return reload();
}

void TraceImportDialog::browse() {
    const QString start = path().isEmpty() ? QString() : QFileInfo(path()).absolutePath();
    const QString chosen = QFileDialog::getOpenFileName(this, tr("Import Trace"), start,
                                                        tr("Traces (*.csv *.json *.txt);;All files (*)"));
    if (!chosen.isEmpty()) loadFile(chosen);
}

bool TraceImportDialog::reload() {
    m_typingPause->stop();
    m_previewedPath = path();
    m_trace.reset();
    m_errors.clear();
    m_warnings.clear();
    m_detectedFormat.clear();
    const std::string file = path().toStdString();
    const std::string format = m_format->currentText().toStdString();
    if (file.empty()) {
        showResult();
        return false;
    }
    const WaitCursor wait;
    std::vector<std::string> warnings;
    cl::TraceReadOptions opts;
    opts.profiles = m_profiles;
    opts.skip_invalid_rows = m_skip->isChecked();
    opts.warnings = &warnings;
    try {
        if (format == "auto") m_detectedFormat = fromStd(cl::detectTraceFormat(file));
        cl::Trace trace = cl::readTrace(file, format, opts);
        if (trace.jobs.empty())
            m_errors << tr("%1: the file holds no jobs").arg(path());
        else
            m_trace = std::make_shared<cl::Trace>(std::move(trace));
    } catch (const std::exception& e) {
        m_errors << QString::fromUtf8(e.what());
        if (!opts.skip_invalid_rows) {
            // Readers stop at the first bad row; a tolerant second pass lists all of them.
            std::vector<std::string> all;
            cl::TraceReadOptions tolerant = opts;
            tolerant.skip_invalid_rows = true;
            tolerant.warnings = &all;
            try {
                (void)cl::readTrace(file, format, tolerant);
                if (!all.empty()) {
                    m_errors.clear();
                    for (const std::string& w : all) {
                        QString message = fromStd(w);
                        if (message.endsWith(kSkippedSuffix)) message.chop(kSkippedSuffix.size());
                        m_errors << message;
                    }
                }
            } catch (const std::exception&) {
                // A whole-file error (header, syntax): the first message says it all.
            }
        }
        warnings.clear();
    }
    for (const std::string& w : warnings) m_warnings << fromStd(w);
    showResult();
    return canImport();
}

void TraceImportDialog::showResult() {
    const QLocale locale;
    m_problems->clear();
    const QStringList& problems = m_errors.isEmpty() ? m_warnings : m_errors;
    const int listed = std::min<int>(static_cast<int>(problems.size()), kMaxListedProblems);
    const QIcon icon = style()->standardIcon(m_errors.isEmpty() ? QStyle::SP_MessageBoxWarning
                                                                : QStyle::SP_MessageBoxCritical);
    for (int i = 0; i < listed; ++i) m_problems->addItem(new QListWidgetItem(icon, problems[i]));
    if (problems.size() > listed)
        m_problems->addItem(tr("\u2026 and %1 more").arg(locale.toString(problems.size() - listed)));
    m_problems->setVisible(!problems.isEmpty());

    if (m_trace) {
        m_preview->setTrace(m_trace, m_profiles, kPreviewRows);
        for (int c = JobTableModel::NameColumn; c < JobTableModel::ColumnCount; ++c)
            m_table->setColumnHidden(c, !m_preview->hasPlanningFields());
        m_histograms->setTrace(*m_trace, m_profiles);
    } else {
        m_preview->clear();
        m_histograms->clear();
    }
    m_previewArea->setVisible(m_trace != nullptr);
    m_import->setEnabled(canImport());

    if (path().isEmpty()) {
        m_summary->setText(tr("Choose a trace file to import (Ctrl+O)."));
        return;
    }
    const QString name = QFileInfo(path()).fileName().toHtmlEscaped();
    if (isPreviewPending()) {
        m_summary->setText(tr("<b>%1</b>: the preview follows when you stop typing (Enter: now).").arg(name));
        return;
    }
    if (!m_trace) {
        QString text = tr("<b>%1 cannot be imported.</b> ").arg(name);
        if (m_errors.size() > 1)
            text += tr("%1 rows are invalid; tick <i>Skip invalid rows</i> to import the others.")
                        .arg(locale.toString(m_errors.size()));
        else
            text += tr("Fix the file or choose another format.");
        m_summary->setText(text);
        return;
    }
    std::set<std::string> models;
    long long gpus = 0;
    for (const cl::Job& j : m_trace->jobs) {
        if (!j.model.empty()) models.insert(j.model);
        gpus += j.gpus;
    }
    QStringList model_names;
    for (const std::string& m : models) model_names << fromStd(m);
    if (model_names.size() > 8) model_names = model_names.mid(0, 8) << QStringLiteral("\u2026");
    const QString format =
        m_detectedFormat.isEmpty() ? m_format->currentText() : tr("%1 (detected)").arg(m_detectedFormat);
    QString text =
        tr("<b>%1</b>: %2 jobs requesting %3 GPUs, submitted over %4; format %5.")
            .arg(name, locale.toString(static_cast<qlonglong>(m_trace->jobs.size())), locale.toString(gpus),
                 formatDuration(m_trace->lastSubmit() - m_trace->firstSubmit()), format.toHtmlEscaped());
    text += QLatin1Char(' ');
    text += models.empty() ? tr("No model names (a model rule assigns them at run time).")
                           : tr("%n model(s): %1.", nullptr, static_cast<int>(models.size()))
                                 .arg(model_names.join(QStringLiteral(", ")).toHtmlEscaped());
    if (!m_warnings.isEmpty())
        text += tr(" <b>%n row(s) skipped</b> (listed above).", nullptr, static_cast<int>(m_warnings.size()));
    if (m_trace->jobs.size() > static_cast<std::size_t>(kPreviewRows))
        text += tr(" The table shows the first %1 jobs.").arg(kPreviewRows);
    m_summary->setText(text);
}

}  // namespace cl::views
