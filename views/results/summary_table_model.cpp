#include "views/results/summary_table_model.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include "views/common/cost_text.h"
#include "views/common/format.h"

namespace cl::views {

namespace {

struct ColumnInfo {
    const char* title;
    const char* tooltip;
};

// Indexed by SummaryTableModel::Column.
constexpr ColumnInfo kColumns[] = {
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Policy"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Scheduling policy the trace was simulated with")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Avg JCT"),
     QT_TRANSLATE_NOOP(
         "cl::views::SummaryTableModel",
         "Average job completion time: mean over completed jobs of end time minus submit time")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Median JCT"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Median job completion time (50th percentile)")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "p95 JCT"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "95th percentile of job completion time (nearest rank): 5% of jobs took longer")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "p99 JCT"),
     QT_TRANSLATE_NOOP(
         "cl::views::SummaryTableModel",
         "99th percentile of job completion time (nearest rank): the tail of the distribution")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Makespan"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "Time from the first submission to the last completion")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Avg queueing"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "Average queueing delay: mean time from submission to a job's first start")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "p95 queueing"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "95th percentile of the queueing delay (nearest rank): 5% of jobs waited longer")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Cost"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "What the cluster costs for the run's makespan, from its servers' prices; \u2013 "
                       "when no server is priced")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Cost/month"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "What the cluster costs per month (730 hours); \u2013 when no server is priced")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Small p95"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "95th percentile JCT of small jobs (at most 8 GPUs); \u2013 when none completed")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Small p99"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "99th percentile JCT of small jobs (at most 8 GPUs); \u2013 when none completed")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Large p95"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "95th percentile JCT of large jobs (more than 8 GPUs); \u2013 when none completed")},
    {QT_TRANSLATE_NOOP("cl::views::SummaryTableModel", "Large p99"),
     QT_TRANSLATE_NOOP("cl::views::SummaryTableModel",
                       "99th percentile JCT of large jobs (more than 8 GPUs); \u2013 when none completed")},
};
static_assert(std::size(kColumns) == SummaryTableModel::ColumnCount);

}  // namespace

SummaryTableModel::SummaryTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int SummaryTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SummaryTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double SummaryTableModel::metric(const cl::Summary& s, int column) {
    switch (column) {
        case AvgJctColumn:
            return s.avg_jct;
        case MedianJctColumn:
            return s.median_jct;
        case P95JctColumn:
            return s.p95_jct;
        case P99JctColumn:
            return s.p99_jct;
        case MakespanColumn:
            return s.makespan;
        case AvgQueueingColumn:
            return s.avg_queueing_delay;
        case P95QueueingColumn:
            return s.p95_queueing_delay;
        case SmallP95JctColumn:
            return s.small.p95_jct;
        case SmallP99JctColumn:
            return s.small.p99_jct;
        case LargeP95JctColumn:
            return s.large.p95_jct;
        case LargeP99JctColumn:
            return s.large.p99_jct;
        default:
            return std::numeric_limits<double>::quiet_NaN();
    }
}

double SummaryTableModel::cost(int row, int column) const {
    if (row < 0 || row >= m_rows.size()) return std::numeric_limits<double>::quiet_NaN();
    const Row& r = m_rows[row];
    if (!r.cost || !r.summary) return std::numeric_limits<double>::quiet_NaN();
    if (column == CostColumn) return cl::costForSpan(*r.cost, r.summary->makespan);
    if (column == CostPerMonthColumn) return r.cost->per_month;
    return std::numeric_limits<double>::quiet_NaN();
}

QVariant SummaryTableModel::data(const QModelIndex& index, int role) const {
    // An invalid index is asked for by Qt itself (a table's Ctrl+C with no current cell): no warning.
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    const int column = index.column();

    if (role == StateRole) return static_cast<int>(row.state);

    if (column == PolicyColumn) {
        switch (role) {
            case Qt::DisplayRole: {
                QString text = row.policy;
                if (!row.trace.isEmpty()) text = tr("%1 \u00b7 trace %2").arg(text, row.trace);
                if (!row.stoppedEarly.isEmpty() && row.state == RowState::Done)
                    return tr("%1 (stopped early)").arg(text);
                return text;
            }
            case RawValueRole:
                return row.policy;
            case Qt::ToolTipRole:
                if (row.state == RowState::Failed) return tr("%1 failed: %2").arg(row.policy, row.message);
                if (!row.stoppedEarly.isEmpty() && row.summary)
                    return tr("%1: %2. Its figures cover only the %3 of %4 jobs finished by then.")
                        .arg(row.policy, row.stoppedEarly)
                        .arg(row.summary->completed)
                        .arg(row.summary->jobs);
                if (row.summary)
                    return tr("%1: %2 of %3 jobs completed")
                        .arg(row.policy)
                        .arg(row.summary->completed)
                        .arg(row.summary->jobs);
                return row.policy;
            case Qt::FontRole: {
                QFont font;
                font.setBold(true);
                return font;
            }
            default:
                return {};
        }
    }

    const bool isCost = column == CostColumn || column == CostPerMonthColumn;
    switch (role) {
        case Qt::DisplayRole:
            switch (row.state) {
                case RowState::Pending:
                    // Said once per row: a never-run scenario read "waiting" in every column.
                    return column == AvgJctColumn ? tr("not run") : QStringLiteral("\u2013");
                case RowState::Running:
                    return column == AvgJctColumn
                               ? tr("running %1%")
                                     .arg(static_cast<int>(std::floor(row.fraction_done * 100.0)))
                               : QStringLiteral("\u2026");
                case RowState::Failed:
                    return column == AvgJctColumn ? tr("failed") : QStringLiteral("\u2013");
                case RowState::Cancelled:
                    return column == AvgJctColumn ? tr("cancelled") : QStringLiteral("\u2013");
                case RowState::Done:
                    if (isCost) {
                        const double usd = cost(index.row(), column);
                        if (std::isnan(usd)) return QStringLiteral("\u2013");
                        // A partly priced cluster says so in the cell, not only in the tooltip.
                        return row.cost->unpriced_servers > 0 ? tr("%1 (%2 unpriced)")
                                                                    .arg(formatUsd(usd))
                                                                    .arg(row.cost->unpriced_servers)
                                                              : formatUsd(usd);
                    }
                    return formatDuration(metric(*row.summary, column));
            }
            return {};
        case RawValueRole:
            if (isCost) return cost(index.row(), column);
            if (row.summary) return metric(*row.summary, column);
            return {};
        case Qt::ToolTipRole:
            if (row.state == RowState::Failed) return row.message;
            if (isCost) {
                if (!row.summary) return {};
                if (!row.cost) return tr("No server of this run's cluster is priced");
                QString tip = tr("%1 per hour, %2 per month; %3 for the makespan of %4")
                                  .arg(formatUsd(row.cost->per_hour), formatUsd(row.cost->per_month),
                                       formatUsd(cost(index.row(), CostColumn)),
                                       formatDurationExact(row.summary->makespan));
                if (row.cost->unpriced_servers > 0)
                    tip += QLatin1Char('\n') + unpricedServersText(row.cost->unpriced_servers);
                return tip;
            }
            if (row.summary) return formatDurationExact(metric(*row.summary, column));
            return {};
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (row.state != RowState::Done)
                return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
            return {};
        default:
            return {};
    }
}

