#include "views/profiles/profiles_view.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <set>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/store/scenario_store.h"
#include "views/profiles/profile_breakdown_chart.h"
#include "views/profiles/profile_figures.h"
#include "views/profiles/profile_spread_chart.h"
#include "views/profiles/profile_table_model.h"

namespace cl::views {

ProfilesView::ProfilesView(QWidget* parent) : QWidget(parent) {
    m_sets = new QComboBox(this);
    m_sets->setObjectName(QStringLiteral("profileSets"));
    m_sets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sets->setMinimumContentsLength(28);
    m_sets->setToolTip(
        tr("The workspace's profile sets; a scenario runs with one of them. Editing a set "
           "(importing a model into it) stores a new version under the same name."));
    auto* setsLabel = new QLabel(tr("Profile &set:"), this);
    setsLabel->setBuddy(m_sets);
    m_gpus = new QComboBox(this);
    m_gpus->setObjectName(QStringLiteral("gpus"));
    m_gpus->setToolTip(
        tr("Which GPU count's figures to show; a model not profiled at that count shows "
           "its nearest profiled count, as a run would use it"));
    auto* gpusLabel = new QLabel(tr("&At:"), this);
    gpusLabel->setBuddy(m_gpus);
    m_import = new QPushButton(QIcon(QStringLiteral(":/icons/import-trace.svg")),
                               tr("&Import Profiler Trace\u2026"), this);
    m_import->setObjectName(QStringLiteral("importProfilerTrace"));
    m_import->setToolTip(
        tr("Make a model profile from PyTorch profiler (Kineto) traces and store it in a "
           "profile set (Ctrl+Alt+K)"));
    connect(m_import, &QPushButton::clicked, this, &ProfilesView::importRequested);
    auto* bar = new QHBoxLayout;
    bar->addWidget(setsLabel);
    bar->addWidget(m_sets);
    bar->addSpacing(fontMetrics().averageCharWidth() * 2);
    bar->addWidget(gpusLabel);
    bar->addWidget(m_gpus);
    bar->addStretch(1);
    bar->addWidget(m_import);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("profilesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_breakdown = new ProfileBreakdownChart(this);
    m_breakdown->setObjectName(QStringLiteral("profileBreakdown"));
    m_spread = new ProfileSpreadChart(this);
    m_spread->setObjectName(QStringLiteral("profileSpread"));
    m_charts = new QSplitter(Qt::Horizontal, this);
    m_charts->addWidget(m_breakdown);
    m_charts->addWidget(m_spread);
    m_charts->setStretchFactor(0, 3);
    m_charts->setStretchFactor(1, 2);
    m_charts->setChildrenCollapsible(false);

    m_model = new ProfileTableModel(this);
    m_model->setObjectName(QStringLiteral("profileModel"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProfileTableModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("profileTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ProfileTableModel::ModelColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("The set's models; select one for its spread over the training steps"));

    // On a 1366x768 screen the page has about 400 px for both: the table keeps room for five
    // rows (a set rarely has more models to compare at a glance) and the charts take the rest,
    // at least their minimum of about 200 px; on a taller screen both grow, the charts more.
    const int tableFrame = 2 * m_table->frameWidth() + m_table->horizontalHeader()->sizeHint().height() +
                           m_table->horizontalScrollBar()->sizeHint().height();
    m_table->setMinimumHeight(tableFrame + 5 * m_table->verticalHeader()->defaultSectionSize());
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_charts);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_sets, &QComboBox::currentIndexChanged, this, &ProfilesView::loadSet);
    connect(m_gpus, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setGpus(m_gpus->currentData().toInt()); });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] {
        updateBreakdown();
        updateSpread();
    });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &ProfilesView::updateBreakdown);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateBreakdown();
        updateSpread();
    });
    // A click on a bar selects its model.
    connect(m_breakdown, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int bar = m_breakdown->categoryAt(event->pos());
        if (bar >= 0) m_table->selectRow(bar);
    });
    refresh();
}

void ProfilesView::setStore(cl::ScenarioStore* store) {
    m_store = store;
    refresh();
}

