#pragma once
// Locating the built-in data (profiles, cluster presets, demo traces): $CLUSTERLOOM_DATA,
// then the install prefix, then the source tree.
#include <string>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/server_type.h"
#include "core/model/trace.h"

namespace cl {

std::string dataDir();
std::string dataFile(const std::string& relative);  // throws std::runtime_error if missing
std::string engineVersion();

ProfileSet builtinProfiles();  // data/profiles/muri.json
// A built-in profile set by name ("muri", "synergy": data/profiles/NAME.json); throws
// std::invalid_argument listing the valid names.
ProfileSet builtinProfiles(const std::string& name);
std::vector<std::string> builtinProfileNames();   // data/profiles/*.json without extension
std::vector<std::string> builtinClusterNames();   // data/clusters/*.json without extension
Cluster builtinCluster(const std::string& name);  // throws listing the valid names
// A cluster argument: a preset name or a path to a layout JSON / Muri spec CSV.
Cluster resolveCluster(const std::string& name_or_path);
// data/server_types.json, in file order (docs/architecture.md 7.8).
const std::vector<ServerType>& builtinServerTypes();
const ServerType* findServerType(const std::string& id);  // nullptr when unknown
// A server type argument: a preset id, or a layout file (JSON or Muri spec CSV) whose servers
// are all alike (one server, or a group); throws std::invalid_argument listing the preset ids.
// The returned preset's id is the argument as given.
ServerType resolveServerType(const std::string& id_or_path);
Trace demoTrace();  // data/traces/demo.json
// data/traces/demo-backlog.json: a burst of long jobs with the Muri traces' GPU mix that keeps a
// deep queue for days, where interleaving pays off (data/README.md).
Trace backlogDemoTrace();

}  // namespace cl
