#include "views/shell/charts_page.h"

#include <exception>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "core/store/scenario_store.h"
#include "views/charts/run_picker.h"
#include "views/charts/series_charts.h"
#include "views/results/results_view.h"

namespace cl::views {

namespace {

// Runs the charts overlay until the user picks others: more lines than this are hard to tell
// apart, although each keeps a colour of its own (chart_style.h).
constexpr int kRunsChartedAtFirst = 8;

}  // namespace

ChartsPage::ChartsPage(const ResultsView* results, QWidget* tabs, QObject* parent)
    : MainWindowPage({QStringLiteral("charts"), tr("Charts"), "results",
                      tr("Utilization of GPUs, CPU, storage and network, queue length, running jobs and "
                         "blocking index of the family's runs")},
                     parent),
      m_results(results),
      m_widget(new QWidget(tabs)) {
    auto* layout = new QVBoxLayout(m_widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(createBar());
    m_charts = new SeriesCharts(m_widget);
    m_charts->setObjectName(QStringLiteral("seriesCharts"));
    layout->addWidget(m_charts, 1);
    connect(m_resource, &QComboBox::currentIndexChanged, this, &ChartsPage::refresh);
    connect(m_runs, &RunPicker::shownRunsChanged, this, &ChartsPage::refresh);
    // Export View (Ctrl+Shift+E) exports the charts too; their own shortcut would clash with it.
    for (QAction* own : m_charts->actions())
        if (own->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)) own->setShortcut({});
}

QHBoxLayout* ChartsPage::createBar() {
    auto* row = new QHBoxLayout;
    m_resource = new QComboBox(m_widget);
    m_resource->setObjectName(QStringLiteral("chartResource"));
    m_resource->addItem(tr("GPUs allocated"), QStringLiteral("gpu"));
    m_resource->addItem(tr("GPU compute"), QStringLiteral("gpu-compute"));
    m_resource->addItem(tr("CPU"), QStringLiteral("cpu"));
    m_resource->addItem(tr("Storage"), QStringLiteral("storage"));
    m_resource->addItem(tr("Network"), QStringLiteral("network"));
    m_resource->addItem(tr("CPU cores allocated"), QStringLiteral("cpu-allocated"));
    m_resource->addItem(tr("Memory allocated"), QStringLiteral("memory-allocated"));
    m_resource->addItem(tr("All resources"), QString());
    m_resource->setToolTip(
        tr("Which utilization the top chart shows for each run; \"All resources\" reads "
           "best with one run. With Muri's 3-stage profiles, loading and preprocessing are "
           "one stage, so storage and CPU show the same curve. CPU cores and memory allocated are what "
           "Synergy's mechanisms hand out (else each job's GPU-proportional share)."));
    auto* resourceLabel = new QLabel(tr("&Utilization of:"), m_widget);
    resourceLabel->setBuddy(m_resource);
    row->addWidget(resourceLabel);
    row->addWidget(m_resource);
    row->addSpacing(m_widget->fontMetrics().averageCharWidth() * 2);
    m_runs = new RunPicker(m_widget);
    row->addWidget(m_runs);
    m_hidden = new QLabel(m_widget);
    m_hidden->setObjectName(QStringLiteral("chartsHiddenRuns"));
    m_hidden->hide();
    row->addWidget(m_hidden);
    row->addStretch(1);
    return row;
}

PaintFunction ChartsPage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { m_charts->paint(p, r); };
}

void ChartsPage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    m_store = store;
    m_cache.clear();
    m_dirty = true;
    if (store)
        update();
    else
        m_charts->clear();
}

void ChartsPage::refresh() {
    m_dirty = true;
    update();
}

void ChartsPage::forgetRuns() {
    m_cache.clear();
    m_dirty = true;
}

void ChartsPage::activated() {
    update();
}

void ChartsPage::update() {
    if (!m_store || !m_dirty || !isCurrent()) return;
    m_dirty = false;
    // Several runs overlaid show one utilization each (the chosen resource); all five of
    // several runs would be unreadable.
    const QString resource = m_resource->currentData().toString();
    QList<ChartRunSeries> runs;
    QHash<qint64, RunSeries> kept;  // only the runs shown stay cached
    const auto finished = m_results->finishedRuns();
    QStringList names;
    for (const auto& entry : finished) names << entry.first;
    {
        const QSignalBlocker quiet(m_runs);  // this refresh reads the choice below
        m_runs->setRuns(names, kRunsChartedAtFirst);
    }
    showHiddenRuns(names);
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        for (int index = 0; index < int(finished.size()); ++index) {
            const auto& [scenario, run] = finished[index];
            if (!m_runs->isShown(scenario)) continue;
            auto cached = m_cache.constFind(run);
            RunSeries all =
                cached != m_cache.constEnd() ? *cached : extractRunSeries(m_store->loadRun(run, false));
            kept.insert(run, all);
            if (!resource.isEmpty())
                std::erase_if(all.series, [&](const NamedSeries& s) {
                    return s.group == SeriesGroup::Utilization && s.key != resource;
                });
            // Every run is of the shown family: the legend names them without its prefix, or
            // eight "demo/…" entries do not fit one row.
            const QString prefix = m_results->family() + QLatin1Char('/');
            QString title = scenario.startsWith(prefix) ? scenario.mid(prefix.size()) : scenario;
            // Runs of different traces overlaid would read as policy wins: each names its trace.
            if (m_results->mixesTraces())
                title = tr("%1 (trace %2)").arg(title, m_results->traceOf(scenario));
            runs.append({title, std::move(all), index});
        }
    } catch (const std::exception& e) {
        emit logMessage(tr("Cannot read the runs for the charts: %1").arg(QString::fromStdString(e.what())));
    }
    QApplication::restoreOverrideCursor();
    m_cache = std::move(kept);
    m_charts->setRunSeries(runs);
}

void ChartsPage::showHiddenRuns(const QStringList& names) {
    const int hidden = m_runs->hiddenCount();
    QStringList hiddenNames;
    for (const QString& name : names)
        if (!m_runs->isShown(name)) hiddenNames << name;
    // Said next to the picker, so that a family larger than the charts never looks complete.
    m_hidden->setText(hidden == 1 ? tr("1 run of the family not drawn")
                                  : tr("%1 runs of the family not drawn").arg(hidden));
    m_hidden->setToolTip(tr("Not drawn: %1. Choose the runs with the Runs button.")
                             .arg(hiddenNames.join(QStringLiteral(", "))));
    m_hidden->setVisible(hidden > 0);
}

}  // namespace cl::views
