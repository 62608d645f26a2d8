#include "views/slurm_import/slurm_job_table_model.h"

#include <cmath>
#include <iterator>
#include <limits>

#include <QApplication>
#include <QDateTime>
#include <QLocale>
#include <QStyle>
#include <QTimeZone>

#include "views/common/format.h"

namespace cl::views {

namespace {

QString text(const std::string& s) {
    return s.empty() ? QStringLiteral("\u2013") : QString::fromStdString(s);
}

}  // namespace

SlurmJobTableModel::SlurmJobTableModel(QObject* parent)
    : QAbstractTableModel(parent), m_firstUtc(std::numeric_limits<double>::quiet_NaN()) {}

void SlurmJobTableModel::setFirstSubmitUtc(double seconds) {
    m_firstUtc = seconds;
    if (rowCount() > 0) emit dataChanged(index(0, SubmitColumn), index(rowCount() - 1, SubmitColumn));
    emit headerDataChanged(Qt::Horizontal, SubmitColumn, SubmitColumn);
}

QString SlurmJobTableModel::submitText(double submit) const {
    if (std::isnan(m_firstUtc)) return formatRunTime(submit - m_first);
    const auto ms = static_cast<qint64>(std::llround((m_firstUtc + submit - m_first) * 1000.0));
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc())
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

void SlurmJobTableModel::setTrace(std::shared_ptr<const cl::Trace> trace) {
    beginResetModel();
    m_trace = std::move(trace);
    m_first = m_trace && !m_trace->jobs.empty() ? m_trace->firstSubmit() : 0.0;
    endResetModel();
}

void SlurmJobTableModel::setNeverFits(std::vector<std::string> reasons) {
    m_neverFits = std::move(reasons);
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString SlurmJobTableModel::neverFits(int row) const {
    if (row < 0 || static_cast<std::size_t>(row) >= m_neverFits.size()) return {};
    return QString::fromStdString(m_neverFits[static_cast<std::size_t>(row)]);
}

int SlurmJobTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_trace ? 0 : static_cast<int>(m_trace->jobs.size());
}

int SlurmJobTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SlurmJobTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const cl::Job& j = job(index.row());
    const int column = index.column();
    const QLocale locale;
    if (role == Qt::DisplayRole) {
        switch (column) {
            case IdColumn:
                return QString::fromStdString(j.id);
            case NameColumn:
                return text(j.name);
            case UserColumn:
                return text(j.user);
            case AccountColumn:
                return text(j.account);
            case PartitionColumn:
                return text(j.partition);
            case GpusColumn:
                return j.gpus;
            case GpuTypeColumn:
                return text(j.gpu_type);
            case CpusColumn:
                return j.cpus > 0 ? QVariant(j.cpus) : QVariant(QStringLiteral("\u2013"));
            case MemoryColumn:
                return j.memory_gb > 0.0 ? locale.toString(j.memory_gb, 'f', 1) : QStringLiteral("\u2013");
            case SubmitColumn:
                return submitText(j.submit_time);
            case DurationColumn:
                return formatDuration(j.duration);
            case TimeLimitColumn:
                return j.time_limit > 0.0 ? formatDuration(j.time_limit) : QStringLiteral("\u2013");
            case WaitedColumn:
                return j.recorded_start >= 0.0 ? formatDuration(j.recorded_start - j.submit_time)
                                               : QStringLiteral("\u2013");
            case ProfileColumn:
                return text(j.model);
            case IterationsColumn:
                return j.iterations > 0.0 ? locale.toString(j.iterations, 'f', 0) : QStringLiteral("\u2013");
        }
        return {};
    }
    if (role == SortRole) {
        switch (column) {
            case GpusColumn:
                return j.gpus;
            case CpusColumn:
                return j.cpus;
            case MemoryColumn:
                return j.memory_gb;
            case SubmitColumn:
                return j.submit_time;
            case DurationColumn:
                return j.duration;
            case TimeLimitColumn:
                return j.time_limit;
            case WaitedColumn:
                return j.recorded_start >= 0.0 ? j.recorded_start - j.submit_time : -1.0;
            case IterationsColumn:
                return j.iterations;
            case IdColumn:
                return index.row();  // file order
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole) {
        switch (column) {
            case GpusColumn:
            case CpusColumn:
            case MemoryColumn:
            case SubmitColumn:
            case DurationColumn:
            case TimeLimitColumn:
            case WaitedColumn:
            case IterationsColumn:
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    }
    const QString neverFit = neverFits(index.row());
    if (role == Qt::DecorationRole && column == IdColumn && !neverFit.isEmpty())
        return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    if (role == Qt::ToolTipRole) {
        if (!neverFit.isEmpty())
            return tr("Can never run on this cluster; a run leaves it out: %1").arg(neverFit);
        if (column == DurationColumn) return formatDurationExact(j.duration);
        if (column == SubmitColumn && !std::isnan(m_firstUtc))
            return tr("%1 after the first job's submission").arg(formatRunTime(j.submit_time - m_first));
        if (column == TimeLimitColumn)
            return j.time_limit > 0.0 ? formatDurationExact(j.time_limit) : tr("No time limit");
        if (column == WaitedColumn && j.recorded_start >= 0.0)
            return formatDurationExact(j.recorded_start - j.submit_time);
        if (column == ProfileColumn && j.model.empty())
            return tr("No profile: no rule matched and there is no default profile");
        if (column == IterationsColumn && j.iterations <= 0.0)
            return tr("The run time is kept as measured (no profile, or its GPU type is unknown)");
    }
    return {};
}

QVariant SlurmJobTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kNames[] = {
        QT_TR_NOOP("Job"),         QT_TR_NOOP("Name"),      QT_TR_NOOP("User"),      QT_TR_NOOP("Account"),
        QT_TR_NOOP("Partition"),   QT_TR_NOOP("GPUs"),      QT_TR_NOOP("GPU type"),  QT_TR_NOOP("CPUs"),
        QT_TR_NOOP("Memory (GB)"), QT_TR_NOOP("Submitted"), QT_TR_NOOP("Ran"),       QT_TR_NOOP("Limit"),
        QT_TR_NOOP("Waited"),      QT_TR_NOOP("Profile"),   QT_TR_NOOP("Iterations")};
    static const char* const kTips[] = {
        QT_TR_NOOP("Slurm's job id (array tasks and heterogeneous components are jobs of their own)"),
        QT_TR_NOOP("JobName"),
        QT_TR_NOOP("User"),
        QT_TR_NOOP("Account"),
        QT_TR_NOOP("Partition"),
        QT_TR_NOOP("GPUs from the TRES"),
        QT_TR_NOOP("The GPU type it ran on, in our GPU type names"),
        QT_TR_NOOP("NCPUS"),
        QT_TR_NOOP("ReqMem for the whole job"),
        QT_TR_NOOP("Submit time after the first job's"),
        QT_TR_NOOP("Run time measured by Slurm, on its own GPU type"),
        QT_TR_NOOP("Timelimit: a replay ends the job there, as Slurm would"),
        QT_TR_NOOP("Recorded start minus submit: what the Replay view compares the replay's waits with"),
        QT_TR_NOOP("The profile the rules gave it (the first rule that matches, else the default)"),
        QT_TR_NOOP("Its run time in iterations of its profile on its GPU type")};
    static_assert(std::size(kNames) == ColumnCount && std::size(kTips) == ColumnCount);
    const bool utc = section == SubmitColumn && !std::isnan(m_firstUtc);
    if (role == Qt::DisplayRole) return utc ? tr("Submitted (UTC)") : tr(kNames[section]);
    if (role == Qt::ToolTipRole)
        return utc ? tr("Submit time in UTC: the history's times moved by its time zone")
                   : tr(kTips[section]);
    return {};
}

}  // namespace cl::views
