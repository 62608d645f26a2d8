#include "views/cluster/server_types.h"

#include <algorithm>
#include <exception>
#include <map>

#include <QCoreApplication>
#include <QHash>
#include <QLocale>

#include "core/io/builtin_data.h"

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::ServerTypes", text);
}

// The server types file is part of the installed data (data/server_types.json); without it the
// editor still offers the default server, so that a damaged installation stays usable.
QList<ServerType> buildPresets() {
    QList<ServerType> list;
    try {
        for (const cl::ServerType& p : cl::builtinServerTypes())
            list.append({QString::fromStdString(p.id), QString::fromStdString(p.label),
                         QString::fromStdString(p.source), p.server});
    } catch (const std::exception& e) {
        qWarning("server types not read: %s", e.what());
    }
    if (list.isEmpty())
        list.append({QStringLiteral("default"), tr("Default server"), QString(), cl::Server()});
    return list;
}

struct SpeedTable {
    std::map<QString, double> speed;
};

// Read once: the factors do not change while the program runs.
const SpeedTable& speedTable() {
    static const SpeedTable table = [] {
        SpeedTable t;
        try {
            const cl::ProfileSet profiles = cl::builtinProfiles();
            for (const auto& [type, factor] : profiles.gpu_type_speed) {
                t.speed[QString::fromStdString(type)] = factor;
            }
        } catch (const std::exception&) {
            // Without the data folder the editor still works; it just shows no factors.
        }
        return t;
    }();
    return table;
}

QString number(double value) {
    return QLocale().toString(value, 'g', 6);
}

}  // namespace

const QList<ServerType>& serverTypes() {
    static const QList<ServerType> presets = buildPresets();
    return presets;
}

const ServerType* findServerType(const QString& id) {
    for (const ServerType& p : serverTypes())
        if (p.id == id) return &p;
    return nullptr;
}

cl::Server defaultServer() {
    return serverTypes().front().server;
}

QString serverSummary(const cl::Server& s) {
    return tr("%1× %2 %3 GB · %4 cores · %5 GB · %6 Gb/s")
        .arg(s.gpus)
        .arg(QString::fromStdString(s.gpu_type), number(s.gpu_memory_gb))
        .arg(s.cpu_cores)
        .arg(number(s.memory_gb), number(s.network_gbps));
}

QStringList knownGpuTypes() {
    QStringList types;
    for (const auto& [type, factor] : speedTable().speed) types.append(type);
    for (const ServerType& p : serverTypes()) types.append(QString::fromStdString(p.server.gpu_type));
    types.removeDuplicates();
    std::sort(types.begin(), types.end());
    return types;
}

double gpuSpeedFactor(const QString& gpu_type) {
    const auto& speed = speedTable().speed;
    const auto it = speed.find(gpu_type);
    return it == speed.end() ? -1.0 : it->second;
}

QString gpuSpeedText(const QString& gpu_type) {
    const double f = gpuSpeedFactor(gpu_type);
    if (f < 0) return tr("speed not profiled (×1.0)");
    return tr("×%1 vs V100").arg(number(f));
}

QColor gpuTypeColor(const QString& gpu_type) {
    static const std::map<QString, QColor> fixed = {
        {QStringLiteral("V100"), QColor(0x4c, 0x9a, 0x2a)},
        {QStringLiteral("A100"), QColor(0x1f, 0x6f, 0xc4)},
        {QStringLiteral("H100"), QColor(0x7b, 0x3f, 0xb5)},
        {QStringLiteral("T4"), QColor(0xe0, 0x8a, 0x1e)},
        {QStringLiteral("P100"), QColor(0x15, 0x9a, 0x9a)},
        {QStringLiteral("K80"), QColor(0x8c, 0x6d, 0x46)},
        {QStringLiteral("RTX2080Ti"), QColor(0xd0, 0x45, 0x3a)},
    };
    if (const auto it = fixed.find(gpu_type); it != fixed.end()) return it->second;
    // Hues away from the fixed ones would be nicer, but stability across runs matters more.
    const int hue = static_cast<int>(qHash(gpu_type, 17u) % 360u);
    return QColor::fromHsv(hue, 150, 185);
}

}  // namespace cl::views
