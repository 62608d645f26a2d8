#include "views/results/comparison_model.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <QFont>
#include <QLocale>

#include "views/common/cost_text.h"
#include "views/common/format.h"
#include "views/results/run_breakdown.h"

namespace cl::views {

namespace {

// A label no run can spell, so a baseline picked by label is always the intended row
// even when two runs share a scenario and policy.
std::string groupKey(std::size_t row) {
    return "#" + std::to_string(row);
}

const cl::Estimate& estimateOf(const cl::ComparisonRow& row, ComparisonModel::Metric metric) {
    switch (metric) {
        case ComparisonModel::Metric::AvgJct:
            return row.avg_jct;
        case ComparisonModel::Metric::P99Jct:
            return row.p99_jct;
        case ComparisonModel::Metric::Makespan:
            return row.makespan;
        case ComparisonModel::Metric::AvgQueueing:
            return row.avg_queueing_delay;
        case ComparisonModel::Metric::P95Queueing:
            return row.p95_queueing;
    }
    throw std::logic_error("ComparisonModel: unknown metric");
}

}  // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ComparisonModel::metricName(Metric metric) {
    switch (metric) {
        case Metric::AvgJct:
            return tr("Avg JCT");
        case Metric::P99Jct:
            return tr("p99 JCT");
        case Metric::Makespan:
            return tr("Makespan");
        case Metric::AvgQueueing:
            return tr("Avg queueing");
        case Metric::P95Queueing:
            return tr("p95 queueing");
    }
    return {};
}

QString ComparisonModel::metricToolTip(Metric metric) {
    switch (metric) {
        case Metric::AvgJct:
            return tr("Average job completion time over the completed jobs");
        case Metric::P99Jct:
            return tr("99th percentile of job completion time (nearest rank): the tail");
        case Metric::Makespan:
            return tr("Time from the first submission to the last completion");
        case Metric::AvgQueueing:
            return tr("Average time from submission to a job's first start");
        case Metric::P95Queueing:
            return tr("95th percentile of the time from submission to a job's first start (nearest rank)");
    }
    return {};
}

QString ComparisonModel::ratioText(double ratio) {
    if (std::isnan(ratio)) return tr("n/a");
    // Two decimals, as the papers print them; two significant digits below 0.1, where
    // "0.00×" would hide how much smaller the value is.
    // Below a thousandth the digits say nothing more and 'g' turns to "6.1e-06".
    const QLocale locale;
    if (ratio != 0.0 && std::abs(ratio) < 0.001)
        return QStringLiteral("<%1\u00d7").arg(locale.toString(ratio < 0 ? -0.001 : 0.001, 'f', 3));
    const QString number = std::abs(ratio) >= 0.1 || ratio == 0.0 ? locale.toString(ratio, 'f', 2)
                                                                  : locale.toString(ratio, 'g', 2);
    return number + QStringLiteral("\u00d7");
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (section == RunColumn) {
        if (role == Qt::DisplayRole) return tr("Run");
        if (role == Qt::ToolTipRole) return tr("Scenario and policy of the run; the baseline is in bold");
        return {};
    }
    if (section == CostColumn || section == CostPerMonthColumn) {
        if (role == Qt::DisplayRole) return section == CostColumn ? tr("Cost") : tr("Cost/month");
        if (role == Qt::ToolTipRole)
            return section == CostColumn
                       ? tr("What the run's cluster costs for its makespan, from its servers' prices")
                       : tr("What the run's cluster costs per month (730 hours)");
        if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const auto metric = static_cast<Metric>((section - 1) / 2);
    const bool relative_column = (section - 1) % 2 == 1;
    if (role == Qt::DisplayRole)
        return relative_column ? tr("%1 vs base").arg(metricName(metric)) : metricName(metric);
    if (role == Qt::ToolTipRole)
        return relative_column ? tr("%1 of the run divided by the baseline's: below 1.00× is better")
                                     .arg(metricName(metric))
                               : metricToolTip(metric);
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    // An invalid index is asked for by Qt itself (a table's Ctrl+C with no current cell): no warning.
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    if (column == RunColumn) {
        const Row& r = m_rows[static_cast<std::size_t>(row)];
        const cl::Summary& summary = result(row).summary;
        switch (role) {
            case Qt::DisplayRole:
                return row == m_baseline ? tr("%1 (baseline)").arg(r.label) : r.label;
            case Qt::ToolTipRole:
                return tr("Run %1: %2, %3 of %4 jobs completed")
                    .arg(r.id)
                    .arg(r.label)
                    .arg(summary.completed)
                    .arg(summary.jobs);
            case Qt::FontRole: {
                QFont font;
                font.setBold(row == m_baseline);
                return font;
            }
            case RawValueRole:
                return r.label;
            default:
                return {};
        }
    }
    if (column == CostColumn || column == CostPerMonthColumn) {
        const cl::ComparisonRow& c = m_comparison.rows[static_cast<std::size_t>(row)];
        const double usd = !c.priced              ? std::numeric_limits<double>::quiet_NaN()
                           : column == CostColumn ? c.span_cost.mean
                                                  : c.cost_per_month;
        switch (role) {
            case Qt::DisplayRole:
                if (std::isnan(usd)) return QStringLiteral("\u2013");
                return c.unpriced_servers > 0
                           ? tr("%1 (%2 unpriced)").arg(formatUsd(usd)).arg(c.unpriced_servers)
                           : formatUsd(usd);
            case Qt::ToolTipRole:
                if (!c.priced) return tr("No server of this run's cluster is priced");
                return c.unpriced_servers > 0 ? unpricedServersText(c.unpriced_servers) : QVariant();
            case Qt::TextAlignmentRole:
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            case RawValueRole:
                return usd;
            default:
                return {};
        }
    }
    const auto metric = static_cast<Metric>((column - 1) / 2);
    const bool relative_column = (column - 1) % 2 == 1;
    const double v = relative_column ? relative(row, metric) : value(row, metric);
    switch (role) {
        case Qt::DisplayRole:
            return relative_column ? ratioText(v) : formatDuration(v);
        case Qt::ToolTipRole:
            return relative_column
                       ? tr("%1: %2 of the baseline's %3")
                             .arg(metricName(metric), ratioText(v), formatDuration(value(m_baseline, metric)))
                       : formatDurationExact(v);
        case Qt::TextAlignmentRole:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case RawValueRole:
            return v;
        default:
            return {};
    }
}

void ComparisonModel::setRuns(std::vector<Run> runs) {
    const qint64 baseline_id = m_baseline >= 0 ? runId(m_baseline) : 0;
    beginResetModel();
    m_rows.clear();
    m_groups.clear();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        m_rows.push_back({runs[i].id, runs[i].label});
        m_groups.push_back(
            {groupKey(i), {0}, {std::move(runs[i].result)}, runs[i].cost, runs[i].cluster_servers});
    }
    m_baseline = m_rows.empty() ? -1 : 0;
    if (baseline_id != 0 && rowOfRun(baseline_id) >= 0) m_baseline = rowOfRun(baseline_id);
    recompute();
    endResetModel();
    emit baselineChanged(m_baseline);
}