void ProfilesView::refresh() {
    const std::int64_t keep = currentProfileSet();
    {
        const QSignalBlocker block(m_sets);
        m_sets->clear();
        if (m_store) {
            try {
                for (const cl::StoredItem& item : m_store->profileSets())
                    m_sets->addItem(tr("%1 (#%2, %n model(s))", nullptr, static_cast<int>(item.size))
                                        .arg(QString::fromStdString(item.name))
                                        .arg(item.id),
                                    QVariant::fromValue<qlonglong>(item.id));
            } catch (const std::exception& e) {
                m_summary->setText(
                    tr("Cannot read the profile sets: %1").arg(QString::fromStdString(e.what())));
            }
        }
        int index = m_sets->findData(QVariant::fromValue<qlonglong>(keep));
        // The newest set first: what an import just stored is what the user wants to see.
        if (index < 0) index = m_sets->count() - 1;
        m_sets->setCurrentIndex(index);
    }
    m_sets->setEnabled(m_sets->count() > 0);
    loadSet(m_sets->currentIndex());
}

bool ProfilesView::showProfileSet(std::int64_t id) {
    const int index = m_sets->findData(QVariant::fromValue<qlonglong>(id));
    if (index < 0) return false;
    m_sets->setCurrentIndex(index);
    return true;
}

std::int64_t ProfilesView::currentProfileSet() const {
    return m_sets->currentIndex() >= 0 ? m_sets->currentData().toLongLong() : 0;
}

void ProfilesView::loadSet(int comboIndex) {
    const QString keepModel = selectedModel();
    m_profiles.reset();
    if (m_store && comboIndex >= 0) {
        try {
            m_profiles = std::make_shared<const cl::ProfileSet>(
                m_store->profiles(m_sets->itemData(comboIndex).toLongLong()));
        } catch (const std::exception& e) {
            m_summary->setText(tr("Cannot read the profile set: %1").arg(QString::fromStdString(e.what())));
        }
    }
    updateGpuChoices();
    m_model->setProfiles(m_profiles, m_gpus->currentData().toInt());
    if (!selectModel(keepModel) && m_proxy->rowCount() > 0) {
        // The first imported model if there is one (its spread is what this view adds), else the first.
        int first = 0;
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            if (m_model->steps(m_proxy->mapToSource(m_proxy->index(r, 0)).row()) > 0) {
                first = r;
                break;
            }
        m_table->selectRow(first);
    }
    updateSummary();
    updateBreakdown();
    updateSpread();
}

void ProfilesView::updateGpuChoices() {
    const int keep = m_gpus->currentData().toInt();
    const QSignalBlocker block(m_gpus);
    m_gpus->clear();
    m_gpus->addItem(tr("smallest profiled GPU count"), 0);
    std::set<int> counts;
    if (m_profiles)
        for (const auto& [name, model] : m_profiles->models)
            for (const cl::GpuCountProfile& row : model.by_gpus) counts.insert(row.gpus);
    for (int c : counts) m_gpus->addItem(tr("%n GPU(s)", nullptr, c), c);
    const int index = m_gpus->findData(keep);
    m_gpus->setCurrentIndex(index >= 0 ? index : 0);
    m_gpus->setEnabled(!counts.empty());
}

void ProfilesView::setGpus(int gpus) {
    const int index = m_gpus->findData(gpus);
    if (index >= 0) m_gpus->setCurrentIndex(index);
}

bool ProfilesView::selectModel(const QString& model) {
    const int row = m_model->rowOf(model);
    if (model.isEmpty() || row < 0) return false;
    m_table->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
    return true;
}

int ProfilesView::selectedRow() const {
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? m_proxy->mapToSource(current).row() : -1;
}

QString ProfilesView::selectedModel() const {
    const int row = selectedRow();
    return row >= 0 ? QString::fromStdString(m_model->profile(row).name) : QString();
}

