#include "views/topology_placement/placement_results_model.h"

#include <utility>

#include <QStringList>

#include "core/io/csv_field.h"

namespace cl::views {

PlacementResultsModel::PlacementResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlacementResultsModel::setResults(std::vector<cl::PlacementRunResult> results,
                                       std::vector<double> tier_gbps, double interval_seconds) {
    beginResetModel();
    m_results = std::move(results);
    m_tierGbps = std::move(tier_gbps);
    m_intervalSeconds = interval_seconds > 0 ? interval_seconds : 1800.0;
    endResetModel();
}

void PlacementResultsModel::clear() {
    if (m_results.empty()) return;
    beginResetModel();
    m_results.clear();
    endResetModel();
}

int PlacementResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_results.size());
}

int PlacementResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstTier + static_cast<int>(m_tierGbps.size());
}

double PlacementResultsModel::value(int row, int column) const {
    const cl::PlacementRunResult& r = m_results[static_cast<std::size_t>(row)];
    switch (column) {
        case JctHours:
            return r.average_jct / 3600.0;
        case JctIntervals:
            return r.average_jct / m_intervalSeconds;
        case Slowdown:
            return r.average_slowdown;
        case Forwarded:
            return r.forwarded_jobs;
        case MultiServer:
            return r.multi_server_jobs;
        default: {
            const auto tier = static_cast<std::size_t>(column - FirstTier);
            // A result from a topology with fewer tiers than the header: no figure, not a crash.
            return tier < r.tier_utilization.size() ? r.tier_utilization[tier] * 100.0 : 0.0;
        }
    }
}

QVariant PlacementResultsModel::data(const QModelIndex& index, int role) const {
    // An invalid index is asked for by Qt itself (a table's Ctrl+C with no current cell): no warning.
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    const cl::PlacementRunResult& r = m_results[static_cast<std::size_t>(row)];
    if (role == Qt::TextAlignmentRole)
        return column == Policy ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (column == Policy) {
        if (role == Qt::DisplayRole || role == kSortRole) return QString::fromStdString(r.policy);
        return {};
    }
    const double v = value(row, column);
    if (role == kSortRole) return v;
    if (role != Qt::DisplayRole) return {};
    switch (column) {
        case JctHours:
        case JctIntervals:
            return QString::number(v, 'f', 2);
        case Slowdown:
            return QString::number(v, 'f', 3);
        case Forwarded:
        case MultiServer:
            return QString::number(static_cast<int>(v));
        default:
            return QString::number(v, 'f', 2) + QLatin1Char('%');
    }
}

QVariant PlacementResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case Policy:
                return tr("policy");
            case JctHours:
                return tr("avg JCT (h)");
            case JctIntervals:
                return tr("avg JCT (intervals)");
            case Slowdown:
                return tr("slowdown");
            case Forwarded:
                return tr("forwarded");
            case MultiServer:
                return tr("multi-server");
            default: {
                const int tier = section - FirstTier;
                return tr("tier%1 %2G").arg(tier).arg(m_tierGbps[static_cast<std::size_t>(tier)], 0, 'g', 6);
            }
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Policy:
                return tr("Placement policy and level (@device: socket and GPU group chosen too)");
            case JctHours:
                return tr("Average job completion time (submit to end), in hours");
            case JctIntervals:
                return tr("Average job completion time in scheduling intervals");
            case Slowdown:
                return tr(
                    "Average running time over the running time alone, without interference or "
                    "communication");
            case Forwarded:
                return tr("Jobs passed on to another pod's scheduler before being placed");
            case MultiServer:
                return tr("Jobs whose tasks run on more than one server");
            default:
                return tr("Time-averaged load / capacity of tier %1's links over the makespan, both "
                          "directions")
                    .arg(section - FirstTier);
        }
    }
    return {};
}

QString PlacementResultsModel::toCsv() const {
    QStringList lines;
    QStringList header;
    for (int c = 0; c < columnCount(); ++c)
        header << QString::fromStdString(
            cl::csvField(headerData(c, Qt::Horizontal).toString().toStdString()));
    lines << header.join(QLatin1Char(','));
    for (int row = 0; row < rowCount(); ++row) {
        QStringList fields{
            QString::fromStdString(cl::csvField(m_results[static_cast<std::size_t>(row)].policy))};
        for (int c = JctHours; c < columnCount(); ++c) {
            const double v = value(row, c);
            fields << (c == Forwarded || c == MultiServer ? QString::number(static_cast<int>(v))
                                                          : QString::number(v, 'g', 10));
        }
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace cl::views
