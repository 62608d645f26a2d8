#pragma once
// The always-visible totals line under the cluster editor: servers, racks, GPUs by type (with
// the type's colour, doubling as the diagram's legend), CPU:GPU ratio, DRAM per GPU, total GPU
// memory, what the cluster costs per month when it is priced, and what the selection holds.
#include <QString>
#include <QWidget>

#include "core/model/cluster.h"

class QLabel;

namespace cl::views {

class ClusterDocument;

class ClusterTotalsBar : public QWidget {
    Q_OBJECT

public:
    explicit ClusterTotalsBar(ClusterDocument* document, QWidget* parent = nullptr);

    // The texts shown, without markup.
    QString totalsText() const;
    QString selectionText() const;
    // What the cluster costs per month (docs/architecture.md 7.8), naming its unpriced servers;
    // empty when no server is priced. Its tooltip lists the prices and their sources.
    QString costText() const;

    // "8 servers · 1 rack · 64 GPUs: 64 V100 · CPU:GPU 11.5:1 · DRAM/GPU 65 GB · GPU memory 2 TB"
    static QString plainTotals(const cl::Cluster& cluster);

public slots:
    void refresh();

private:
    ClusterDocument* m_document;
    QLabel* m_totals;
    QLabel* m_selection;
    QLabel* m_cost;
};

// 512 -> "512 GB", 2048 -> "2 TB", 1536 -> "1.5 TB".
QString formatGigabytes(double gb);

}  // namespace cl::views
