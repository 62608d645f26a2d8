#pragma once
#include <string>

#include "core/model/cluster.h"

namespace cl {

// Cluster layout JSON (documented in README): {"format":"clusterloom-cluster","version":1,
// "name":..., "servers":[{...}] or "server_groups":[{"count":n, ...}]}.
Cluster readLayoutJson(const std::string& path);
void writeLayoutJson(const Cluster& cluster, const std::string& path);
// The same format in memory (the scenario store keeps layouts as this text); `source` names
// the origin in error messages and is the name when the text has none.
std::string layoutJsonText(const Cluster& cluster);
Cluster parseLayoutJson(const std::string& text, const std::string& source);
// Muri/Tiresias cluster spec CSV: num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node.
Cluster readMuriClusterSpecCsv(const std::string& path);
// By extension / content.
Cluster readCluster(const std::string& path);

}  // namespace cl
