#pragma once
// Slurm partitions (docs/architecture.md section 8.7): what `scontrol show partition --oneliner`
// (or its multi-line form) says about each partition, and how such a file is laid over a cluster
// built from the node inventory (core/io/slurm_node_layout.h). A file that cannot be read is
// refused as a whole with a ParseError naming file, line and field.
#include <string>
#include <string_view>
#include <vector>

#include "core/io/slurm_nodes.h"
#include "core/model/cluster.h"

namespace cl {

struct SlurmPartition {
    std::string name;
    int line = 0;  // where its record starts in the file
    int priority_tier = 1;
    double max_time = 0.0;  // seconds; 0 = UNLIMITED
    bool is_default = false;
    std::string state;               // upper case: "UP", "DOWN", "DRAIN", "INACTIVE"; "" = not stated
    std::vector<std::string> nodes;  // the Nodes= hostlist expanded, in its order
    bool all_nodes = false;          // Nodes=ALL: every node of the cluster
    int nodes_line = 0;              // the line of the Nodes= field (0 = not stated)
};

struct SlurmPartitionList {
    std::string file;  // as named in messages
    std::vector<SlurmPartition> partitions;
    std::vector<std::string> warnings;  // "file:line: ..." for what was read but is odd
};

SlurmPartitionList readSlurmPartitions(const std::string& path);  // throws ParseError
SlurmPartitionList parseSlurmPartitions(std::string_view text, const std::string& file);

// True when the text starts with "PartitionName=" (scontrol show partition).
bool looksLikeSlurmPartitions(std::string_view text);

struct SlurmPartitionsApplied {
    int memberships = 0;                       // (server, partition) pairs the file set
    std::vector<std::string> left_out_nodes;   // named by the file, in the inventory, not in the cluster
    std::vector<std::string> undeclared;       // partitions only the node file names (default attributes)
    std::vector<std::string> changed_servers;  // whose node-file Partitions= the file overruled
    std::vector<std::string> warnings;
};

// Lays the partition file over a cluster built from the node inventory (docs/architecture.md 8.7):
// the cluster's partitions become the file's (name, PriorityTier, MaxTime, Default), then any
// partition only a server's Partitions= names, with default attributes. A server's partitions are
// the file's partitions that list it, in file order, then the node file's partitions the file does
// not describe. A node the file names that is neither a server of the cluster nor a node of
// `inventory` (a CPU-only or left-out node) is an error naming file, line and field Nodes. The
// cluster is left unchanged when anything is refused.
SlurmPartitionsApplied applySlurmPartitions(Cluster& cluster, const SlurmPartitionList& partitions,
                                            const SlurmNodeInventory* inventory = nullptr);

// The pieces, for the reader and tests.
// A Slurm hostlist ("node[01-04,07],gpu5", "r[1-2]n[1-2]") as host names, in order; the width of
// a range's lower bound pads every number ("[08-10]" -> 08, 09, 10). Throws std::invalid_argument
// saying what it expected.
std::vector<std::string> expandSlurmHostlist(std::string_view hostlist);
// A Slurm time limit in seconds: "MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS"
// (Slurm's time_str2secs forms); "UNLIMITED", "INFINITE" and "-1" give 0. Throws
// std::invalid_argument saying what it expected.
double parseSlurmTimeLimit(std::string_view text);

}  // namespace cl
