#include "views/plan/plan_table_model.h"

#include <algorithm>
#include <cmath>

#include <QFont>
#include <QLocale>

#include "views/common/cost_text.h"
#include "views/common/format.h"

namespace cl::views {

QString planMetricText(const std::string& key, double value) {
    if (std::isnan(value)) return QStringLiteral("\u2013");
    return cl::isRatioMetric(key) ? QLocale().toString(value, 'f', 2) : formatDuration(value);
}

QString planEstimateText(const std::string& key, const cl::Estimate& e) {
    if (std::isnan(e.mean)) return QStringLiteral("\u2013");
    QString text = planMetricText(key, e.mean);
    if (e.n > 1 && planMetricText(key, e.ci95) != planMetricText(key, 0))
        text += QStringLiteral(" \u00b1 ") + planMetricText(key, e.ci95);
    return text;
}

PlanTableModel::PlanTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanTableModel::setPlan(std::shared_ptr<const cl::PlanRequest> request,
                             std::shared_ptr<const cl::PlanReport> report) {
    beginResetModel();
    m_request = std::move(request);
    m_report = std::move(report);
    m_rows.clear();
    if (m_report) {
        for (std::size_t i = 0; i < m_report->candidates.size(); ++i)
            m_rows.push_back({static_cast<int>(i), cl::evaluationOf(*m_report, m_report->candidates[i])});
        // Plans (feasible, within budget) by cost, then the other feasible ones, then the rest.
        auto rank = [this](const Row& r) {
            const cl::CandidateResult& c = m_report->candidates[static_cast<std::size_t>(r.candidate)];
            return !c.servers ? 2 : (c.within_budget ? 0 : 1);
        };
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](const Row& a, const Row& b) {
            if (rank(a) != rank(b)) return rank(a) < rank(b);
            if (a.answer && b.answer && a.answer->cost_per_month != b.answer->cost_per_month)
                return a.answer->cost_per_month < b.answer->cost_per_month;
            return false;
        });
    }
    endResetModel();
}

void PlanTableModel::clear() {
    setPlan(nullptr, nullptr);
}

int PlanTableModel::candidateAt(int row) const {
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(row)].candidate
                                                             : -1;
}

int PlanTableModel::chosenRow() const {
    if (!m_report || !m_report->chosen) return -1;
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].candidate == static_cast<int>(*m_report->chosen)) return static_cast<int>(r);
    return -1;
}

int PlanTableModel::targets() const {
    return m_request ? static_cast<int>(m_request->targets.size()) : 0;
}

int PlanTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PlanTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_report ? 0 : FirstTarget + targets() + 1;
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || !m_request) return {};
    const int noteColumn = FirstTarget + targets();
    if (role == Qt::DisplayRole) {
        switch (section) {
            case Policy:
                return tr("Policy");
            case Type:
                return tr("Server type");
            case Servers:
                return tr("Servers");
            case CostPerMonth:
                return tr("Cost / month");
            default:
                if (section == noteColumn) return tr("Note");
                return QString::fromStdString(
                    m_request->targets[static_cast<std::size_t>(section - FirstTarget)].text);
        }
    }
    if (role == Qt::ToolTipRole) {
        if (section == Servers) return tr("The smallest count of this server type that meets every target");
        if (section == CostPerMonth) return tr("What the candidate cluster costs a month (730 hours)");
        if (section >= FirstTarget && section < noteColumn)
            return tr("Mean over the seeds at the planned load, with its 95% interval");
    }
    return {};
}

QVariant PlanTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_report) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const int candidate = row.candidate;
    const cl::CandidateResult& c = m_report->candidates[static_cast<std::size_t>(candidate)];
    const cl::PlanEvaluation* e = row.answer;
    const int noteColumn = FirstTarget + targets();
    const bool chosen = m_report->chosen && static_cast<int>(*m_report->chosen) == candidate;
    const auto plan = m_report->plans.find(c.policy);
    const bool policyPlan =
        plan != m_report->plans.end() && plan->second && static_cast<int>(*plan->second) == candidate;
    const QString typeKey = QString::fromStdString(cl::serverTypeKey(m_request->server_types[c.server_type]));
    if (role == Qt::FontRole && chosen) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Servers && index.column() < noteColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (index.column()) {
            case Policy:
                return QString::fromStdString(c.policy);
            case Type:
                return typeKey;
            case Servers:
                if (sort) return c.servers ? *c.servers : 1e9;
                return c.servers ? QString::number(*c.servers) : QStringLiteral("\u2013");
            case CostPerMonth:
                if (sort) return e ? e->cost_per_month : 1e18;
                return e ? formatUsd(e->cost_per_month) : QStringLiteral("\u2013");
            default:
                break;
        }
        if (index.column() == noteColumn) {
            QStringList notes;
            if (chosen)
                notes << tr("cheapest plan");
            else if (policyPlan)
                notes << tr("plan for %1").arg(QString::fromStdString(c.policy));
            if (c.servers && !c.within_budget) notes << tr("over budget");
            if (e && e->unpriced_servers > 0)
                notes << tr("%n unpriced server(s) counted as free", "", e->unpriced_servers);
            if (!c.note.empty()) notes << QString::fromStdString(c.note);
            return notes.join(QStringLiteral("; "));
        }
        if (!e) return sort ? QVariant(1e18) : QVariant(QStringLiteral("\u2013"));
        const cl::PlanTarget& t = m_request->targets[static_cast<std::size_t>(index.column() - FirstTarget)];
        const cl::Estimate& est = e->metrics.at(cl::planMetricKey(t));
        if (sort) return est.mean;
        return planEstimateText(cl::planMetricKey(t), est);
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == noteColumn) return data(index, Qt::DisplayRole);
        if (index.column() == Type)
            return QString::fromStdString(m_request->server_types[c.server_type].label);
    }
    return {};
}

PlanReportTable::PlanReportTable(PlanTableModel* source, QObject* parent) : QSortFilterProxyModel(parent) {
    setSourceModel(source);
}

int PlanReportTable::noteColumn() const {
    return sourceModel() ? sourceModel()->columnCount() - 1 : -1;
}

bool PlanReportTable::filterAcceptsColumn(int sourceColumn, const QModelIndex&) const {
    return sourceColumn != noteColumn();
}

QString PlanReportTable::notesHtml() const {
    const QAbstractItemModel* source = sourceModel();
    if (!source || noteColumn() <= PlanTableModel::FirstTarget) return {};
    QString items;
    for (int r = 0; r < source->rowCount(); ++r) {
        const QString note = source->index(r, noteColumn()).data().toString();
        if (note.isEmpty()) continue;
        items += QStringLiteral("<li><b>%1, %2:</b> %3</li>")
                     .arg(source->index(r, PlanTableModel::Policy).data().toString().toHtmlEscaped(),
                          source->index(r, PlanTableModel::Type).data().toString().toHtmlEscaped(),
                          note.toHtmlEscaped());
    }
    return items.isEmpty() ? QString() : QStringLiteral("<ul>") + items + QStringLiteral("</ul>");
}

}  // namespace cl::views
