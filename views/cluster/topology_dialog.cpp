#include "views/cluster/topology_dialog.h"

#include <exception>
#include <stdexcept>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"

namespace cl::views {

namespace {

QString gbpsList(const std::vector<double>& tiers) {
    QStringList parts;
    for (double g : tiers) parts << QString::number(g, 'g', 6);
    return parts.join(QStringLiteral(", "));
}

const char* const kMixTips[][2] = {
    {"power8", QT_TRANSLATE_NOOP(
                   "cl::views::TopologyDialog",
                   "Every server power8-4gpu: 2 sockets × 8 cores, 2 GPUs per socket (the paper's default)")},
    {"dgx1", QT_TRANSLATE_NOOP("cl::views::TopologyDialog",
                               "Every server dgx1-8gpu: 2 sockets × 16 cores, 4 GPUs per socket")},
    {"uneven", QT_TRANSLATE_NOOP("cl::views::TopologyDialog",
                                 "Every server uneven-6gpu: 16 cores + 4 GPUs and 8 cores + 2 GPUs")},
    {"mixed", QT_TRANSLATE_NOOP("cl::views::TopologyDialog",
                                "Per pod 20% small-2gpu, 40% power8-4gpu, 40% dgx1-8gpu")},
};

}  // namespace

TopologyDialog::TopologyDialog(QWidget* parent)
    : QDialog(parent),
      m_name(new QLineEdit(this)),
      m_kind(new QComboBox(this)),
      m_kLabel(new QLabel(this)),
      m_k(new QSpinBox(this)),
      m_nLabel(new QLabel(this)),
      m_n(new QSpinBox(this)),
      m_torLabel(new QLabel(tr("Servers per &ToR:"), this)),
      m_perTor(new QSpinBox(this)),
      m_tiers(new QLineEdit(this)),
      m_mix(new QComboBox(this)),
      m_preview(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("New cluster from a topology"));
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_name->setText(QStringLiteral("fat-tree-k4"));
    m_name->setToolTip(tr("Name of the new cluster"));
    form->addRow(tr("&Name:"), m_name);
    m_kind->addItem(tr("fat-tree"), static_cast<int>(cl::TopologyKind::FatTree));
    m_kind->addItem(tr("VL2"), static_cast<int>(cl::TopologyKind::VL2));
    m_kind->addItem(tr("BCube"), static_cast<int>(cl::TopologyKind::BCube));
    m_kind->setItemData(0,
                        tr("k-ary fat-tree: k pods of k/2 edge and k/2 aggregation switches, (k/2)² core "
                           "switches, k³/4 servers"),
                        Qt::ToolTipRole);
    m_kind->setItemData(1,
                        tr("VL2: D_A/2 intermediate switches, D_I aggregation switches, D_A·D_I/4 ToR "
                           "switches with their servers"),
                        Qt::ToolTipRole);
    m_kind->setItemData(2, tr("BCube(n, k): n^(k+1) servers, each on one n-port switch per level"),
                        Qt::ToolTipRole);
    m_kind->setToolTip(tr("Network generator (multi-agent placement paper, Sec. VI-A, VI-D)"));
    form->addRow(tr("&Kind:"), m_kind);
    m_k->setRange(1, 64);
    m_kLabel->setBuddy(m_k);
    form->addRow(m_kLabel, m_k);
    m_n->setRange(2, 128);
    m_nLabel->setBuddy(m_n);
    form->addRow(m_nLabel, m_n);
    m_perTor->setRange(1, 128);
    m_perTor->setValue(20);
    m_perTor->setToolTip(tr("Servers under each ToR switch (VL2 only)"));
    m_torLabel->setBuddy(m_perTor);
    form->addRow(m_torLabel, m_perTor);
    m_tiers->setToolTip(
        tr("Link bandwidth of each tier in Gb/s, from the links at the servers upwards, "
           "separated by commas (fat-tree and VL2: 3 tiers, BCube: k+1 levels)"));
    form->addRow(tr("Tier &bandwidths (Gb/s):"), m_tiers);
    for (const std::string& mix : cl::architectureMixNames()) {
        const QString name = QString::fromStdString(mix);
        m_mix->addItem(name, name);
        for (const auto& tip : kMixTips)
            if (mix == tip[0]) m_mix->setItemData(m_mix->count() - 1, tr(tip[1]), Qt::ToolTipRole);
    }
    m_mix->setToolTip(tr("Which server architectures fill each pod"));
    form->addRow(tr("&Architectures:"), m_mix);

    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_preview->setToolTip(tr("What the cluster will hold"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_preview);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)
        ->setToolTip(tr("Replace the edited cluster with this one (undoable)"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &TopologyDialog::kindChanged);
    for (QSpinBox* box : {m_k, m_n, m_perTor})
        connect(box, &QSpinBox::valueChanged, this, &TopologyDialog::refresh);
    connect(m_tiers, &QLineEdit::textChanged, this, &TopologyDialog::refresh);
    connect(m_mix, &QComboBox::currentIndexChanged, this, &TopologyDialog::refresh);
    connect(m_name, &QLineEdit::textChanged, this, &TopologyDialog::refresh);
    setSpec(cl::fatTreeSpec(4));
}

void TopologyDialog::kindChanged() {
    if (m_loading) return;
    const auto kind = static_cast<cl::TopologyKind>(m_kind->currentData().toInt());
    // Each kind starts from a small version of the paper's setting.
    setSpec(kind == cl::TopologyKind::VL2     ? cl::vl2Spec(4, 4, 4)
            : kind == cl::TopologyKind::BCube ? cl::bcubeSpec(4, 1)
                                              : cl::fatTreeSpec(4));
}

void TopologyDialog::setSpec(const cl::TopologySpec& spec) {
    m_loading = true;
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(static_cast<int>(spec.kind))));
    m_k->setValue(spec.k);
    m_n->setValue(spec.n > 0 ? spec.n : 4);
    m_perTor->setValue(spec.servers_per_tor);
    m_tiers->setText(gbpsList(spec.tier_gbps));
    const bool vl2 = spec.kind == cl::TopologyKind::VL2;
    const bool bcube = spec.kind == cl::TopologyKind::BCube;
    m_kLabel->setText(vl2     ? tr("D_&A (aggregation ports):")
                      : bcube ? tr("&k (levels above BCube₀):")
                              : tr("&k (switch ports):"));
    m_k->setToolTip(vl2     ? tr("Ports of an aggregation switch (even)")
                    : bcube ? tr("Levels of switches above BCube₀")
                            : tr("Ports per switch (even); k³/4 servers"));
    m_nLabel->setText(vl2 ? tr("D_&I (intermediate ports):") : tr("&n (switch ports):"));
    m_n->setToolTip(vl2 ? tr("Ports of an intermediate switch (even)")
                        : tr("Ports per BCube switch; n^(k+1) servers"));
    m_nLabel->setVisible(vl2 || bcube);
    m_n->setVisible(vl2 || bcube);
    m_torLabel->setVisible(vl2);
    m_perTor->setVisible(vl2);
    m_name->setText(vl2     ? QStringLiteral("vl2-%1-%2").arg(spec.k).arg(spec.n)
                    : bcube ? QStringLiteral("bcube-n%1-k%2").arg(spec.n).arg(spec.k)
                            : QStringLiteral("fat-tree-k%1").arg(spec.k));
    m_loading = false;
    refresh();
}

