#pragma once
// A ready-made server type (docs/architecture.md 7.8): what the cluster editor offers
// and what `clusterloom-cli plan --server-types` names, read from data/server_types.json.
#include <string>
#include <vector>

#include "core/model/cluster.h"

namespace cl {

struct ServerType {
    std::string id;      // stable key, e.g. "dgx-a100"
    std::string label;   // menu text, e.g. "NVIDIA DGX A100 (8x A100 80 GB)"
    std::string source;  // where the hardware figures come from
    Server server;       // name empty; price from the server types file
};

}  // namespace cl
