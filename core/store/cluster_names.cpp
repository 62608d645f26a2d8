#include "core/store/cluster_names.h"

#include "core/io/layout_io.h"
#include "core/store/content_hash.h"

namespace cl {

std::optional<StoredItem> clusterNameClash(ScenarioStore& store, const Cluster& cluster) {
    // The same hash putCluster finds identical content by (docs/architecture.md section 9.3).
    const std::string hash = ContentHasher().add(layoutJsonText(cluster)).hex();
    std::optional<StoredItem> clash;
    for (const StoredItem& stored : store.clusters()) {
        if (stored.content_hash == hash) return std::nullopt;
        if (!clash && stored.name == cluster.name) clash = stored;
    }
    return clash;
}

}  // namespace cl
