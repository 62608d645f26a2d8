#pragma once
// Stored profile sets never change (scenarios refer to them by id and content hash,
// docs/architecture.md section 9.3). Editing a set, such as adding a model imported from a
// profiler trace (section 8.6), therefore stores a new version under the same name; the newest
// stored set of a name is the one an edit starts from and the one a name stands for. "Newest" is
// the version the last edit stored, remembered in the workspace setting
// "profile_sets/current/NAME": an edit that comes back to an earlier content gets that earlier
// row's id (hashes are unique), which is then the newest although it is not the highest id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/model_profile.h"
#include "core/store/scenario_store.h"

namespace cl {

// The newest stored profile set named `name`: the one the last storeModelProfile stored, else the
// highest id of that name; none when no set has that name.
std::optional<StoredItem> latestProfileSet(ScenarioStore& store, const std::string& name);
// The newest version of every stored set name, names in the order they were first stored: what a
// name stands for, and what a chooser of sets should offer (older versions serve only the
// scenarios made with them).
std::vector<StoredItem> latestProfileSets(ScenarioStore& store);

struct StoredModelProfile {
    std::int64_t set_id = 0;               // the version that holds the model
    std::optional<std::int64_t> based_on;  // the version it was made from; none for a new set
    bool replaced = false;                 // the set had a model of that name
    bool unchanged = false;                // identical to the newest version: nothing stored
};

// Adds `model` to (or replaces the model of its name in) a copy of the newest set named
// `set_name` and stores that copy; without such a set, stores a new set of this one model whose
// source is `new_set_source`. Storing content that is already stored returns its id.
StoredModelProfile storeModelProfile(ScenarioStore& store, const std::string& set_name,
                                     const ModelProfile& model, const std::string& new_set_source);

}  // namespace cl
