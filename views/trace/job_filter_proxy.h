#pragma once
// Filters and sorts a JobTableModel. Both read the jobs straight from the source model
// (no QVariant, no string formatting), so a 100,000-job trace filters and sorts at once.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <QSortFilterProxyModel>

namespace cl::views {

class JobTableModel;

struct JobFilter {
    std::optional<std::string> model;  // nullopt = any model; "" = jobs without a model
    int min_gpus = 0;
    int max_gpus = std::numeric_limits<int>::max();
    // Submit time range in seconds, both ends included.
    double from = -std::numeric_limits<double>::infinity();
    double to = std::numeric_limits<double>::infinity();

    bool isEmpty() const;
    bool operator==(const JobFilter&) const = default;
};

class JobFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit JobFilterProxy(QObject* parent = nullptr);

    // The source must be a JobTableModel.
    void setSourceModel(QAbstractItemModel* source) override;
    JobTableModel* jobModel() const { return m_jobs; }

    // Replaces the whole filter and re-filters once.
    void setFilter(const JobFilter& filter);
    const JobFilter& filter() const { return m_filter; }
    void setModelFilter(const std::optional<std::string>& model);
    void setGpuRange(int min_gpus, int max_gpus);
    void setTimeRange(double from_seconds, double to_seconds);
    void clearFilter();

    bool acceptsSourceRow(int source_row) const;
    // Source rows that pass the filter, in source order (for histograms of the filtered jobs).
    std::vector<int> acceptedSourceRows() const;

signals:
    void filterChanged();

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    JobTableModel* m_jobs = nullptr;
    JobFilter m_filter;
};

}  // namespace cl::views
