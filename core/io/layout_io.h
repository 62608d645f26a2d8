#pragma once
#include <string>

#include "core/model/cluster.h"

namespace cl {

// Cluster layout JSON (documented in README): {"format":"clusterloom-cluster","version":1,
// "name":..., "servers":[{...}] or "server_groups":[{"count":n, ...}]}.
Cluster readLayoutJson(const std::string& path);
void writeLayoutJson(const Cluster& cluster, const std::string& path);
// Muri/Tiresias cluster spec CSV: num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node.
Cluster readMuriClusterSpecCsv(const std::string& path);
// By extension / content.
Cluster readCluster(const std::string& path);

}  // namespace cl
