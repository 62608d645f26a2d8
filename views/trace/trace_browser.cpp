#include "views/trace/trace_browser.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/trace/job_filter_proxy.h"
#include "views/trace/job_table_model.h"
#include "views/trace/trace_histograms.h"

namespace cl::views {

namespace {

// Combo item data: a model name, or one of these markers.
const QString kAnyModel = QStringLiteral("\x01any");
const QString kNoModel = QStringLiteral("\x01none");
constexpr int kFilterDelayMs = 120;

}  // namespace

TraceBrowser::TraceBrowser(QWidget* parent) : QWidget(parent) {
    m_jobs = new JobTableModel(this);
    m_jobs->setObjectName(QStringLiteral("jobModel"));
    m_proxy = new JobFilterProxy(this);
    m_proxy->setObjectName(QStringLiteral("jobFilter"));
    m_proxy->setSourceModel(m_jobs);

    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("modelFilter"));
    m_model->setToolTip(tr("Show only the jobs of one model"));
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_minGpus = new QSpinBox(this);
    m_minGpus->setObjectName(QStringLiteral("minGpus"));
    m_minGpus->setToolTip(tr("Show only jobs that request at least this many GPUs"));
    m_maxGpus = new QSpinBox(this);
    m_maxGpus->setObjectName(QStringLiteral("maxGpus"));
    m_maxGpus->setToolTip(tr("Show only jobs that request at most this many GPUs"));
    for (QSpinBox* box : {m_minGpus, m_maxGpus}) {
        box->setRange(1, 1);
        box->setAccelerated(true);
    }
    m_from = new QDoubleSpinBox(this);
    m_from->setObjectName(QStringLiteral("timeFrom"));
    m_from->setToolTip(tr("Show only jobs submitted at or after this time (from the trace start)"));
    m_to = new QDoubleSpinBox(this);
    m_to->setObjectName(QStringLiteral("timeTo"));
    m_to->setToolTip(tr("Show only jobs submitted at or before this time (from the trace start)"));
    for (QDoubleSpinBox* box : {m_from, m_to}) {
        box->setDecimals(2);
        box->setAccelerated(true);
        box->setKeyboardTracking(false);
    }
    m_reset = new QToolButton(this);
    m_reset->setText(tr("&Reset"));
    m_reset->setToolTip(tr("Show all jobs again (Ctrl+Shift+R)"));
    m_reset->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("jobCount"));
    m_count->setToolTip(tr("Jobs that pass the filter, of all jobs in the trace"));

    auto* bar = new QHBoxLayout;
    auto addLabeled = [&](const QString& text, QWidget* field) {
        auto* label = new QLabel(text, this);
        label->setBuddy(field);
        bar->addWidget(label);
        bar->addWidget(field);
    };
    addLabeled(tr("&Model:"), m_model);
    bar->addSpacing(fontMetrics().averageCharWidth() * 2);
    addLabeled(tr("&GPUs:"), m_minGpus);
    addLabeled(tr("to"), m_maxGpus);
    bar->addSpacing(fontMetrics().averageCharWidth() * 2);
    addLabeled(tr("&Submitted from:"), m_from);
    addLabeled(tr("to"), m_to);
    bar->addWidget(m_reset);
    bar->addStretch(1);
    bar->addWidget(m_count);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("jobTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);  // trace order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setVisible(false);
    // Fixed row heights: the view never measures 100,000 rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + fontMetrics().height() / 2);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    const int ch = fontMetrics().averageCharWidth();
    const int widths[] = {10, 16, 7, 20, 11, 13, 11, 12, 20, 12, 12, 10};
    static_assert(std::size(widths) == JobTableModel::ColumnCount, "a width per column");
    for (int c = 0; c < JobTableModel::ColumnCount; ++c) header->resizeSection(c, widths[c] * ch + 2 * ch);
    m_table->setToolTip(tr("Jobs of the trace; click a column header to sort"));

    m_histograms = new TraceHistograms(this);
    m_histograms->setObjectName(QStringLiteral("histograms"));

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_histograms);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kFilterDelayMs);
    connect(m_debounce, &QTimer::timeout, this, &TraceBrowser::applyFilters);
    auto schedule = [this] {
        if (!m_updating) m_debounce->start();
    };
    connect(m_model, &QComboBox::currentIndexChanged, this, schedule);
    connect(m_minGpus, &QSpinBox::valueChanged, this, schedule);
    connect(m_maxGpus, &QSpinBox::valueChanged, this, schedule);
    connect(m_from, &QDoubleSpinBox::valueChanged, this, schedule);
    connect(m_to, &QDoubleSpinBox::valueChanged, this, schedule);
    connect(m_reset, &QToolButton::clicked, this, &TraceBrowser::resetFilters);

    setTrace(nullptr);
}

