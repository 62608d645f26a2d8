#include "core/sim/job_requests.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/sim/simulator.h"

namespace cl {

namespace {

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        if (comma > from) parts.push_back(text.substr(from, comma - from));
        from = comma + 1;
    }
    return parts;
}

bool sameName(const std::string& a, const std::string& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

std::string jobName(const Job& job, int index) {
    return "job '" + job.id + "' (#" + std::to_string(index) + ")";
}

}  // namespace

JobRequests::JobRequests(const Cluster& cluster, const Trace& trace, bool keep_unavailable)
    : cluster_(cluster), trace_(trace) {
    for (std::size_t s = 0; s < cluster.servers.size(); ++s)
        server_of_gpu_.insert(server_of_gpu_.end(), static_cast<std::size_t>(cluster.servers[s].gpus),
                              static_cast<int>(s));
    // The partitions the cluster knows: those it describes and those its servers name.
    std::set<std::string> known;
    for (const Partition& p : cluster.partitions) known.insert(p.name);
    for (const Server& s : cluster.servers) known.insert(s.partitions.begin(), s.partitions.end());
    std::string default_partition;
    for (const Partition& p : cluster.partitions)
        if (p.is_default) default_partition = p.name;

    // Down, drained and failing servers (marked at import) are no capacity: no job may use them
    // unless the caller keeps them (docs/architecture.md 2.10). They stay in the cluster, so GPU
    // numbers, the network and the timeline's rows stay those of the cluster as described.
    for (const Server& s : cluster.servers)
        unavailable_servers_ += s.unavailable && !keep_unavailable ? 1 : 0;

    const std::size_t n = trace.jobs.size();
    mask_of_.assign(n, -1);
    partition_of_.assign(n, -1);
    time_limit_.assign(n, 0.0);
    std::map<std::string, int> mask_by_key;  // "partitions|gpu type" -> masks_ index
    for (std::size_t i = 0; i < n; ++i) {
        const Job& job = trace.jobs[i];
        std::vector<std::string> asked =
            known.empty() ? std::vector<std::string>{} : splitList(job.partition);
        if (asked.empty() && !default_partition.empty()) asked.push_back(default_partition);
        for (const std::string& p : asked)
            if (!known.contains(p))
                throw SimulationError(jobName(job, static_cast<int>(i)) + " asks for partition '" + p +
                                      "', which cluster '" + cluster.name + "' does not have");
        double limit = job.time_limit > 0 ? job.time_limit : 0.0;
        if (!asked.empty()) {
            for (std::size_t k = 0; k < cluster.partitions.size(); ++k)
                if (cluster.partitions[k].name == asked.front()) {
                    partition_of_[i] = static_cast<int>(k);
                    const double max_time = cluster.partitions[k].max_time;
                    if (max_time > 0) limit = limit > 0 ? std::min(limit, max_time) : max_time;
                }
        }
        time_limit_[i] = limit;
        any_node_count_ = any_node_count_ || job.nodes > 0;
        if (asked.empty() && job.requested_gpu_type.empty() && unavailable_servers_ == 0) continue;
        std::string key;
        for (const std::string& p : asked) key += p + ",";
        key += "|" + job.requested_gpu_type;
        auto [it, fresh] = mask_by_key.emplace(key, static_cast<int>(masks_.size()));
        if (fresh) {
            std::vector<char> excluded(cluster.servers.size(), 0);
            for (std::size_t s = 0; s < cluster.servers.size(); ++s) {
                const Server& server = cluster.servers[s];
                const bool in_partition =
                    asked.empty() || std::any_of(asked.begin(), asked.end(), [&](const std::string& p) {
                        return std::find(server.partitions.begin(), server.partitions.end(), p) !=
                               server.partitions.end();
                    });
                const bool of_type =
                    job.requested_gpu_type.empty() || sameName(server.gpu_type, job.requested_gpu_type);
                const bool available = !server.unavailable || unavailable_servers_ == 0;
                excluded[s] = in_partition && of_type && available ? 0 : 1;
            }
            masks_.push_back(std::move(excluded));
        }
        mask_of_[i] = it->second;
    }
    // The GPUs of every server each request allows, largest first, and their sum: asked once
    // per job (neverFits), so computed once per distinct request, not per job.
    for (int m = -1; m < static_cast<int>(masks_.size()); ++m) {
        std::vector<int> sizes;
        for (std::size_t s = 0; s < cluster.servers.size(); ++s)
            if (m < 0 || !masks_[static_cast<std::size_t>(m)][s]) sizes.push_back(cluster.servers[s].gpus);
        std::sort(sizes.begin(), sizes.end(), std::greater<>());
        int total = 0;
        for (int g : sizes) total += g;
        allowed_sizes_.push_back(std::move(sizes));
        allowed_gpus_.push_back(total);
    }
}

