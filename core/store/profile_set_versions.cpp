#include "core/store/profile_set_versions.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cl {

namespace {
std::string currentKey(const std::string& name) {
    return "profile_sets/current/" + name;
}
}  // namespace

std::optional<StoredItem> latestProfileSet(ScenarioStore& store, const std::string& name) {
    const std::string remembered = store.setting(currentKey(name));
    std::optional<StoredItem> latest;
    for (const StoredItem& item : store.profileSets()) {
        if (item.name != name) continue;
        if (std::to_string(item.id) == remembered) return item;
        if (!latest || item.id > latest->id) latest = item;
    }
    return latest;
}

std::vector<StoredItem> latestProfileSets(ScenarioStore& store) {
    std::vector<StoredItem> latest;
    for (const StoredItem& item : store.profileSets()) {
        const bool seen = std::any_of(latest.begin(), latest.end(),
                                      [&](const StoredItem& l) { return l.name == item.name; });
        if (seen) continue;
        if (auto newest = latestProfileSet(store, item.name)) latest.push_back(*newest);
    }
    return latest;
}

StoredModelProfile storeModelProfile(ScenarioStore& store, const std::string& set_name,
                                     const ModelProfile& model, const std::string& new_set_source) {
    if (set_name.empty()) throw std::invalid_argument("a profile set needs a name");
    if (model.name.empty()) throw std::invalid_argument("a model profile needs a name");
    StoredModelProfile stored;
    ProfileSet set;
    if (const auto latest = latestProfileSet(store, set_name)) {
        set = store.profiles(latest->id);
        stored.based_on = latest->id;
        stored.replaced = set.models.count(model.name) > 0;
    } else {
        set.name = set_name;
        set.source = new_set_source;
    }
    set.models[model.name] = model;
    stored.set_id = store.putProfiles(set);
    stored.unchanged = stored.based_on && *stored.based_on == stored.set_id;
    store.setSetting(currentKey(set_name), std::to_string(stored.set_id));
    return stored;
}

}  // namespace cl
