#include "views/cluster/server_presets.h"

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
    return QCoreApplication::translate("cl::views::ServerPresets", text);
}

cl::Server makeServer(const char* gpu_type, int gpus, double gpu_memory_gb, int cpu_cores, double memory_gb,
                      double network_gbps) {
    cl::Server s;
    s.gpu_type = gpu_type;
    s.gpus = gpus;
    s.gpu_memory_gb = gpu_memory_gb;
    s.cpu_cores = cpu_cores;
    s.memory_gb = memory_gb;
    s.network_gbps = network_gbps;
    return s;
}

QList<ServerPreset> buildPresets() {
    QList<ServerPreset> list;
    // The server every Muri/Synergy experiment assumes (Synergy, Mohan et al., OSDI 2022:
    // 8 V100, 24 CPU cores, 500 GB DRAM). GPU memory and NIC are not stated; the data/
    // clusters assume 32 GB V100s and 100 Gb/s, and so do we.
    list.append({QStringLiteral("v100x8"), tr("8× V100 server (Muri/Synergy default)"),
                 tr("Synergy (OSDI 2022) server: 8 V100, 24 CPU cores, 500 GB DRAM; 32 GB V100 and "
                    "100 Gb/s NIC assumed as in the data/ cluster presets"),
                 makeServer("V100", 8, 32, 24, 500, 100)});
    // NVIDIA DGX-1 with Tesla V100 data sheet: 8x V100 SXM2 32 GB, 2x Xeon E5-2698 v4
    // (2 x 20 cores), 512 GB DDR4, 4x 100 Gb/s InfiniBand EDR.
    list.append({QStringLiteral("dgx-1"), tr("NVIDIA DGX-1 (8× V100)"),
                 tr("NVIDIA DGX-1 data sheet: 8× V100 32 GB, 2× Xeon E5-2698 v4 (40 cores), 512 GB, "
                    "4× 100 Gb/s InfiniBand"),
                 makeServer("V100", 8, 32, 40, 512, 400)});
    // NVIDIA DGX-2 data sheet: 16x V100 32 GB, 2x Xeon Platinum 8168 (2 x 24 cores), 1.5 TB,
    // 8x 100 Gb/s InfiniBand/Ethernet.
    list.append({QStringLiteral("dgx-2"), tr("NVIDIA DGX-2 (16× V100)"),
                 tr("NVIDIA DGX-2 data sheet: 16× V100 32 GB, 2× Xeon Platinum 8168 (48 cores), 1.5 TB, "
                    "8× 100 Gb/s"),
                 makeServer("V100", 16, 32, 48, 1536, 800)});
    // A typical 2U inference server with four T4 cards (NVIDIA T4 data sheet: 16 GB GDDR6);
    // host figures are a common configuration from vendor data sheets (2x 16-core Xeon,
    // 192 GB, 25 GbE), not a single product.
    list.append({QStringLiteral("t4x4"), tr("4× T4 server (typical 2U)"),
                 tr("NVIDIA T4 data sheet (16 GB); host: a typical configuration from vendor data sheets "
                    "(2× 16-core Xeon, 192 GB, 25 GbE)"),
                 makeServer("T4", 4, 16, 32, 192, 25)});
    // NVIDIA DGX A100 data sheet (640 GB model): 8x A100 80 GB, 2x AMD EPYC 7742 (2 x 64
    // cores), 2 TB, 8x single-port ConnectX-6 200 Gb/s for the compute fabric.
    list.append({QStringLiteral("dgx-a100"), tr("NVIDIA DGX A100 (8× A100 80 GB)"),
                 tr("NVIDIA DGX A100 data sheet: 8× A100 80 GB, 2× EPYC 7742 (128 cores), 2 TB, "
                    "8× 200 Gb/s ConnectX-6"),
                 makeServer("A100", 8, 80, 128, 2048, 1600)});
    // NVIDIA DGX H100 data sheet: 8x H100 80 GB, 2x Xeon Platinum 8480C (2 x 56 cores),
    // 2 TB, 8x single-port ConnectX-7 400 Gb/s (OSFP) for the compute fabric.
    list.append({QStringLiteral("dgx-h100"), tr("NVIDIA DGX H100 (8× H100 80 GB)"),
                 tr("NVIDIA DGX H100 data sheet: 8× H100 80 GB, 2× Xeon Platinum 8480C (112 cores), 2 TB, "
                    "8× 400 Gb/s ConnectX-7"),
                 makeServer("H100", 8, 80, 112, 2048, 3200)});
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

const QList<ServerPreset>& serverPresets() {
    static const QList<ServerPreset> presets = buildPresets();
    return presets;
}

const ServerPreset* findServerPreset(const QString& id) {
    for (const ServerPreset& p : serverPresets())
        if (p.id == id) return &p;
    return nullptr;
}

cl::Server defaultServer() {
    return serverPresets().front().server;
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
    for (const ServerPreset& p : serverPresets()) types.append(QString::fromStdString(p.server.gpu_type));
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
