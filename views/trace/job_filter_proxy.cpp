#include "views/trace/job_filter_proxy.h"

#include <cmath>

#include "views/trace/job_table_model.h"

namespace cl::views {

namespace {

// NaN (unknown) sorts after every number in ascending order.
int compareNumbers(double a, double b) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
    return a < b ? -1 : (b < a ? 1 : 0);
}

int compareText(const std::string& a, const std::string& b) {
    const int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

bool JobFilter::isEmpty() const {
    return *this == JobFilter{};
}

JobFilterProxy::JobFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(JobTableModel::SortRole);
}

void JobFilterProxy::setSourceModel(QAbstractItemModel* source) {
    m_jobs = qobject_cast<JobTableModel*>(source);
    Q_ASSERT(m_jobs || !source);
    QSortFilterProxyModel::setSourceModel(source);
}

void JobFilterProxy::setFilter(const JobFilter& filter) {
    if (filter == m_filter) return;
    m_filter = filter;
    invalidateFilter();
    emit filterChanged();
}

void JobFilterProxy::setModelFilter(const std::optional<std::string>& model) {
    JobFilter f = m_filter;
    f.model = model;
    setFilter(f);
}

void JobFilterProxy::setGpuRange(int min_gpus, int max_gpus) {
    JobFilter f = m_filter;
    f.min_gpus = min_gpus;
    f.max_gpus = max_gpus;
    setFilter(f);
}

void JobFilterProxy::setTimeRange(double from_seconds, double to_seconds) {
    JobFilter f = m_filter;
    f.from = from_seconds;
    f.to = to_seconds;
    setFilter(f);
}

void JobFilterProxy::clearFilter() {
    setFilter(JobFilter{});
}

bool JobFilterProxy::acceptsSourceRow(int source_row) const {
    const cl::Job& j = m_jobs->job(source_row);
    if (m_filter.model && j.model != *m_filter.model) return false;
    if (j.gpus < m_filter.min_gpus || j.gpus > m_filter.max_gpus) return false;
    return j.submit_time >= m_filter.from && j.submit_time <= m_filter.to;
}

std::vector<int> JobFilterProxy::acceptedSourceRows() const {
    std::vector<int> rows;
    if (!m_jobs) return rows;
    const int n = m_jobs->rowCount();
    rows.reserve(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r)
        if (acceptsSourceRow(r)) rows.push_back(r);
    return rows;
}

bool JobFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (source_parent.isValid() || !m_jobs) return false;
    return acceptsSourceRow(source_row);
}

bool JobFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (!m_jobs) return QSortFilterProxyModel::lessThan(left, right);
    const int a = left.row(), b = right.row();
    const cl::Job& ja = m_jobs->job(a);
    const cl::Job& jb = m_jobs->job(b);
    int c = 0;
    switch (left.column()) {
        case JobTableModel::IdColumn: {
            const double na = m_jobs->numericId(a), nb = m_jobs->numericId(b);
            c = (std::isnan(na) || std::isnan(nb)) ? compareText(ja.id, jb.id) : compareNumbers(na, nb);
            break;
        }
        case JobTableModel::SubmitColumn:
            c = compareNumbers(ja.submit_time, jb.submit_time);
            break;
        case JobTableModel::GpusColumn:
            c = compareNumbers(ja.gpus, jb.gpus);
            break;
        case JobTableModel::ModelColumn:
            c = compareText(ja.model, jb.model);
            break;
        case JobTableModel::DurationColumn:
            c = compareNumbers(m_jobs->duration(a), m_jobs->duration(b));
            break;
        case JobTableModel::IterationsColumn:
            c = compareNumbers(ja.iterations, jb.iterations);
            break;
        case JobTableModel::BatchSizeColumn:
            c = compareNumbers(ja.batch_size, jb.batch_size);
            break;
        case JobTableModel::UserColumn:
            c = compareText(ja.user, jb.user);
            break;
        case JobTableModel::NameColumn:
            c = compareText(ja.name, jb.name);
            break;
        case JobTableModel::AccountColumn:
            c = compareText(ja.account, jb.account);
            break;
        case JobTableModel::PartitionColumn:
            c = compareText(ja.partition, jb.partition);
            break;
        case JobTableModel::GpuTypeColumn:
            c = compareText(ja.gpu_type, jb.gpu_type);
            break;
        default:
            break;
    }
    // Ties keep trace order, so a sort is deterministic.
    return c != 0 ? c < 0 : a < b;
}

}  // namespace cl::views
