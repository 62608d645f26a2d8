#include "views/common/describe.h"

#include <QLocale>
#include <QObject>

#include "views/common/format.h"

namespace cl::views {

QString describeCluster(const cl::Cluster& cluster) {
    const QLocale locale;
    const int servers = static_cast<int>(cluster.servers.size());
    QString text =
        QString::fromStdString(cluster.name.empty() ? std::string("unnamed cluster") : cluster.name);
    text +=
        QStringLiteral(" \u00b7 ") +
        (servers == 1 ? QObject::tr("1 server") : QObject::tr("%1 servers").arg(locale.toString(servers)));
    text += QStringLiteral(" \u00b7 ") +
            (cluster.totalGpus() == 1 ? QObject::tr("1 GPU")
                                      : QObject::tr("%1 GPUs").arg(locale.toString(cluster.totalGpus())));
    QStringList types;
    for (const auto& [type, count] : cluster.gpusByType())
        types << QStringLiteral("%1 \u00d7 %2").arg(locale.toString(count), QString::fromStdString(type));
    if (!types.isEmpty()) text += QStringLiteral(" (") + types.join(QStringLiteral(", ")) + QLatin1Char(')');
    return text;
}

QString describeTrace(const cl::Trace& trace) {
    const QLocale locale;
    const int jobs = static_cast<int>(trace.jobs.size());
    QString text = QString::fromStdString(trace.name.empty() ? std::string("unnamed trace") : trace.name);
    text += QStringLiteral(" \u00b7 ") +
            (jobs == 1 ? QObject::tr("1 job") : QObject::tr("%1 jobs").arg(locale.toString(jobs)));
    if (jobs > 1) {
        const double span = trace.lastSubmit() - trace.firstSubmit();
        if (span > 0.0)
            text += QStringLiteral(" \u00b7 ") + QObject::tr("submitted over %1").arg(formatDuration(span));
        else
            text += QStringLiteral(" \u00b7 ") + QObject::tr("all submitted at once");
    }
    return text;
}

}  // namespace cl::views