void ComparisonModel::clear() {
    setRuns({});
}

qint64 ComparisonModel::runId(int row) const {
    return m_rows.at(static_cast<std::size_t>(row)).id;
}

QString ComparisonModel::label(int row) const {
    return m_rows.at(static_cast<std::size_t>(row)).label;
}

const cl::SimResult& ComparisonModel::result(int row) const {
    return m_groups.at(static_cast<std::size_t>(row)).runs.front();
}

int ComparisonModel::rowOfRun(qint64 id) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id) return static_cast<int>(i);
    return -1;
}

void ComparisonModel::setBaseline(int row) {
    if (row < 0 || row >= rowCount() || row == m_baseline) return;
    m_baseline = row;
    recompute();
    // The labels of the old and new baseline rows and every relative column change.
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit baselineChanged(m_baseline);
}

double ComparisonModel::value(int row, Metric metric) const {
    if (row < 0 || row >= static_cast<int>(m_comparison.rows.size()))
        return std::numeric_limits<double>::quiet_NaN();
    return estimateOf(m_comparison.rows[static_cast<std::size_t>(row)], metric).mean;
}

double ComparisonModel::relative(int row, Metric metric) const {
    if (row < 0 || row >= rowCount() || m_baseline < 0) return std::numeric_limits<double>::quiet_NaN();
    // Durations under a millisecond are zero for a schedule whose jobs run for minutes: a run
    // without queueing is 0x a baseline that queues, and nothing is a multiple of a baseline
    // that does not queue (that read "2e-06x" and "5e+05x").
    auto zeroed = [](double seconds) { return std::abs(seconds) < kNearZeroSeconds ? 0.0 : seconds; };
    return relativeTo(zeroed(value(row, metric)), zeroed(value(m_baseline, metric)));
}

void ComparisonModel::recompute() {
    m_comparison = {};
    if (m_groups.empty()) return;
    m_comparison = cl::compareGroups(m_groups, groupKey(static_cast<std::size_t>(m_baseline)));
    // The readable labels back, for a text or CSV export of comparison().
    m_comparison.baseline = label(m_baseline).toStdString();
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_comparison.rows[i].label = m_rows[i].label.toStdString();
}

}  // namespace cl::views
