#include "core/policies/synergy_packing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cl {

namespace {
constexpr double kEps = 1e-9;
}

AuxLedger::AuxLedger(const Cluster& cluster) {
    int first = 0;
    for (std::size_t s = 0; s < cluster.servers.size(); ++s) {
        const Server& srv = cluster.servers[s];
        gpus_.push_back(srv.gpus);
        first_gpu_.push_back(first);
        cpus_.push_back(srv.cpu_cores);
        memory_.push_back(srv.memory_gb);
        for (int g = 0; g < srv.gpus; ++g) server_of_.push_back(static_cast<int>(s));
        first += srv.gpus;
    }
    reset();
}

AuxShare AuxLedger::shareOf(const PackJob& job, Grant grant, int s) const {
    if (grant == Grant::Ask) return job.ask;
    const AuxShare prop = proportional(s);
    if (proportional_only_) return prop;
    return {std::min(job.fair_cap.cpus, prop.cpus), std::min(job.fair_cap.memory_gb, prop.memory_gb)};
}

void AuxLedger::reset() {
    free_gpus_ = gpus_;
    total_free_gpus_ = static_cast<int>(server_of_.size());
    free_cpus_ = cpus_;
    free_memory_ = memory_;
    busy_.assign(server_of_.size(), 0);
    on_server_.assign(gpus_.size(), {});
}

bool AuxLedger::fits(int s, const PackJob& job, Grant grant) const {
    const int gpus = job.gpus;
    if (free_gpus_[s] < gpus) return false;
    if (grant == Grant::None) return true;
    const AuxShare per = shareOf(job, grant, s);
    return gpus * per.cpus <= free_cpus_[s] + kEps && gpus * per.memory_gb <= free_memory_[s] + kEps;
}

