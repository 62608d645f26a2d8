#include "views/cluster/cluster_totals_bar.h"

#include <functional>
#include <map>

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#include "core/metrics/cluster_cost.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/server_types.h"
#include "views/common/cost_text.h"

namespace cl::views {

namespace {

QString number(double value, int decimals) {
    // Whole numbers without decimals, others with at most `decimals`.
    if (value == static_cast<double>(static_cast<long long>(value)))
        return QLocale().toString(static_cast<long long>(value));
    return QLocale().toString(value, 'f', decimals);
}

struct Totals {
    int servers = 0;
    int racks = 0;
    int gpus = 0;
    long long cores = 0;
    double memory = 0;
    double gpu_memory = 0;
    std::map<std::string, int> by_type;
};

Totals totalsOf(const cl::Cluster& c) {
    Totals t;
    t.servers = static_cast<int>(c.servers.size());
    for (const std::string& r : c.racks())
        if (!r.empty()) ++t.racks;
    for (const cl::Server& s : c.servers) {
        t.gpus += s.gpus;
        t.cores += s.cpu_cores;
        t.memory += s.memory_gb;
        t.gpu_memory += s.gpus * s.gpu_memory_gb;
        t.by_type[s.gpu_type] += s.gpus;
    }
    return t;
}

QString plural(int n, const QString& one, const QString& many) {
    return (n == 1 ? one : many).arg(QLocale().toString(n));
}

// Pieces shared by the plain and the rich text; `swatch` decorates each GPU type.
QStringList pieces(const Totals& t, const std::function<QString(const QString&, int)>& type_text) {
    QStringList out;
    out << plural(t.servers, ClusterTotalsBar::tr("%1 server"), ClusterTotalsBar::tr("%1 servers"));
    out << plural(t.racks, ClusterTotalsBar::tr("%1 rack"), ClusterTotalsBar::tr("%1 racks"));
    QStringList types;
    for (const auto& [type, count] : t.by_type) types << type_text(QString::fromStdString(type), count);
    QString gpus = plural(t.gpus, ClusterTotalsBar::tr("%1 GPU"), ClusterTotalsBar::tr("%1 GPUs"));
    if (!types.isEmpty()) gpus += QStringLiteral(": ") + types.join(QStringLiteral(", "));
    out << gpus;
    if (t.gpus > 0) {
        out << ClusterTotalsBar::tr("CPU:GPU %1:1").arg(number(static_cast<double>(t.cores) / t.gpus, 1));
        out << ClusterTotalsBar::tr("DRAM/GPU %1").arg(formatGigabytes(t.memory / t.gpus));
        out << ClusterTotalsBar::tr("GPU memory %1").arg(formatGigabytes(t.gpu_memory));
    }
    return out;
}

const QString kSeparator = QStringLiteral(" · ");

}  // namespace

QString formatGigabytes(double gb) {
    if (gb >= 1024.0) return ClusterTotalsBar::tr("%1 TB").arg(number(gb / 1024.0, 1));
    return ClusterTotalsBar::tr("%1 GB").arg(number(gb, gb < 10 ? 1 : 0));
}

ClusterTotalsBar::ClusterTotalsBar(ClusterDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_totals(new QLabel(this)),
      m_selection(new QLabel(this)),
      m_cost(new QLabel(this)) {
    auto* layout = new QHBoxLayout(this);
    const int margin = fontMetrics().height() / 3;
    layout->setContentsMargins(margin * 2, margin, margin * 2, margin);
    m_totals->setTextFormat(Qt::RichText);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setWordWrap(true);
    m_selection->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_selection->setToolTip(tr("What the selected servers hold"));
    m_cost->setObjectName(QStringLiteral("clusterCost"));
    m_cost->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    layout->addWidget(m_totals, 1);
    layout->addWidget(m_cost);
    layout->addWidget(m_selection);
    setAutoFillBackground(true);
    connect(document, &ClusterDocument::changed, this, &ClusterTotalsBar::refresh);
    connect(document, &ClusterDocument::selectionChanged, this, &ClusterTotalsBar::refresh);
    refresh();
}

QString ClusterTotalsBar::plainTotals(const cl::Cluster& cluster) {
    return pieces(totalsOf(cluster),
                  [](const QString& type, int count) {
                      return QStringLiteral("%1 %2").arg(QLocale().toString(count), type);
                  })
        .join(kSeparator);
}

QString ClusterTotalsBar::totalsText() const {
    return plainTotals(m_document->cluster());
}

QString ClusterTotalsBar::selectionText() const {
    return m_selection->text();
}

QString ClusterTotalsBar::costText() const {
    return m_cost->text();
}

void ClusterTotalsBar::refresh() {
    const cl::Cluster& cluster = m_document->cluster();
    const Totals t = totalsOf(cluster);
    QStringList tips;
    const QStringList rich = pieces(t, [&tips](const QString& type, int count) {
        tips << tr("%1: %2").arg(type, gpuSpeedText(type));
        return QStringLiteral("<span style=\"color:%1; font-size:large\">&#9632;</span>&nbsp;%2&nbsp;%3")
            .arg(gpuTypeColor(type).name(), QLocale().toString(count), type.toHtmlEscaped());
    });
    m_totals->setText(rich.join(kSeparator));
    m_totals->setToolTip(tr("Cluster totals. Square colours match the GPU squares in the diagram.\n"
                            "Relative training speed per GPU type (built-in profiles):\n") +
                         tips.join(QLatin1Char('\n')));

    const cl::ClusterCost cost = cl::clusterCost(cluster);
    const int servers = static_cast<int>(cluster.servers.size());
    m_cost->setVisible(cost.anyPriced(servers));
    m_cost->setText(cost.anyPriced(servers) ? monthlyCostText(cost, servers) : QString());
    m_cost->setToolTip(cost.anyPriced(servers)
                           ? tr("What the cluster costs (730 hours a month); edit prices in the server "
                                "properties.\n") +
                                 priceSourcesText(cluster)
                           : QString());

    const QList<int>& selection = m_document->selection();
    if (selection.isEmpty()) {
        m_selection->setText(tr("No selection"));
        return;
    }
    int gpus = 0;
    for (int i : selection) gpus += m_document->server(i).gpus;
    m_selection->setText(
        tr("Selected: %1, %2")
            .arg(plural(static_cast<int>(selection.size()), tr("%1 server"), tr("%1 servers")),
                 plural(gpus, tr("%1 GPU"), tr("%1 GPUs"))));
}

}  // namespace cl::views
