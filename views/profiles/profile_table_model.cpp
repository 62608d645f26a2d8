#include "views/profiles/profile_table_model.h"

#include <cmath>
#include <limits>

#include <QColor>
#include <QPalette>

#include "views/common/duration_text.h"
#include "views/profiles/profile_figures.h"

namespace cl::views {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A cell's milliseconds without the unit (the header names it); an en dash for no value.
QString cellMs(double ms) {
    if (std::isnan(ms)) return QStringLiteral("\u2013");
    return msText(ms, MsDecimals::ByMagnitude, MsUnit::Omitted);
}

}  // namespace

ProfileTableModel::ProfileTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProfileTableModel::setProfiles(std::shared_ptr<const cl::ProfileSet> profiles, int gpus) {
    beginResetModel();
    m_profiles = std::move(profiles);
    m_gpus = gpus;
    rebuild();
    endResetModel();
}

void ProfileTableModel::setGpus(int gpus) {
    if (gpus == m_gpus) return;
    m_gpus = gpus;
    rebuild();
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ProfileTableModel::clear() {
    setProfiles(nullptr);
}

void ProfileTableModel::rebuild() {
    // The model row pointers stay valid: the set is shared and never changed.
    m_rows.clear();
    if (m_profiles) {
        for (const auto& [name, model] : m_profiles->models) {
            Row r;
            r.model = &model;
            if (!model.by_gpus.empty()) r.row = m_gpus > 0 ? model.at(m_gpus) : &model.by_gpus.front();
            if (const auto steps = stepSeries(model)) r.steps = static_cast<int>(steps->steps.size());
            m_rows.push_back(r);
        }
    }
}

int ProfileTableModel::rowOf(const QString& model) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (QString::fromStdString(m_rows[i].model->name) == model) return static_cast<int>(i);
    return -1;
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProfileTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double ProfileTableModel::columnMs(const Row& row, int column) const {
    if (!row.row) return kNaN;
    if (column == IterationColumn) return row.row->solo_iteration_time * 1000.0;
    const std::vector<StageSegment> segments = stageSegments(*row.row);
    for (const StageSegment& s : segments) {
        const bool match = (column == StorageColumn &&
                            (s.resource == StageResource::Storage || s.resource == StageResource::LoadCpu)) ||
                           (column == CpuColumn && s.resource == StageResource::Cpu) ||
                           (column == GpuColumn && s.resource == StageResource::Gpu) ||
                           (column == NetworkColumn && s.resource == StageResource::Network);
        if (match) return s.seconds * 1000.0;
    }
    return kNaN;
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    const bool loadCpu = r.row && r.row->stage_times.size() == 3;
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case ModelColumn:
                    return QString::fromStdString(r.model->name);
                case GpusColumn:
                    return r.row ? QVariant(r.row->gpus) : QVariant(QStringLiteral("\u2013"));
                case StagesColumn:
                    return r.row ? stageLayoutName(*r.row) : tr("no figures");
                case StepsColumn:
                    return r.steps > 0 ? QVariant(r.steps) : QVariant(QStringLiteral("\u2013"));
                case StorageColumn:
                    if (loadCpu) return tr("%1 (load+CPU)").arg(cellMs(columnMs(r, column)));
                    return cellMs(columnMs(r, column));
                case CpuColumn:
                    if (loadCpu) return tr("in load+CPU");
                    return cellMs(columnMs(r, column));
                default:
                    return cellMs(columnMs(r, column));
            }
        case SortRole:
            switch (column) {
                case ModelColumn:
                case StagesColumn:
                    return data(index, Qt::DisplayRole);
                case GpusColumn:
                    return r.row ? double(r.row->gpus) : kNaN;
                case StepsColumn:
                    return double(r.steps);
                default:
                    return columnMs(r, column);
            }
        case Qt::TextAlignmentRole:
            if (column == ModelColumn || column == StagesColumn) return {};
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (column == CpuColumn && loadCpu) return QPalette().brush(QPalette::Disabled, QPalette::Text);
            return {};
        case Qt::ToolTipRole: {
            if (column == CpuColumn && loadCpu)
                return tr(
                    "The built-in profiles measured loading and preprocessing as one stage "
                    "(load+CPU), which occupies the storage and the CPU slot");
            if (column == StepsColumn || column == ModelColumn) {
                if (r.steps == 0)
                    return tr("%1: no per-step figures (not imported from a profiler trace)")
                        .arg(QString::fromStdString(r.model->name));
                return tr("%1: imported from a PyTorch profiler trace, figures of %n training step(s)",
                          nullptr, r.steps)
                    .arg(QString::fromStdString(r.model->name));
            }
            if (column == GpusColumn && r.row && m_gpus > 0 && r.row->gpus != m_gpus)
                return tr("Not profiled at %1 GPUs: the nearest profiled count, as a run uses it")
                    .arg(m_gpus);
            return {};
        }
        default:
            return {};
    }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kNames[] = {
        QT_TR_NOOP("Model"),        QT_TR_NOOP("GPUs"),     QT_TR_NOOP("Iteration (ms)"),
        QT_TR_NOOP("Storage (ms)"), QT_TR_NOOP("CPU (ms)"), QT_TR_NOOP("GPU (ms)"),
        QT_TR_NOOP("Network (ms)"), QT_TR_NOOP("Stages"),   QT_TR_NOOP("Steps")};
    static const char* const kTips[] = {
        QT_TR_NOOP("The model's name, as traces and rules refer to it"),
        QT_TR_NOOP("The GPU count of the figures shown (each model is profiled at one or more counts)"),
        QT_TR_NOOP("Time per iteration running alone"),
        QT_TR_NOOP("Loading data per iteration (with preprocessing for the built-in three-stage profiles)"),
        QT_TR_NOOP("Preprocessing and other CPU work per iteration"),
        QT_TR_NOOP("Forward and backward pass on the GPU per iteration"),
        QT_TR_NOOP("Gradient synchronisation not hidden behind computation, per iteration"),
        QT_TR_NOOP("Which resources the stage times stand for"),
        QT_TR_NOOP("Training steps with figures of their own (profiles imported from profiler traces)")};
    if (role == Qt::DisplayRole) return tr(kNames[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

}  // namespace cl::views
