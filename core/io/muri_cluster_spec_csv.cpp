// Muri/Tiresias cluster spec CSV: `num_switch,num_node_p_switch,num_gpu_p_node,
// num_cpu_p_node,mem_p_node`, one data row describing a homogeneous cluster.
#include "core/io/layout_io.h"
#include "core/io/read_helpers.h"

namespace cl {

Cluster readMuriClusterSpecCsv(const std::string& path) {
    CsvTable t = CsvTable::readFile(path);
    const int c_switch = t.requireColumn("num_switch");
    const int c_nodes = t.requireColumn("num_node_p_switch");
    const int c_gpus = t.requireColumn("num_gpu_p_node");
    const int c_cpus = t.requireColumn("num_cpu_p_node");
    const int c_mem = t.requireColumn("mem_p_node");
    if (t.rows().size() != 1)
        throw ParseError(t.file(), t.rows().empty() ? 0 : t.rows()[1].line, "",
                         "expected exactly one data row, found " + std::to_string(t.rows().size()));
    const CsvRow& row = t.rows().front();
    t.requireRowWidth(row);

    const int switches = t.positiveInt(row, c_switch);
    const int nodes = t.positiveInt(row, c_nodes);
    const int gpus = t.positiveInt(row, c_gpus);
    if (gpus > 64)
        throw ParseError(t.file(), row.line, t.fieldName(c_gpus),
                         "at most 64 GPUs per node, found " + std::to_string(gpus));
    const int cpus = t.positiveInt(row, c_cpus);
    const double mem = t.nonNegative(row, c_mem);
    if (mem <= 0) throw ParseError(t.file(), row.line, t.fieldName(c_mem), "must be positive");
    if (static_cast<long long>(switches) * nodes > 100000)
        throw ParseError(
            t.file(), row.line, "",
            "implausibly many nodes: " + std::to_string(static_cast<long long>(switches) * nodes));

    Cluster c;
    c.name = io::fileStem(path);
    c.servers.reserve(static_cast<std::size_t>(switches) * nodes);
    for (int s = 0; s < switches; ++s) {
        for (int n = 0; n < nodes; ++n) {
            Server srv;
            srv.name = "s" + std::to_string(s) + "-n" + std::to_string(n);
            srv.rack = "switch" + std::to_string(s);
            srv.gpu_type = "V100";  // the Muri paper's testbed
            srv.gpus = gpus;
            srv.cpu_cores = cpus;
            srv.memory_gb = mem;
            c.servers.push_back(std::move(srv));
        }
    }
    return c;
}

}  // namespace cl