bool AuxLedger::chooseServers(const PackJob& job, Grant grant, bool first_fit,
                              std::vector<std::pair<int, int>>& parts, bool one_server_only) const {
    parts.clear();
    const int gpus = job.gpus;
    const int n = servers();
    // One server when one can take the whole job: first fit, or the one left with the least
    // free resources (GPUs, cores and memory as fractions of the server, summed).
    int chosen = -1;
    double chosen_left = std::numeric_limits<double>::infinity();
    // A node count (docs/architecture.md 2.10): one server for 1, exactly that many servers else.
    if (job.nodes == 1) one_server_only = true;
    for (int s = 0; s < n && job.nodes <= 1; ++s) {
        if (!mayUse(job, s) || !fits(s, job, grant)) continue;
        if (first_fit) {
            chosen = s;
            break;
        }
        double left = free_gpus_[s] - gpus;  // GPUs only: the server that just has them
        if (grant != Grant::None) {
            const AuxShare per = shareOf(job, grant, s);
            left = (free_gpus_[s] - gpus) / static_cast<double>(gpus_[s]) +
                   (free_cpus_[s] - gpus * per.cpus) / cpus_[s] +
                   (free_memory_[s] - gpus * per.memory_gb) / memory_[s];
        }
        if (left < chosen_left - kEps) {
            chosen = s;
            chosen_left = left;
        }
    }
    if (chosen >= 0) {
        parts.emplace_back(chosen, gpus);
        return true;
    }
    if (one_server_only) return false;
    // Else the fewest servers: those that can host the most of its GPUs first.
    std::vector<std::pair<int, int>> room;  // (GPUs it can host, server)
    int total = 0;
    for (int s = 0; s < n; ++s) {
        if (!mayUse(job, s)) continue;
        int k = free_gpus_[s];
        if (grant != Grant::None) {
            const AuxShare per = shareOf(job, grant, s);
            if (per.cpus > 0) k = std::min(k, static_cast<int>(std::floor(free_cpus_[s] / per.cpus + kEps)));
            if (per.memory_gb > 0)
                k = std::min(k, static_cast<int>(std::floor(free_memory_[s] / per.memory_gb + kEps)));
        }
        if (k > 0) {
            room.emplace_back(k, s);
            total += k;
        }
    }
    if (total < gpus) return false;
    std::stable_sort(room.begin(), room.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    int left = gpus;
    if (job.nodes > 1) {  // the `nodes` roomiest servers, one GPU on each first
        if (static_cast<int>(room.size()) < job.nodes || gpus < job.nodes) return false;
        room.resize(static_cast<std::size_t>(job.nodes));
        left -= job.nodes;
        for (const auto& [k, s] : room) {
            const int more = std::min(left, k - 1);
            parts.emplace_back(s, 1 + more);
            left -= more;
        }
        if (left != 0) {
            parts.clear();
            return false;
        }
        std::sort(parts.begin(), parts.end());
        return true;
    }
    for (const auto& [k, s] : room) {
        const int take = std::min(k, left);
        parts.emplace_back(s, take);
        left -= take;
        if (left == 0) break;
    }
    std::sort(parts.begin(), parts.end());
    return true;
}

void AuxLedger::take(PackJob& job, Grant grant, bool take_gpus) {
    job.grant = grant;
    job.cpus = job.memory_gb = 0.0;
    job.per_gpu = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    for (const auto& [s, k] : job.parts) {
        const AuxShare per = shareOf(job, grant, s);
        free_cpus_[s] -= k * per.cpus;
        free_memory_[s] -= k * per.memory_gb;
        job.cpus += k * per.cpus;
        job.memory_gb += k * per.memory_gb;
        job.per_gpu.cpus = std::min(job.per_gpu.cpus, per.cpus);
        job.per_gpu.memory_gb = std::min(job.per_gpu.memory_gb, per.memory_gb);
        if (!take_gpus) continue;
        on_server_[s].push_back(&job);
        if (!job.pinned.empty()) continue;  // its GPUs were reserved before packing began
        free_gpus_[s] -= k;
        total_free_gpus_ -= k;
        int need = k;
        for (int g = first_gpu_[s]; need > 0 && g < first_gpu_[s] + gpus_[s]; ++g) {
            if (busy_[g]) continue;
            busy_[g] = 1;
            job.gpu_ids.push_back(g);
            --need;
        }
    }
    if (take_gpus && !job.pinned.empty()) job.gpu_ids.assign(job.pinned.begin(), job.pinned.end());
    if (take_gpus) std::sort(job.gpu_ids.begin(), job.gpu_ids.end());
    job.capped =
        grant == Grant::Proportional && std::any_of(job.parts.begin(), job.parts.end(), [&](const auto& p) {
            const AuxShare prop = proportional(p.first);
            return job.ask.cpus > prop.cpus + kEps || job.ask.memory_gb > prop.memory_gb + kEps;
        });
}

void AuxLedger::release(PackJob& job) {
    for (const auto& [s, k] : job.parts) {
        const AuxShare per = shareOf(job, job.grant, s);
        free_cpus_[s] += k * per.cpus;
        free_memory_[s] += k * per.memory_gb;
    }
}

void AuxLedger::revertToProportional(PackJob& peer) {
    release(peer);
    // Never more than it held in either resource (on a server whose proportional share of
    // memory is larger than a peer's ask, reverting must not grow it).
    peer.fair_cap = {std::min(peer.fair_cap.cpus, peer.ask.cpus),
                     std::min(peer.fair_cap.memory_gb, peer.ask.memory_gb)};
    take(peer, Grant::Proportional, false);
}

bool AuxLedger::revertPeersFor(const PackJob& job, bool artifact_order) {
    for (const auto& part : job.parts) {
        const int s = part.first, k = part.second;  // not a structured binding: clang 14 (the sanitizer
                                                    // build) cannot capture one in a lambda
        const AuxShare target = shareOf(job, job.grant, s);
        const AuxShare prop = proportional(s);
        const auto excess = [&](const PackJob* peer) {
            int here = 0;
            for (const auto& [ps, pk] : peer->parts)
                if (ps == s) here = pk;
            if (peer->grant != Grant::Ask) return AuxShare{};
            return AuxShare{here * std::max(0.0, peer->ask.cpus - prop.cpus),
                            here * std::max(0.0, peer->ask.memory_gb - prop.memory_gb)};
        };
        double short_cpus = k * target.cpus - free_cpus_[s];
        double short_memory = k * target.memory_gb - free_memory_[s];
        if (artifact_order) {
            std::vector<PackJob*> peers = on_server_[s];
            std::stable_sort(peers.begin(), peers.end(), [](const PackJob* a, const PackJob* b) {
                if (a->parts.size() != b->parts.size()) return a->parts.size() < b->parts.size();
                if (a->per_gpu.cpus != b->per_gpu.cpus) return a->per_gpu.cpus > b->per_gpu.cpus;
                return a->per_gpu.memory_gb > b->per_gpu.memory_gb;
            });
            for (PackJob* peer : peers) {
                if (short_cpus <= kEps && short_memory <= kEps) break;
                const AuxShare extra = excess(peer);
                short_cpus -= extra.cpus;
                short_memory -= extra.memory_gb;
                if (peer->grant == Grant::Ask && (extra.cpus > kEps || extra.memory_gb > kEps))
                    revertToProportional(*peer);
            }
            continue;
        }
        while (short_cpus > kEps || short_memory > kEps) {
            PackJob* pick = nullptr;
            double pick_gain = 0.0;
            for (PackJob* peer : on_server_[s]) {
                const AuxShare extra = excess(peer);
                double gain = 0.0;
                if (short_cpus > kEps) gain += std::min(short_cpus, extra.cpus) / cpus_[s];
                if (short_memory > kEps) gain += std::min(short_memory, extra.memory_gb) / memory_[s];
                if (gain > pick_gain + kEps) {
                    pick = peer;
                    pick_gain = gain;
                }
            }
            if (!pick) break;  // nothing left to revert
            revertToProportional(*pick);
            short_cpus = k * target.cpus - free_cpus_[s];
            short_memory = k * target.memory_gb - free_memory_[s];
        }
    }
    return std::all_of(job.parts.begin(), job.parts.end(), [&](const auto& p) {
        const AuxShare target = shareOf(job, job.grant, p.first);
        return p.second * target.cpus <= free_cpus_[p.first] + kEps &&
               p.second * target.memory_gb <= free_memory_[p.first] + kEps;
    });
}

bool AuxLedger::placePinned(PackJob& job, const PackingOptions& o) {
    job.parts.clear();
    for (int g : job.pinned) {
        const int s = server_of_[g];
        if (job.parts.empty() || job.parts.back().first != s) job.parts.emplace_back(s, 0);
        ++job.parts.back().second;
    }
    std::sort(job.parts.begin(), job.parts.end());
    const auto all_fit = [&](bool proportional) {
        return std::all_of(job.parts.begin(), job.parts.end(), [&](const auto& p) {
            const AuxShare per = shareOf(job, proportional ? Grant::Proportional : Grant::Ask, p.first);
            return p.second * per.cpus <= free_cpus_[p.first] + kEps &&
                   p.second * per.memory_gb <= free_memory_[p.first] + kEps;
        });
    };
    if (!o.proportional_only && all_fit(false)) {
        take(job, Grant::Ask, true);
        return true;
    }
    // Clean TUNE: rather than run below its ask for the rest of its life, a job moves to a
    // server that holds its whole ask (paying its restart overhead once).
    if (o.move_for_ask) {
        const std::span<const int> held = job.pinned;
        setReserved(held, false);
        job.pinned = {};
        if (chooseServers(job, Grant::Ask, o.first_fit, job.parts, true)) {
            take(job, Grant::Ask, true);
            return true;
        }
        job.pinned = held;
        setReserved(held, true);
        job.parts.clear();
        for (int g : job.pinned) {
            const int s = server_of_[g];
            if (job.parts.empty() || job.parts.back().first != s) job.parts.emplace_back(s, 0);
            ++job.parts.back().second;
        }
        std::sort(job.parts.begin(), job.parts.end());
    }
    if (!o.proportional_only && !o.fall_back) return false;
    job.grant = Grant::Proportional;
    if (!all_fit(true) && !revertPeersFor(job, o.artifact_revert)) return false;
    take(job, Grant::Proportional, true);
    return true;
}

bool AuxLedger::placeLesser(PackJob& job, const PackingOptions& o) {
    if (job.nodes > 1) return false;  // a lesser point is on one server
    int best_server = -1;
    std::size_t best_point = 0;
    double best_left = 0.0;
    for (int s = 0; s < servers(); ++s) {
        if (free_gpus_[s] < job.gpus || !mayUse(job, s)) continue;
        const int others = free_gpus_[s] - job.gpus;
        const double cpus = (free_cpus_[s] - others * o.reserve.cpus) / job.gpus;
        const double memory = (free_memory_[s] - others * o.reserve.memory_gb) / job.gpus;
        for (std::size_t i = 0; i < job.lesser.size(); ++i) {
            const AuxShare& p = job.lesser[i].per_gpu;
            if (p.cpus > cpus + kEps || p.memory_gb > memory + kEps) continue;
            const double left = (free_cpus_[s] - job.gpus * p.cpus) / cpus_[s] +
                                (free_memory_[s] - job.gpus * p.memory_gb) / memory_[s];
            if (best_server < 0 || i < best_point || (i == best_point && left < best_left - kEps)) {
                best_server = s;
                best_point = i;
                best_left = left;
            }
            break;
        }
    }
    if (best_server < 0) return false;
    job.parts.assign(1, {best_server, job.gpus});
    job.ask = job.lesser[best_point].per_gpu;
    take(job, Grant::Ask, true);
    job.capped = true;
    return true;
}

bool AuxLedger::placeFree(PackJob& job, const PackingOptions& o) {
    if (o.ignore_aux_capacity) {
        if (!chooseServers(job, Grant::None, o.first_fit, job.parts)) return false;
        take(job, Grant::Ask, true);
        return true;
    }
    if (o.proportional_only) {
        if (!chooseServers(job, Grant::Proportional, o.first_fit, job.parts)) return false;
        take(job, Grant::Proportional, true);
        return true;
    }
    // Its ask on one server, else (clean TUNE) a lesser point on one server, else its ask split
    // over the fewest servers: a job spread over servers pays in communication.
    if (chooseServers(job, Grant::Ask, o.first_fit, job.parts, true)) {
        take(job, Grant::Ask, true);
        return true;
    }
    if (o.fall_back && o.take_lesser_points && placeLesser(job, o)) return true;
    if (chooseServers(job, Grant::Ask, o.first_fit, job.parts)) {
        take(job, Grant::Ask, true);
        return true;
    }
    if (!o.fall_back) return false;
    // TUNE step 1: the ask does not fit; try the proportional share.
    if (chooseServers(job, Grant::Proportional, o.first_fit, job.parts)) {
        take(job, Grant::Proportional, true);
        return true;
    }
    // Step 2: the servers that just have the GPUs (fewest free GPUs); peers above proportional
    // there give back the difference.
    if (!chooseServers(job, Grant::None, false, job.parts)) return false;
    job.grant = Grant::Proportional;
    if (!revertPeersFor(job, o.artifact_revert)) return false;
    take(job, job.grant, true);
    return true;
}

void AuxLedger::setReserved(std::span<const int> gpus, bool reserved) {
    for (int g : gpus) {
        busy_[g] = reserved;
        free_gpus_[server_of_[g]] += reserved ? -1 : 1;
        total_free_gpus_ += reserved ? -1 : 1;
    }
}

void AuxLedger::pack(std::span<PackJob> jobs, const PackingOptions& options) {
    proportional_only_ = options.proportional_only;
    // The GPUs of jobs renewing their lease are spoken for before anyone else is placed.
    for (PackJob& job : jobs) {
        const bool clash =
            std::any_of(job.pinned.begin(), job.pinned.end(), [&](int g) { return busy_[g] != 0; });
        if (clash) job.pinned = {};  // a GPU claimed twice: the later claimant is placed afresh
        setReserved(job.pinned, true);
    }
    for (PackJob& job : jobs) {
        job.grant = Grant::None;
        job.gpu_ids.clear();
        job.parts.clear();
        job.capped = false;
        if (job.pinned.empty() && job.gpus > total_free_gpus_) continue;  // cannot fit anywhere this round
        const bool placed = job.pinned.empty() ? placeFree(job, options) : placePinned(job, options);
        if (!placed) {
            setReserved(job.pinned, false);
            job.grant = Grant::None;
            job.parts.clear();
            job.gpu_ids.clear();
        }
    }
}

}  // namespace cl
