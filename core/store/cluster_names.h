#pragma once
// Stored clusters never change (scenarios and runs refer to them by id and hash,
// docs/architecture.md section 9.3), so a layout with other content is a new cluster, and its
// name is all that tells it from the stored ones in lists, menus and the CLI. Whoever stores a
// layout the user brought (the editor's Save, Import Cluster Layout, the CLI's --cluster) keeps
// the stored names unique with this.
#include <optional>

#include "core/model/cluster.h"
#include "core/store/scenario_store.h"

namespace cl {

// The stored cluster that already has `cluster`'s name, when storing `cluster` would add a
// second cluster of that name: none when a stored cluster has `cluster`'s exact content
// (putCluster returns that one) or when no stored cluster has the name.
std::optional<StoredItem> clusterNameClash(ScenarioStore& store, const Cluster& cluster);

}  // namespace cl