void SummaryTableModel::setLabelTitle(const QString& title) {
    m_labelTitle = title;
    emit headerDataChanged(Qt::Horizontal, PolicyColumn, PolicyColumn);
}

QVariant SummaryTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (role) {
        case Qt::DisplayRole:
            if (section == PolicyColumn && !m_labelTitle.isEmpty()) return m_labelTitle;
            return tr(kColumns[section].title);
        case Qt::ToolTipRole:
            return tr(kColumns[section].tooltip);
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(section == PolicyColumn ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                               : (Qt::AlignRight | Qt::AlignVCenter));
        default:
            return {};
    }
}

void SummaryTableModel::setPolicies(const QStringList& policies) {
    beginResetModel();
    m_rows.clear();
    m_rows.reserve(policies.size());
    for (const QString& policy : policies)
        m_rows.push_back(Row{policy, RowState::Pending, 0.0, std::nullopt, {}, std::nullopt, {}, {}});
    endResetModel();
}

void SummaryTableModel::clear() {
    setPolicies({});
}

QStringList SummaryTableModel::policies() const {
    QStringList result;
    result.reserve(m_rows.size());
    for (const Row& row : m_rows) result.push_back(row.policy);
    return result;
}

int SummaryTableModel::rowOf(const QString& policy) const {
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].policy == policy) return i;
    return -1;
}

void SummaryTableModel::setTraceName(int row, const QString& trace) {
    if (row < 0 || row >= m_rows.size() || m_rows[row].trace == trace) return;
    m_rows[row].trace = trace;
    emitRowChanged(row);
}

void SummaryTableModel::setRunning(const QString& policy, double fraction_done) {
    const int row = rowOf(policy);
    if (row < 0) return;
    m_rows[row].state = RowState::Running;
    m_rows[row].fraction_done = std::clamp(fraction_done, 0.0, 1.0);
    emitRowChanged(row);
}

void SummaryTableModel::setSummary(const QString& policy, const cl::Summary& summary) {
    const int row = rowOf(policy);
    if (row < 0) return;
    m_rows[row].state = RowState::Done;
    m_rows[row].fraction_done = 1.0;
    m_rows[row].summary = summary;
    m_rows[row].stoppedEarly.clear();
    m_rows[row].message.clear();
    emitRowChanged(row);
}

void SummaryTableModel::setCost(const QString& policy, const cl::ClusterCost& cost, int servers) {
    const int row = rowOf(policy);
    if (row < 0) return;
    if (cost.anyPriced(servers))
        m_rows[row].cost = cost;
    else
        m_rows[row].cost.reset();
    emitRowChanged(row);
}

void SummaryTableModel::setStoppedEarly(const QString& policy, const QString& note) {
    const int row = rowOf(policy);
    if (row < 0) return;
    m_rows[row].stoppedEarly = note;
    emitRowChanged(row);
}

void SummaryTableModel::setFailed(const QString& policy, const QString& message) {
    const int row = rowOf(policy);
    if (row < 0) return;
    m_rows[row].state = RowState::Failed;
    m_rows[row].summary.reset();
    m_rows[row].message = message;
    emitRowChanged(row);
}

void SummaryTableModel::setUnfinishedCancelled() {
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].state == RowState::Pending || m_rows[row].state == RowState::Running) {
            m_rows[row].state = RowState::Cancelled;
            emitRowChanged(row);
        }
    }
}

SummaryTableModel::RowState SummaryTableModel::state(int row) const {
    return row >= 0 && row < m_rows.size() ? m_rows[row].state : RowState::Pending;
}

std::optional<cl::Summary> SummaryTableModel::summary(int row) const {
    if (row < 0 || row >= m_rows.size()) return std::nullopt;
    return m_rows[row].summary;
}

void SummaryTableModel::emitRowChanged(int row) {
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

}  // namespace cl::views