std::span<const char> JobRequests::excludedServers(int job) const {
    const int m = mask_of_[static_cast<std::size_t>(job)];
    return m < 0 ? std::span<const char>() : std::span<const char>(masks_[static_cast<std::size_t>(m)]);
}

std::string JobRequests::describe(int job) const {
    const Job& j = trace_.jobs[static_cast<std::size_t>(job)];
    std::string what;
    const int p = partition_of_[static_cast<std::size_t>(job)];
    if (!j.partition.empty() || p >= 0)
        what = "the servers of partition(s) '" +
               (j.partition.empty() ? cluster_.partitions[static_cast<std::size_t>(p)].name : j.partition) +
               "'";
    if (!j.requested_gpu_type.empty())
        what += (what.empty() ? "the servers" : "") + std::string(" with GPU type '") + j.requested_gpu_type +
                "'";
    const std::string cluster =
        "cluster '" + cluster_.name + "'" +
        (unavailable_servers_ > 0 ? " (without its " + std::to_string(unavailable_servers_) +
                                        " unavailable server" + (unavailable_servers_ > 1 ? "s)" : ")")
                                  : "");
    return what.empty() ? cluster : what + " on " + cluster;
}

std::string JobRequests::neverFits(int job) const {
    const Job& j = trace_.jobs[static_cast<std::size_t>(job)];
    const auto request = static_cast<std::size_t>(mask_of_[static_cast<std::size_t>(job)] + 1);
    const std::vector<int>& sizes = allowed_sizes_[request];
    const int total = allowed_gpus_[request];
    const std::string name = jobName(j, job);
    if (!constrained(job) && j.gpus > total)
        return name + " needs " + std::to_string(j.gpus) + " GPUs but cluster '" + cluster_.name +
               "' has only " + std::to_string(total);
    if (j.gpus > total) {
        const std::string where = describe(job);
        return name + " needs " + std::to_string(j.gpus) + " GPUs but " + where +
               (where.starts_with("cluster") ? " has only " : " have only ") + std::to_string(total);
    }
    if (j.nodes > 0) {
        if (j.nodes > static_cast<int>(sizes.size()))
            return name + " asks for " + std::to_string(j.nodes) + " nodes but " + describe(job) +
                   " has only " + std::to_string(sizes.size()) + " servers";
        if (j.nodes > j.gpus)
            return name + " asks for " + std::to_string(j.nodes) + " nodes for " + std::to_string(j.gpus) +
                   " GPUs (at least one GPU per node)";
        int largest = 0;
        for (int k = 0; k < j.nodes; ++k) largest += sizes[static_cast<std::size_t>(k)];
        if (largest < j.gpus)
            return name + " needs " + std::to_string(j.gpus) + " GPUs on " + std::to_string(j.nodes) +
                   " nodes but the largest " + std::to_string(j.nodes) + " servers of " + describe(job) +
                   " hold only " + std::to_string(largest);
    }
    return {};
}

std::string JobRequests::violation(int job, std::span<const int> gpus) const {
    const std::span<const char> excluded = excludedServers(job);
    if (excluded.empty()) return {};
    for (int g : gpus) {
        const int s = server_of_gpu_[static_cast<std::size_t>(g)];
        if (excluded[static_cast<std::size_t>(s)])
            return jobName(trace_.jobs[static_cast<std::size_t>(job)], job) + " given GPU " +
                   std::to_string(g) + " on server '" + cluster_.servers[static_cast<std::size_t>(s)].name +
                   "', outside " + describe(job);
    }
    return {};
}

}  // namespace cl
