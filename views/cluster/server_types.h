#pragma once
// Server types: the ready-made servers the cluster editor offers (cl::ServerType, one name in
// the UI and the code), and what the editor knows about GPU types: their relative training speed (from the
// built-in profile set) and display colour.
#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

#include "core/model/cluster.h"

namespace cl::views {

struct ServerType {
    QString id;         // stable key, e.g. "dgx-a100"
    QString label;      // menu text, e.g. "NVIDIA DGX A100"
    QString source;     // where the figures come from
    cl::Server server;  // name left empty: the document picks a unique one
};

// data/server_types.json in file order (the Muri/Synergy default server first, then DGX-1,
// DGX-2, a 4xT4 inference server, DGX A100 and DGX H100), prices included.
const QList<ServerType>& serverTypes();
const ServerType* findServerType(const QString& id);
// The server a new rack starts with (the first server type).
cl::Server defaultServer();

// One line describing a server's hardware: "8× V100 32 GB · 24 cores · 500 GB · 100 Gb/s".
QString serverSummary(const cl::Server& server);

// GPU types of the built-in profile set and of the server types, sorted.
QStringList knownGpuTypes();
// Relative training speed of a GPU type versus V100 (1.0) from the built-in profiles;
// a negative value when the profiles do not name the type (the simulator then uses 1.0).
double gpuSpeedFactor(const QString& gpu_type);
// "×1.6 vs V100" or "speed not profiled (×1.0)".
QString gpuSpeedText(const QString& gpu_type);

// A fixed, distinguishable colour per known GPU type; other types get a stable colour
// derived from their name.
QColor gpuTypeColor(const QString& gpu_type);

}  // namespace cl::views
