#include "views/interleave/stage_table_model.h"

#include <cmath>
#include <limits>
#include <numeric>

#include <QLocale>

namespace cl::views {

namespace {
constexpr double kNoSolo = std::numeric_limits<double>::quiet_NaN();
}

QString formatMs(double ms) {
    const QLocale locale;
    if (!std::isfinite(ms)) return QStringLiteral("–");
    const int decimals = std::abs(ms) >= 100 ? 0 : (std::abs(ms) >= 10 ? 1 : 2);
    return locale.toString(ms, 'f', decimals);
}

StageTableModel::StageTableModel(QObject* parent) : QAbstractTableModel(parent) {}

bool StageTableModel::setJobs(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                              const std::vector<double>& solo_ms, const QStringList& stage_names) {
    if (static_cast<std::size_t>(names.size()) != stages_ms.size()) return false;
    if (!solo_ms.empty() && solo_ms.size() != stages_ms.size()) return false;
    const std::size_t k = stages_ms.empty() ? 0 : stages_ms.front().size();
    if (static_cast<std::size_t>(stage_names.size()) != k) return false;
    for (const auto& job : stages_ms) {
        if (job.size() != k) return false;
        for (double t : job)
            if (!std::isfinite(t) || t < 0) return false;
    }
    for (double s : solo_ms)
        if (!std::isfinite(s) || s <= 0) return false;

    beginResetModel();
    m_names = names;
    m_stageNames = stage_names;
    m_stages = stages_ms;
    m_solo = solo_ms.empty() ? std::vector<double>(stages_ms.size(), kNoSolo) : solo_ms;
    endResetModel();
    emit stagesChanged();
    return true;
}

std::vector<double> StageTableModel::soloTimes() const {
    std::vector<double> out;
    out.reserve(m_stages.size());
    for (std::size_t i = 0; i < m_stages.size(); ++i)
        out.push_back(std::isnan(m_solo[i]) ? std::accumulate(m_stages[i].begin(), m_stages[i].end(), 0.0)
                                            : m_solo[i]);
    return out;
}

bool StageTableModel::setStageTime(int job, int stage, double ms) {
    if (job < 0 || job >= jobCount() || stage < 0 || stage >= stageCount()) return false;
    if (!std::isfinite(ms) || ms <= 0) {
        emit editRefused(tr("%1, %2: a stage time must be a number of milliseconds greater than 0")
                             .arg(m_names.value(job), m_stageNames.value(stage)));
        return false;
    }
    auto& slot = m_stages[static_cast<std::size_t>(job)][static_cast<std::size_t>(stage)];
    if (slot == ms) return true;
    slot = ms;
    emit dataChanged(index(job, stage), index(job, stage));
    if (std::isnan(m_solo[static_cast<std::size_t>(job)]))
        emit dataChanged(index(job, soloColumn()), index(job, soloColumn()));
    emit stagesChanged();
    return true;
}

int StageTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : jobCount();
}

int StageTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || m_stages.empty() ? 0 : stageCount() + 1;
}

QVariant StageTableModel::data(const QModelIndex& index, int role) const {
    // An invalid index is asked for by Qt itself (a table's Ctrl+C with no current cell): no warning.
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const bool solo_column = index.column() == soloColumn();
    const double value =
        solo_column ? soloTimes()[row] : m_stages[row][static_cast<std::size_t>(index.column())];
    switch (role) {
        case Qt::DisplayRole:
            return formatMs(value);
        case Qt::EditRole:
            return value;
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::ToolTipRole:
            if (solo_column)
                return std::isnan(m_solo[row])
                           ? tr("%1 alone: the sum of its stage times, %2 ms")
                                 .arg(m_names.value(index.row()), formatMs(value))
                           : tr("%1 alone: %2 ms per iteration, measured in the model profile (stages "
                                "overlap "
                                "inside a job, so this is not their sum; editing stages does not change it)")
                                 .arg(m_names.value(index.row()), formatMs(value));
            return tr("%1, %2: %3 ms per iteration. Double-click to edit (a number > 0), or drag the block's "
                      "right edge in the chart.")
                .arg(m_names.value(index.row()), m_stageNames.value(index.column()), formatMs(value));
        default:
            return {};
    }
}

QVariant StageTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= m_names.size()) return {};
        return role == Qt::DisplayRole ? QStringLiteral("J%1 %2").arg(section + 1).arg(m_names[section])
                                       : tr("Job %1: %2").arg(section + 1).arg(m_names[section]);
    }
    if (section == soloColumn())
        return role == Qt::DisplayRole ? tr("alone (ms)") : tr("Iteration time of the job running alone");
    if (section < 0 || section >= m_stageNames.size()) return {};
    return role == Qt::DisplayRole
               ? tr("%1 (ms)").arg(m_stageNames[section])
               : tr("Time of the %1 stage per iteration, milliseconds").arg(m_stageNames[section]);
}

Qt::ItemFlags StageTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() < soloColumn()) f |= Qt::ItemIsEditable;
    return f;
}

bool StageTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    if (index.column() >= soloColumn()) return false;
    bool ok = false;
    double ms = value.toDouble(&ok);
    if (!ok && value.typeId() == QMetaType::QString) ms = QLocale().toDouble(value.toString(), &ok);
    if (!ok) {
        emit editRefused(
            tr("%1, %2: \"%3\" is not a number of milliseconds")
                .arg(m_names.value(index.row()), m_stageNames.value(index.column()), value.toString()));
        return false;
    }
    return setStageTime(index.row(), index.column(), ms);
}

}  // namespace cl::views
