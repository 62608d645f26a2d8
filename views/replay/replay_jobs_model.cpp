#include "views/replay/replay_jobs_model.h"

#include <cmath>

#include "views/common/format.h"

namespace cl::views {

QString signedDuration(double seconds) {
    if (seconds == 0.0) return formatDuration(0.0);
    return (seconds > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + formatDuration(std::abs(seconds));
}

ReplayJobsModel::ReplayJobsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReplayJobsModel::setCheck(std::shared_ptr<const cl::ReplayCheck> check) {
    beginResetModel();
    m_check = std::move(check);
    endResetModel();
}

const cl::ReplayJob* ReplayJobsModel::job(int row) const {
    if (!m_check || row < 0 || row >= static_cast<int>(m_check->jobs.size())) return nullptr;
    return &m_check->jobs[static_cast<std::size_t>(row)];
}

int ReplayJobsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_check ? 0 : static_cast<int>(m_check->jobs.size());
}

int ReplayJobsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayJobsModel::data(const QModelIndex& index, int role) const {
    const cl::ReplayJob* j = index.isValid() ? job(index.row()) : nullptr;
    if (!j) return {};
    const int column = index.column();
    if (role == SortRole) {
        switch (column) {
            case JobColumn:
                return QString::fromStdString(j->id);
            case GpusColumn:
                return j->gpus;
            case PartitionColumn:
                return QString::fromStdString(j->partition);
            case RecordedColumn:
                return j->recorded_start;
            case SimulatedColumn:
                return j->simulated_start;
            case DifferenceColumn:
                return std::abs(j->difference);
            default:
                return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
            case JobColumn:
                return QString::fromStdString(j->id);
            case GpusColumn:
                return j->gpus;
            case PartitionColumn:
                return QString::fromStdString(j->partition);
            case RecordedColumn:
                return formatRunTime(j->recorded_start);
            case SimulatedColumn:
                return formatRunTime(j->simulated_start);
            case DifferenceColumn:
                return signedDuration(j->difference);
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
            case RecordedColumn:
                return formatDurationExact(j->recorded_start);
            case SimulatedColumn:
                return formatDurationExact(j->simulated_start);
            case DifferenceColumn:
                return (j->difference > 0   ? tr("Started %1 later in the replay than recorded")
                        : j->difference < 0 ? tr("Started %1 earlier in the replay than recorded")
                                            : tr("Started at the recorded time%1"))
                    .arg(j->difference == 0 ? QString() : formatDurationExact(std::abs(j->difference)));
            default:
                return {};
        }
    }
    if (role == Qt::TextAlignmentRole && column != JobColumn && column != PartitionColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ReplayJobsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case JobColumn:
                return tr("Job");
            case GpusColumn:
                return tr("GPUs");
            case PartitionColumn:
                return tr("Partition");
            case RecordedColumn:
                return tr("Recorded");
            case SimulatedColumn:
                return tr("Simulated");
            case DifferenceColumn:
                return tr("Difference");
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case JobColumn:
                return tr("The job's id in the trace");
            case GpusColumn:
                return tr("GPUs the job asked for (in all)");
            case PartitionColumn:
                return tr("The partitions the job asked for (empty: the cluster's default)");
            case RecordedColumn:
                return tr("When the job started in the recorded run (on the trace's clock)");
            case SimulatedColumn:
                return tr("When the job started in the replay (on the same clock)");
            case DifferenceColumn:
                return tr(
                    "Simulated minus recorded start: + the replay started it later. Sorts by size, "
                    "largest first: the jobs the replay got most wrong");
            default:
                return {};
        }
    }
    return {};
}

}  // namespace cl::views
