#pragma once
// "New from topology...": a fat-tree, VL2 or BCube network with its tier bandwidths and a mix
// of server architectures (multi-agent placement paper, Sec. VI), previewed as server / switch /
// GPU counts. The cluster itself comes from makeTopologyCluster (core/model/topology_cluster.h).
#include <QDialog>
#include <QString>

#include "core/model/cluster.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cl::views {

class TopologyDialog : public QDialog {
    Q_OBJECT

public:
    explicit TopologyDialog(QWidget* parent = nullptr);

    // What the controls describe; kind, parameters and tier bandwidths.
    cl::TopologySpec spec() const;
    void setSpec(const cl::TopologySpec& spec);
    QString mixName() const;
    void setMixName(const QString& name);
    QString clusterName() const;
    // The cluster of the current settings (built on each change); empty servers while invalid.
    const cl::Cluster& cluster() const { return m_cluster; }
    QString errorText() const { return m_error; }
    bool isValid() const { return m_error.isEmpty(); }
    QString previewText() const;
    int switchCount() const { return m_switches; }

private:
    void kindChanged();
    void refresh();
    // Throws std::invalid_argument naming the field that does not parse.
    cl::TopologySpec parsedSpec() const;

    QLineEdit* m_name;
    QComboBox* m_kind;
    QLabel* m_kLabel;
    QSpinBox* m_k;
    QLabel* m_nLabel;
    QSpinBox* m_n;
    QLabel* m_torLabel;
    QSpinBox* m_perTor;
    QLineEdit* m_tiers;
    QComboBox* m_mix;
    QLabel* m_preview;
    QDialogButtonBox* m_buttons;
    cl::Cluster m_cluster;
    QString m_error;
    int m_switches = 0;
    bool m_loading = false;
};

}  // namespace cl::views
