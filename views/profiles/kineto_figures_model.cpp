#include "views/profiles/kineto_figures_model.h"

#include <QFileInfo>
#include <QFont>
#include <QLocale>

namespace cl::views {

namespace {

double valueOf(const cl::KinetoStepFigures& f, int column) {
    switch (column) {
        case KinetoFiguresModel::IterationColumn:
            return f.iteration_ms;
        case KinetoFiguresModel::StorageColumn:
            return f.storage_ms;
        case KinetoFiguresModel::CpuColumn:
            return f.cpu_ms;
        case KinetoFiguresModel::GpuColumn:
            return f.gpu_ms;
        case KinetoFiguresModel::NcclColumn:
            return f.nccl_ms;
        case KinetoFiguresModel::NetworkColumn:
            return f.network_ms;
        default:
            return 0.0;
    }
}

}  // namespace

KinetoFiguresModel::KinetoFiguresModel(QObject* parent) : QAbstractTableModel(parent) {}

void KinetoFiguresModel::setRanks(const cl::KinetoProfile& profile) {
    beginResetModel();
    m_ranks = true;
    m_rows.clear();
    for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
        const cl::KinetoRankProfile& r = profile.ranks[i];
        Row row;
        const bool slowest = i == profile.slowest_rank && profile.ranks.size() > 1;
        row.label = slowest ? tr("rank %1 (slowest)").arg(r.rank) : tr("rank %1").arg(r.rank);
        row.figures = r.median;
        row.steps = static_cast<int>(r.steps.size());
        row.file = QFileInfo(QString::fromStdString(r.file)).fileName();
        if (!r.gpu_name.empty()) row.file += QStringLiteral(" \u00b7 ") + QString::fromStdString(r.gpu_name);
        row.tip = QString::fromStdString(r.file);
        if (slowest)
            row.tip += QLatin1Char('\n') + tr("The profile takes this rank's medians: the slowest rank "
                                              "sets the pace of a data-parallel step");
        row.bold = slowest;
        row.order = r.rank;
        m_rows.push_back(row);
    }
    endResetModel();
}

void KinetoFiguresModel::setSteps(const cl::KinetoRankProfile& rank) {
    beginResetModel();
    m_ranks = false;
    m_rows.clear();
    for (const cl::KinetoStepFigures& s : rank.steps) {
        Row row;
        row.label = QString::number(s.step);
        row.figures = s;
        row.order = s.step;
        m_rows.push_back(row);
    }
    Row median;
    median.label = tr("median");
    median.figures = rank.median;
    median.bold = true;
    median.order = 1e18;  // after every step
    median.tip = tr("Each figure's median over the steps on its own (they need not add up)");
    m_rows.push_back(median);
    endResetModel();
}

void KinetoFiguresModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int KinetoFiguresModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int KinetoFiguresModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : (m_ranks ? ColumnCount : StepsColumn);
}

QVariant KinetoFiguresModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    const bool number = column >= IterationColumn && column <= NetworkColumn;
    switch (role) {
        case Qt::DisplayRole:
            if (column == LabelColumn) return row.label;
            if (number) {
                const double v = valueOf(row.figures, column);
                return QLocale().toString(v, 'f', v >= 100.0 ? 1 : 2);
            }
            if (column == StepsColumn) return row.steps;
            if (column == FileColumn) return row.file;
            return {};
        case SortRole:
            if (column == LabelColumn) return row.order;
            if (number) return valueOf(row.figures, column);
            if (column == StepsColumn) return row.steps;
            return row.file;
        case Qt::TextAlignmentRole:
            if (column == FileColumn || (column == LabelColumn && m_ranks)) return {};
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (row.bold) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::ToolTipRole:
            return row.tip.isEmpty() ? QVariant() : QVariant(row.tip);
        default:
            return {};
    }
}

QVariant KinetoFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    static const char* const kNames[] = {
        QT_TR_NOOP("Step"),    QT_TR_NOOP("Iteration"), QT_TR_NOOP("Storage"),
        QT_TR_NOOP("CPU"),     QT_TR_NOOP("GPU"),       QT_TR_NOOP("NCCL"),
        QT_TR_NOOP("Network"), QT_TR_NOOP("Steps"),     QT_TR_NOOP("File")};
    static const char* const kTips[] = {
        QT_TR_NOOP("The training step (ProfilerStep#N); the first step is warm-up and left out"),
        QT_TR_NOOP("The step's length, ms"),
        QT_TR_NOOP("DataLoader __next__ spans of the step, ms"),
        QT_TR_NOOP("The rest of the step: iteration - GPU - network - storage, ms"),
        QT_TR_NOOP("Union of the step's non-NCCL kernels, ms"),
        QT_TR_NOOP("Union of the step's NCCL kernels, ms"),
        QT_TR_NOOP("NCCL time not overlapped by other kernels (exposed communication), ms"),
        QT_TR_NOOP("Training steps measured after the warm-up step"),
        QT_TR_NOOP("The trace file and its GPU")};
    if (role == Qt::DisplayRole) {
        if (section == LabelColumn && m_ranks) return tr("Rank");
        return tr(kNames[section]);
    }
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

}  // namespace cl::views