QString TopologyDialog::mixName() const {
    return m_mix->currentData().toString();
}

void TopologyDialog::setMixName(const QString& name) {
    m_mix->setCurrentIndex(m_mix->findData(name));
}

QString TopologyDialog::clusterName() const {
    return m_name->text().trimmed();
}

cl::TopologySpec TopologyDialog::parsedSpec() const {
    cl::TopologySpec spec;
    spec.kind = static_cast<cl::TopologyKind>(m_kind->currentData().toInt());
    spec.k = m_k->value();
    if (spec.kind != cl::TopologyKind::FatTree) spec.n = m_n->value();
    if (spec.kind == cl::TopologyKind::VL2) spec.servers_per_tor = m_perTor->value();
    const QStringList parts = m_tiers->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        double g = QLocale::c().toDouble(part.trimmed(), &ok);
        if (!ok) g = QLocale().toDouble(part.trimmed(), &ok);
        if (!ok || !(g > 0))
            throw std::invalid_argument(tr("Tier bandwidths: '%1' is not a bandwidth above 0 Gb/s.")
                                            .arg(part.trimmed())
                                            .toStdString());
        spec.tier_gbps.push_back(g);
    }
    if (spec.tier_gbps.empty())
        throw std::invalid_argument(tr("Tier bandwidths: enter one per tier.").toStdString());
    return spec;
}

cl::TopologySpec TopologyDialog::spec() const {
    try {
        return parsedSpec();
    } catch (const std::exception&) {
        return {};
    }
}

void TopologyDialog::refresh() {
    if (m_loading) return;
    m_cluster = cl::Cluster{};
    m_switches = 0;
    m_error.clear();
    try {
        if (clusterName().isEmpty()) throw std::invalid_argument(tr("Enter a cluster name.").toStdString());
        const cl::TopologySpec spec = parsedSpec();
        // Refuse before building what would not fit in an editor (the layout reader's limit).
        if (cl::NetworkTopology::serverCount(spec) > 20000)
            throw std::invalid_argument(tr("%1 servers is more than the editor takes (20,000).")
                                            .arg(cl::NetworkTopology::serverCount(spec))
                                            .toStdString());
        m_switches = cl::NetworkTopology::build(spec).switchCount();
        m_cluster = cl::makeTopologyCluster(clusterName().toStdString(), spec,
                                            cl::architectureMix(mixName().toStdString()));
    } catch (const std::exception& e) {
        m_cluster = cl::Cluster{};
        m_switches = 0;
        m_error = QString::fromStdString(e.what());
    }
    QPalette pal = palette();
    if (!m_error.isEmpty()) pal.setColor(QPalette::WindowText, QColor(0xb3, 0x26, 0x1e));
    m_preview->setPalette(pal);
    m_preview->setText(previewText());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(isValid());
}

QString TopologyDialog::previewText() const {
    if (!isValid()) return m_error;
    const QLocale locale;
    return tr("%1 servers, %2 switches, %3 GPUs, %4 CPU cores")
        .arg(locale.toString(static_cast<qlonglong>(m_cluster.servers.size())), locale.toString(m_switches),
             locale.toString(m_cluster.totalGpus()), locale.toString(m_cluster.totalCpuCores()));
}

}  // namespace cl::views