std::shared_ptr<const cl::Trace> TraceBrowser::trace() const {
    return m_jobs->trace();
}

void TraceBrowser::setTrace(std::shared_ptr<const cl::Trace> trace, const cl::ProfileSet* profiles) {
    m_debounce->stop();
    m_proxy->clearFilter();
    m_jobs->setTrace(std::move(trace), profiles);
    for (int c = JobTableModel::NameColumn; c < JobTableModel::ColumnCount; ++c)
        m_table->setColumnHidden(c, !m_jobs->hasPlanningFields());
    updateTimeControls();
    refreshSummary();
}

void TraceBrowser::updateTimeControls() {
    // Filter controls span exactly what the trace holds.
    m_updating = true;
    const auto trace = m_jobs->trace();
    std::set<std::string> models;
    int max_gpus = 1;
    bool unnamed = false;
    double last = 0.0;
    if (trace) {
        for (const cl::Job& j : trace->jobs) {
            if (j.model.empty())
                unnamed = true;
            else
                models.insert(j.model);
            max_gpus = std::max(max_gpus, j.gpus);
        }
        last = trace->jobs.empty() ? 0.0 : trace->lastSubmit();
    }
    m_model->clear();
    m_model->addItem(tr("any model"), kAnyModel);
    for (const std::string& m : models)
        m_model->addItem(QString::fromStdString(m), QString::fromStdString(m));
    if (unnamed) m_model->addItem(tr("(no model)"), kNoModel);
    m_model->setCurrentIndex(0);
    for (QSpinBox* box : {m_minGpus, m_maxGpus}) box->setRange(1, max_gpus);
    m_minGpus->setValue(1);
    m_maxGpus->setValue(max_gpus);

    QString suffix;
    if (last <= 2.0 * 3600.0) {
        m_timeUnit = 60.0;
        suffix = tr(" min");
    } else if (last <= 4.0 * 86400.0) {
        m_timeUnit = 3600.0;
        suffix = tr(" h");
    } else {
        m_timeUnit = 86400.0;
        suffix = tr(" d");
    }
    const double top = std::ceil(last / m_timeUnit * 100.0) / 100.0;
    for (QDoubleSpinBox* box : {m_from, m_to}) {
        box->setRange(0.0, top);
        box->setSuffix(suffix);
        box->setSingleStep(top > 10.0 ? 1.0 : 0.1);
    }
    m_from->setValue(0.0);
    m_to->setValue(top);
    const bool enabled = trace && !trace->jobs.empty();
    for (QWidget* w : std::initializer_list<QWidget*>{m_model, m_minGpus, m_maxGpus, m_from, m_to, m_reset})
        w->setEnabled(enabled);
    m_updating = false;
}

void TraceBrowser::applyFilters() {
    m_debounce->stop();
    JobFilter f;
    const QString model = m_model->currentData().toString();
    if (model == kNoModel)
        f.model = std::string();
    else if (model != kAnyModel && !model.isEmpty())
        f.model = model.toStdString();
    if (m_minGpus->value() > m_minGpus->minimum()) f.min_gpus = m_minGpus->value();
    if (m_maxGpus->value() < m_maxGpus->maximum()) f.max_gpus = m_maxGpus->value();
    // The ends of the spin boxes mean "open": the rounded top must not cut off the last job.
    if (m_from->value() > m_from->minimum()) f.from = m_from->value() * m_timeUnit;
    if (m_to->value() < m_to->maximum()) f.to = m_to->value() * m_timeUnit;
    m_proxy->setFilter(f);
    refreshSummary();
}

void TraceBrowser::resetFilters() {
    m_debounce->stop();
    updateTimeControls();
    applyFilters();
}

QString TraceBrowser::countText() const {
    return m_count->text();
}

void TraceBrowser::refreshSummary() {
    const auto trace = m_jobs->trace();
    const QLocale locale;
    const int total = m_jobs->rowCount();
    const int shown = m_proxy->rowCount();
    if (!trace) {
        m_count->setText(tr("No trace"));
        m_histograms->clear(tr("No trace loaded"));
        return;
    }
    m_count->setText(shown == total
                         ? tr("%1 jobs").arg(locale.toString(total))
                         : tr("%1 of %2 jobs").arg(locale.toString(shown), locale.toString(total)));
    if (shown == total)
        m_histograms->setTrace(*trace, m_jobs->profiles());
    else
        m_histograms->setJobs(*trace, m_proxy->acceptedSourceRows(), m_jobs->profiles());
}

}  // namespace cl::views
