#pragma once
// One row per placement policy run (core/topology_placement/placement_simulator.h): average JCT in hours
// and in scheduling intervals, slowdown, forwarded and multi-server jobs, and the link
// utilization of each network tier. Display text is rounded; kSortRole holds the exact value.
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/topology_placement/placement_simulator.h"

namespace cl::views {

class PlacementResultsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int kSortRole = Qt::UserRole + 1;
    enum Column { Policy, JctHours, JctIntervals, Slowdown, Forwarded, MultiServer, FirstTier };

    explicit PlacementResultsModel(QObject* parent = nullptr);

    // `tier_gbps` names the tier columns ("tier0 10G"); `interval_seconds` converts JCT to intervals.
    void setResults(std::vector<cl::PlacementRunResult> results, std::vector<double> tier_gbps,
                    double interval_seconds);
    void clear();
    const std::vector<cl::PlacementRunResult>& results() const { return m_results; }

    // The table as CSV with a header row, in row order, numbers unrounded.
    QString toCsv() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    double value(int row, int column) const;

    std::vector<cl::PlacementRunResult> m_results;
    std::vector<double> m_tierGbps;
    double m_intervalSeconds = 1800.0;
};

}  // namespace cl::views