void ProfilesView::updateSummary() {
    if (!m_store) {
        m_summary->setText(tr("Open a workspace to see its profile sets."));
        return;
    }
    if (!m_profiles) {
        m_summary->setText(
            tr("The workspace holds no profile set yet: import a profiler trace to make one."));
        return;
    }
    int imported = 0;
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->steps(r) > 0) ++imported;
    QString text = tr("<b>%1</b>: %n model(s)", nullptr, m_model->rowCount())
                       .arg(QString::fromStdString(m_profiles->name).toHtmlEscaped());
    // The source can be a paragraph: its first sentence here, all of it in the tooltip.
    QString source = QString::fromStdString(m_profiles->source);
    m_summary->setToolTip(source);
    if (const int stop = static_cast<int>(source.indexOf(QLatin1Char('('))); stop > 20)
        source = source.left(stop).trimmed();
    if (source.size() > 90) source = source.left(88).trimmed() + QStringLiteral("\u2026");
    if (!source.isEmpty()) text += tr(", from %1").arg(source.toHtmlEscaped());
    text += QLatin1Char('.');
    if (imported > 0)
        text += QLatin1Char(' ') + tr("%n with per-step figures from profiler traces (select one for its "
                                      "spread over the training steps).",
                                      nullptr, imported);
    else
        text += QLatin1Char(' ') + tr("None has per-step figures: those come with profiles imported from "
                                      "profiler traces (Ctrl+Alt+K).");
    m_summary->setText(text);
}

void ProfilesView::updateBreakdown() {
    std::vector<ProfileBreakdownChart::Bar> bars;
    int highlighted = -1;
    const int selected = selectedRow();
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const int source = m_proxy->mapToSource(m_proxy->index(r, 0)).row();
        const cl::ModelProfile& model = m_model->profile(source);
        const cl::GpuCountProfile* row = m_model->shownRow(source);
        ProfileBreakdownChart::Bar bar;
        bar.label = QString::fromStdString(model.name);
        if (row) {
            bar.segments = stageSegments(*row);
            bar.iteration_s = row->solo_iteration_time;
            bar.note = tr("at %n GPU(s), %1", nullptr, row->gpus).arg(stageLayoutName(*row));
        } else {
            bar.note = tr("no figures");
        }
        if (source == selected) highlighted = r;
        bars.push_back(std::move(bar));
    }
    const QString title = !m_profiles ? tr("Time per iteration by resource")
                          : m_model->gpus() > 0
                              ? tr("Time per iteration by resource at %n GPU(s)", nullptr, m_model->gpus())
                              : tr("Time per iteration by resource");
    m_breakdown->setBars(bars, title);
    m_breakdown->setHighlighted(highlighted);
}

void ProfilesView::updateSpread() {
    const int row = selectedRow();
    // Only profiles imported from profiler traces have per-step figures; for the others the
    // chart gives its room to the breakdown.
    const auto steps = row >= 0 ? stepSeries(m_model->profile(row)) : std::nullopt;
    m_spread->setVisible(steps.has_value());
    if (!steps) {
        m_spread->clear();
        return;
    }
    const QString name = QString::fromStdString(m_model->profile(row).name);
    auto box = [](const QString& label, const std::vector<double>& values, const QColor& color) {
        return ProfileSpreadChart::Box{label, values, color};
    };
    // The iteration in a grey halfway between page and text: visible on both themes, and no
    // resource's colour.
    const QColor base = palette().color(QPalette::Base), text = palette().color(QPalette::Text);
    const QColor iteration((base.red() + text.red()) / 2, (base.green() + text.green()) / 2,
                           (base.blue() + text.blue()) / 2);
    m_spread->setBoxes(
        {box(tr("iteration"), steps->iteration_ms, iteration),
         box(stageResourceName(StageResource::Storage), steps->storage_ms,
             stageResourceColor(StageResource::Storage)),
         box(stageResourceName(StageResource::Cpu), steps->cpu_ms, stageResourceColor(StageResource::Cpu)),
         box(stageResourceName(StageResource::Gpu), steps->gpu_ms, stageResourceColor(StageResource::Gpu)),
         box(stageResourceName(StageResource::Network), steps->network_ms,
             stageResourceColor(StageResource::Network))},
        tr("%1: %n training step(s)", nullptr, static_cast<int>(steps->steps.size())).arg(name));
}

void ProfilesView::paintExport(QPainter& painter, const QRectF& rect) {
    if (m_spread->isHidden()) {
        m_breakdown->paintExport(painter, rect);
        return;
    }
    const double split = rect.width() * 0.6;
    m_breakdown->paintExport(painter, QRectF(rect.left(), rect.top(), split, rect.height()));
    m_spread->paintExport(painter,
                          QRectF(rect.left() + split, rect.top(), rect.width() - split, rect.height()));
}

}  // namespace cl::views
