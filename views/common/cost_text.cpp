#include "views/common/cost_text.h"

#include <algorithm>
#include <vector>

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::CostText", text);
}

}  // namespace

QString formatUsd(double usd) {
    if (usd >= 100.0) return QStringLiteral("$") + QLocale().toString(usd, 'f', 0);
    return QStringLiteral("$") + QLocale().toString(usd, 'f', 2);
}

QString unpricedServersText(int unpriced_servers) {
    if (unpriced_servers <= 0) return {};
    if (unpriced_servers == 1) return tr("cost excludes 1 unpriced server");
    return tr("cost excludes %1 unpriced servers").arg(QLocale().toString(unpriced_servers));
}

QString monthlyCostText(const cl::ClusterCost& cost, int servers) {
    if (!cost.anyPriced(servers)) return QStringLiteral("\u2013");
    QString text = tr("%1 per month").arg(formatUsd(cost.per_month));
    if (cost.unpriced_servers > 0)
        text += QStringLiteral(" (%1)").arg(unpricedServersText(cost.unpriced_servers));
    return text;
}

QString priceText(const cl::ServerPrice& price) {
    QString text;
    switch (price.basis) {
        case cl::PriceBasis::None:
            return tr("not priced");
        case cl::PriceBasis::Hourly:
            text = tr("%1/h").arg(formatUsd(price.per_hour));
            break;
        case cl::PriceBasis::Amortized:
            text = tr("%1 over %2 years + %3/h power")
                       .arg(formatUsd(price.purchase), QLocale().toString(price.amortization_years, 'g', 4),
                            formatUsd(price.power_per_hour));
            break;
    }
    if (price.approximate) text += QStringLiteral(" ") + tr("(approximate)");
    return text;
}

QString priceSourcesText(const cl::Cluster& cluster) {
    // Servers with the same price and source are one line, in the order first seen.
    struct Line {
        const cl::ServerPrice* price;
        int servers;
    };
    std::vector<Line> lines;
    int unpriced = 0;
    for (const cl::Server& s : cluster.servers) {
        if (!s.price.stated()) {
            ++unpriced;
            continue;
        }
        auto it =
            std::find_if(lines.begin(), lines.end(), [&](const Line& l) { return *l.price == s.price; });
        if (it == lines.end())
            lines.push_back({&s.price, 1});
        else
            ++it->servers;
    }
    QStringList out;
    for (const Line& l : lines) {
        QString line = l.servers == 1
                           ? tr("1 server at %1").arg(priceText(*l.price))
                           : tr("%1 servers at %2").arg(QLocale().toString(l.servers), priceText(*l.price));
        if (!l.price->source.empty()) line += QStringLiteral(": ") + QString::fromStdString(l.price->source);
        out << line;
    }
    if (unpriced > 0) out << unpricedServersText(unpriced);
    return out.join(QLatin1Char('\n'));
}

}  // namespace cl::views
