#pragma once
// The ranked candidates of a capacity plan: one row per (server type, policy), the ones that
// meet every target first, cheapest first; the chosen plan in bold, each policy's plan marked.
#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "core/planning/capacity_plan.h"

namespace cl::views {

// A metric's value as the Plan view shows it: a duration ("3.5 h"), or for a slowdown
// (cl::isRatioMetric) a plain ratio with two decimals; an en dash for NaN.
QString planMetricText(const std::string& key, double value);
// The mean over the seeds with its 95% interval when there are several ("3.5 h \u00b1 20 min").
QString planEstimateText(const std::string& key, const cl::Estimate& estimate);

class PlanTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Policy, Type, Servers, CostPerMonth, FirstTarget };
    // Sort key of a cell (numbers for numeric columns).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit PlanTableModel(QObject* parent = nullptr);

    void setPlan(std::shared_ptr<const cl::PlanRequest> request,
                 std::shared_ptr<const cl::PlanReport> report);
    void clear();

    // The candidate a row shows (index into PlanReport::candidates), or -1.
    int candidateAt(int row) const;
    // The row of the chosen plan, or -1.
    int chosenRow() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    int targets() const;
    // What a row shows, resolved once when the plan is set.
    struct Row {
        int candidate = 0;                           // index into PlanReport::candidates
        const cl::PlanEvaluation* answer = nullptr;  // its answer at the planned load, if any
    };
    std::shared_ptr<const cl::PlanRequest> m_request;
    std::shared_ptr<const cl::PlanReport> m_report;
    std::vector<Row> m_rows;  // in rank order
};

// The ranked table as the PDF report prints it (docs/architecture.md 7.9): every column but the
// notes, whose sentences would not fit an A4 page as unwrapped values; the report lists them
// after the table (notesHtml).
class PlanReportTable : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit PlanReportTable(PlanTableModel* source, QObject* parent = nullptr);
    // The non-empty notes as an HTML list, each led by its row's policy and server type.
    QString notesHtml() const;

protected:
    bool filterAcceptsColumn(int sourceColumn, const QModelIndex& sourceParent) const override;

private:
    int noteColumn() const;
};

}  // namespace cl::views
