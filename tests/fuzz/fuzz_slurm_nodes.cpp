// libFuzzer target: Slurm node inventory (readSlurmNodes, every form) and its layout, with and
// without unavailable nodes: any input is read or refused cleanly; every node has a name, a line
// and counts that are not negative; the layout holds only GPU nodes within the layout limits (a
// node with GPUs of several types as one server per type), its counts add up, and it writes and
// reads back as a layout.
#include <set>

#include "core/io/layout_io.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_nodes.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = clfuzz::writeInput("nodes.txt", clfuzz::asText(data, size));
    cl::SlurmNodeInventory inventory;
    bool read = false;
    clfuzz::rejectOnlyCleanly(
        [&] {
            inventory = cl::readSlurmNodes(path);
            read = true;
        },
        "nodes.txt");
    if (!read) return 0;
    if (inventory.nodes.empty()) std::abort();
    std::set<std::string> names;
    for (const cl::SlurmNode& n : inventory.nodes)
        if (n.name.empty() || n.line <= 0 || n.cpus < 0 || n.sockets < 0 || n.cores_per_socket < 0 ||
            !(n.memory_gb >= 0) || n.gpus < 0 || !names.insert(n.name).second ||
            n.unavailable != cl::slurmStateUnavailable(n.state))
            std::abort();
    for (bool exclude : {false, true}) {
        cl::SlurmLayoutOptions options;
        options.exclude_unavailable = exclude;
        const cl::SlurmLayout layout = cl::clusterFromSlurmNodes(inventory, options);
        const std::size_t left_out =
            static_cast<std::size_t>(layout.cpu_only_nodes + layout.excluded_unavailable);
        // Every server is a node, or NODE:TYPE of a node with GPUs of several types.
        std::set<std::string> nodes_with_servers;
        for (const cl::Server& s : layout.cluster.servers) {
            const std::size_t colon = s.name.rfind(':');
            if (names.count(s.name))
                nodes_with_servers.insert(s.name);
            else if (colon != std::string::npos && names.count(s.name.substr(0, colon)))
                nodes_with_servers.insert(s.name.substr(0, colon));
            else
                std::abort();
        }
        if (nodes_with_servers.size() + left_out > inventory.nodes.size()) std::abort();
        for (const cl::Server& s : layout.cluster.servers)
            if (s.gpus < 1 || s.gpus > 64 || s.gpu_type.empty() || (exclude && s.unavailable) ||
                !(s.memory_gb > 0) || !(s.gpu_memory_gb > 0))
                std::abort();
        if (layout.cluster.servers.empty()) continue;
        const std::string text = cl::layoutJsonText(layout.cluster);
        if (cl::layoutJsonText(cl::parseLayoutJson(text, "layout")) != text) std::abort();
    }
    return 0;
}
