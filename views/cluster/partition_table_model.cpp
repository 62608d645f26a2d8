#include "views/cluster/partition_table_model.h"

#include <cmath>

#include <QRegularExpression>

#include "views/cluster/cluster_document.h"

namespace cl::views {

QString maxTimeText(double seconds) {
    if (!(seconds > 0)) return PartitionTableModel::tr("unlimited");
    const long long total = std::llround(seconds);
    const long long hours = total / 3600;
    const int minutes = static_cast<int>(total / 60 % 60);
    const int rest = static_cast<int>(total % 60);
    QString text = QStringLiteral("%1:%2").arg(hours).arg(minutes, 2, 10, QLatin1Char('0'));
    if (rest != 0) text += QStringLiteral(":%1").arg(rest, 2, 10, QLatin1Char('0'));
    return text;
}

std::optional<double> parseMaxTime(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t.isEmpty() || t == QLatin1String("unlimited") || t == QLatin1String("infinite") ||
        t == PartitionTableModel::tr("unlimited"))
        return 0.0;
    static const QRegularExpression form(
        QStringLiteral(R"(^(?:(\d{1,5})-)?(\d{1,7}):(\d{1,2})(?::(\d{1,2}))?$)"));
    const QRegularExpressionMatch m = form.match(t);
    if (!m.hasMatch()) return std::nullopt;
    const double days = m.captured(1).isEmpty() ? 0.0 : m.captured(1).toDouble();
    const double hours = m.captured(2).toDouble();
    const int minutes = m.captured(3).toInt();
    const int seconds = m.captured(4).isEmpty() ? 0 : m.captured(4).toInt();
    if (minutes > 59 || seconds > 59) return std::nullopt;
    return ((days * 24.0 + hours) * 60.0 + minutes) * 60.0 + seconds;
}

PartitionTableModel::PartitionTableModel(ClusterDocument* document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document), m_rows(document->partitionCount()) {
    connect(document, &ClusterDocument::changed, this, &PartitionTableModel::documentChanged);
}

// An edit keeps the row count: the rows are refreshed in place, so that an editor committing
// its value (which pushes the edit) is not torn down by a model reset under it.
void PartitionTableModel::documentChanged() {
    const int rows = m_document->partitionCount();
    if (rows == m_rows) {
        if (rows > 0) emit dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int PartitionTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_rows;
}

int PartitionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString PartitionTableModel::memberText(int row) const {
    const std::string& name = m_document->cluster().partitions[static_cast<std::size_t>(row)].name;
    int servers = 0;
    int gpus = 0;
    for (const cl::Server& s : m_document->cluster().servers)
        for (const std::string& n : s.partitions)
            if (n == name) {
                ++servers;
                gpus += s.gpus;
            }
    if (servers == 0) return tr("no servers yet (type it in a server's Partitions field)");
    return (servers == 1 ? tr("1 server") : tr("%1 servers").arg(servers)) +
           (gpus == 1 ? tr(", 1 GPU") : tr(", %1 GPUs").arg(gpus));
}

QVariant PartitionTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_rows || index.row() >= m_document->partitionCount()) return {};
    const cl::Partition& p = m_document->cluster().partitions[static_cast<std::size_t>(index.row())];
    const QString name = QString::fromStdString(p.name);
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            switch (index.column()) {
                case NameColumn:
                    return name;
                case TierColumn:
                    return QString::number(p.priority_tier);
                case MaxTimeColumn:
                    return maxTimeText(p.max_time);
                default:
                    return {};
            }
        case Qt::CheckStateRole:
            if (index.column() == DefaultColumn) return p.is_default ? Qt::Checked : Qt::Unchecked;
            return {};
        case Qt::ToolTipRole:
            switch (index.column()) {
                case NameColumn:
                    return tr("Partition %1: %2").arg(name, memberText(index.row()));
                case TierColumn:
                    return tr("PriorityTier %1 of partition %2").arg(p.priority_tier).arg(name);
                case MaxTimeColumn:
                    return p.max_time > 0 ? tr("Jobs in %1 run at most %2 (hours:minutes)")
                                                .arg(name, maxTimeText(p.max_time))
                                          : tr("Jobs in %1 have no MaxTime limit").arg(name);
                case DefaultColumn:
                    return p.is_default ? tr("%1 is the default partition").arg(name)
                                        : tr("Check to make %1 the default partition").arg(name);
                default:
                    return {};
            }
        case Qt::TextAlignmentRole:
            return index.column() == TierColumn || index.column() == MaxTimeColumn
                       ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                       : QVariant();
        default:
            return {};
    }
}

bool PartitionTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.row() >= m_document->partitionCount()) return false;
    cl::Partition p = m_document->cluster().partitions[static_cast<std::size_t>(index.row())];
    const QString text = value.toString().trimmed();
    if (index.column() == DefaultColumn && role == Qt::CheckStateRole) {
        p.is_default = value.toInt() == Qt::Checked;
    } else if (role != Qt::EditRole) {
        return false;
    } else if (index.column() == NameColumn) {
        p.name = text.toStdString();
    } else if (index.column() == TierColumn) {
        bool ok = false;
        const int tier = text.toInt(&ok);
        if (!ok || tier < 0 || tier > 65535) {
            emit refused(tr("PriorityTier must be a whole number from 0 to 65535, not '%1'.").arg(text));
            return false;
        }
        p.priority_tier = tier;
    } else if (index.column() == MaxTimeColumn) {
        const std::optional<double> seconds = parseMaxTime(text);
        if (!seconds) {
            emit refused(tr("MaxTime '%1' is not a time: enter hours:minutes (2:30), days-hours:minutes "
                            "(1-12:00) or unlimited.")
                             .arg(text));
            return false;
        }
        p.max_time = *seconds;
    } else {
        return false;
    }
    if (p == m_document->cluster().partitions[static_cast<std::size_t>(index.row())]) return false;
    QString error;
    if (!m_document->setPartition(index.row(), p, &error)) {
        emit refused(tr("Not changed: %1").arg(error));
        return false;
    }
    return true;
}

Qt::ItemFlags PartitionTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    const Qt::ItemFlags base = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    return index.column() == DefaultColumn ? base | Qt::ItemIsUserCheckable : base | Qt::ItemIsEditable;
}

// The headers and their tooltips speak Slurm's terms (slurm.conf, partition configuration).
QVariant PartitionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case NameColumn:
                return tr("Name");
            case TierColumn:
                return tr("Tier");
            case MaxTimeColumn:
                return tr("MaxTime");
            case DefaultColumn:
                return tr("Default");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case NameColumn:
                return tr(
                    "PartitionName: the name jobs ask for (sbatch --partition). Renaming it renames "
                    "it in every server; no spaces or commas.");
            case TierColumn:
                return tr(
                    "PriorityTier (0 to 65535): the scheduler considers jobs of a higher tier first, "
                    "and it weighs in multifactor priority. Slurm's default is 1.");
            case MaxTimeColumn:
                return tr(
                    "MaxTime: the longest a job may run in this partition, as hours:minutes (2:30) "
                    "or days-hours:minutes (1-12:00); a job without a time limit gets it. "
                    "\"unlimited\" = no limit (Slurm's UNLIMITED).");
            case DefaultColumn:
                return tr(
                    "Default=YES: the partition of jobs that name none. Only one partition is the "
                    "default.");
        }
    }
    return {};
}

}  // namespace cl::views
