#include "views/trace/job_table_model.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <QLocale>

#include "views/common/format.h"

namespace cl::views {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double parseNumericId(const std::string& id) {
    double value = 0.0;
    const char* end = id.data() + id.size();
    const auto [ptr, ec] = std::from_chars(id.data(), end, value);
    return (ec == std::errc() && ptr == end && !id.empty()) ? value : kNaN;
}

QString dash() {
    return QStringLiteral("\u2014");
}

QString formatSubmit(double seconds) {
    // Submit times read best as an offset "d hh:mm:ss" from the trace start.
    const auto total = static_cast<long long>(std::floor(seconds));
    const long long days = total / 86400;
    const int h = static_cast<int>(total % 86400 / 3600);
    const int m = static_cast<int>(total % 3600 / 60);
    const int s = static_cast<int>(total % 60);
    const QString hms = QStringLiteral("%1:%2:%3")
                            .arg(h, 2, 10, QLatin1Char('0'))
                            .arg(m, 2, 10, QLatin1Char('0'))
                            .arg(s, 2, 10, QLatin1Char('0'));
    return days > 0 ? JobTableModel::tr("%1 d %2").arg(days).arg(hms) : hms;
}

}  // namespace

JobTableModel::JobTableModel(QObject* parent) : QAbstractTableModel(parent) {}

double JobTableModel::effectiveDuration(const cl::Job& job, const cl::ProfileSet* profiles) {
    if (job.duration > 0.0) return job.duration;
    if (job.iterations <= 0.0) return kNaN;
    double solo_iteration_time = job.solo_iteration_time;
    if (solo_iteration_time <= 0.0 && profiles) {
        if (const cl::ModelProfile* profile = profiles->find(job.model)) {
            if (const cl::GpuCountProfile* at = profile->at(job.gpus))
                solo_iteration_time = at->solo_iteration_time;
        }
    }
    return solo_iteration_time > 0.0 ? job.iterations * solo_iteration_time : kNaN;
}

void JobTableModel::setTrace(std::shared_ptr<const cl::Trace> trace, const cl::ProfileSet* profiles,
                             int row_limit) {
    beginResetModel();
    m_trace = std::move(trace);
    m_profiles = profiles;
    m_durations.clear();
    m_numericIds.clear();
    m_rows = 0;
    m_planning = false;
    if (m_trace) {
        const auto size = static_cast<int>(m_trace->jobs.size());
        m_rows = row_limit > 0 ? std::min(size, row_limit) : size;
        m_durations.reserve(static_cast<std::size_t>(m_rows));
        m_numericIds.reserve(static_cast<std::size_t>(m_rows));
        for (int r = 0; r < m_rows; ++r) {
            const cl::Job& j = job(r);
            m_durations.push_back(effectiveDuration(j, m_profiles));
            m_numericIds.push_back(parseNumericId(j.id));
            m_planning = m_planning || !j.name.empty() || !j.account.empty() || !j.partition.empty() ||
                         !j.gpu_type.empty();
        }
    }
    endResetModel();
}

void JobTableModel::clear() {
    setTrace(nullptr);
}

int JobTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_rows;
}

int JobTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobTableModel::data(const QModelIndex& index, int role) const {
    // An invalid index is asked for by Qt itself (a table's Ctrl+C with no current cell): no warning.
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const cl::Job& j = job(row);
    switch (role) {
        case Qt::DisplayRole:
            return display(j, row, index.column());
        case Qt::ToolTipRole:
            return tooltip(j, row, index.column());
        case Qt::TextAlignmentRole: {
            const int c = index.column();
            const bool text = c == IdColumn || c == ModelColumn || c == UserColumn || isPlanningColumn(c);
            return QVariant::fromValue(
                Qt::Alignment((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
        }
        case SortRole:
            switch (index.column()) {
                case IdColumn:
                    return std::isnan(m_numericIds[static_cast<std::size_t>(row)])
                               ? QVariant(QString::fromStdString(j.id))
                               : QVariant(m_numericIds[static_cast<std::size_t>(row)]);
                case SubmitColumn:
                    return j.submit_time;
                case GpusColumn:
                    return static_cast<double>(j.gpus);
                case ModelColumn:
                    return QString::fromStdString(j.model);
                case DurationColumn:
                    return duration(row);
                case IterationsColumn:
                    return j.iterations;
                case BatchSizeColumn:
                    return static_cast<double>(j.batch_size);
                case UserColumn:
                    return QString::fromStdString(j.user);
                case NameColumn:
                    return QString::fromStdString(j.name);
                case AccountColumn:
                    return QString::fromStdString(j.account);
                case PartitionColumn:
                    return QString::fromStdString(j.partition);
                case GpuTypeColumn:
                    return QString::fromStdString(j.gpu_type);
                default:
                    return {};
            }
        default:
            return {};
    }
}

QVariant JobTableModel::display(const cl::Job& j, int row, int column) const {
    const QLocale locale;
    switch (column) {
        case IdColumn:
            return QString::fromStdString(j.id);
        case SubmitColumn:
            return formatSubmit(j.submit_time);
        case GpusColumn:
            return j.gpus;
        case ModelColumn:
            return j.model.empty() ? dash() : QString::fromStdString(j.model);
        case DurationColumn: {
            const double d = duration(row);
            return std::isnan(d) ? dash() : formatDuration(d);
        }
        case IterationsColumn:
            return j.iterations > 0.0 ? locale.toString(j.iterations, 'f', 0) : dash();
        case BatchSizeColumn:
            return j.batch_size > 0 ? QVariant(j.batch_size) : QVariant(dash());
        case UserColumn:
            return j.user.empty() ? dash() : QString::fromStdString(j.user);
        case NameColumn:
            return j.name.empty() ? dash() : QString::fromStdString(j.name);
        case AccountColumn:
            return j.account.empty() ? dash() : QString::fromStdString(j.account);
        case PartitionColumn:
            return j.partition.empty() ? dash() : QString::fromStdString(j.partition);
        case GpuTypeColumn:
            return j.gpu_type.empty() ? dash() : QString::fromStdString(j.gpu_type);
        default:
            return {};
    }
}

QVariant JobTableModel::tooltip(const cl::Job& j, int row, int column) const {
    const QLocale locale;
    switch (column) {
        case SubmitColumn:
            return tr("Submitted %1 after the trace start").arg(formatDurationExact(j.submit_time));
        case DurationColumn: {
            const double d = duration(row);
            if (std::isnan(d)) return tr("No duration: the trace gives none and no profile derives one");
            if (j.duration > 0.0) return tr("Solo run time %1 (from the trace)").arg(formatDurationExact(d));
            return tr("Solo run time %1, derived from %2 iterations and the iteration time")
                .arg(formatDurationExact(d), locale.toString(j.iterations, 'f', 0));
        }
        case ModelColumn:
            return j.model.empty() ? tr("The trace names no model; a model rule assigns one at run time")
                                   : tr("Model %1").arg(QString::fromStdString(j.model));
        case UserColumn:
            return j.vc.empty()
                       ? QVariant(QString::fromStdString(j.user))
                       : QVariant(tr("%1 (virtual cluster %2)")
                                      .arg(QString::fromStdString(j.user), QString::fromStdString(j.vc)));
        default:
            return {};
    }
}

QVariant JobTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kNames[] = {
        QT_TR_NOOP("Job"),      QT_TR_NOOP("Submit"),     QT_TR_NOOP("GPUs"),       QT_TR_NOOP("Model"),
        QT_TR_NOOP("Duration"), QT_TR_NOOP("Iterations"), QT_TR_NOOP("Batch size"), QT_TR_NOOP("User"),
        QT_TR_NOOP("Name"),     QT_TR_NOOP("Account"),    QT_TR_NOOP("Partition"),  QT_TR_NOOP("GPU type")};
    static const char* const kTips[] = {
        QT_TR_NOOP("Job id as the trace states it"),
        QT_TR_NOOP("Submit time after the trace start (days hh:mm:ss)"),
        QT_TR_NOOP("GPUs the job requests"),
        QT_TR_NOOP("Model the job trains"),
        QT_TR_NOOP("Solo run time; derived from iterations when the trace gives only those"),
        QT_TR_NOOP("Training iterations"),
        QT_TR_NOOP("Batch size"),
        QT_TR_NOOP("User who submitted the job"),
        QT_TR_NOOP("Job name in the scheduler's accounting (profile rules match it)"),
        QT_TR_NOOP("Account the job was charged to"),
        QT_TR_NOOP("Partition (queue) the job ran in"),
        QT_TR_NOOP("GPU type the job ran on, where its run time was measured")};
    if (role == Qt::DisplayRole) return tr(kNames[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

}  // namespace cl::views
