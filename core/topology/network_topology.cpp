// Node and link numbering (what appendPath's arithmetic relies on):
// - Servers are nodes [0, S); server s's link at tier 0 is link s in every kind, so its rack
//   (edge / ToR / level-0 switch) is links()[s].b.
// - Fat-tree(k), h = k/2: server s sits in pod s / h^2, on edge (s / h) % h, as host s % h.
//   Switches: per pod h edges then h aggregations, then h^2 cores (core j*h + i hangs off
//   aggregation j of every pod). Links: S server-edge, then per pod edge x aggregation
//   (pod*h^2 + edge*h + agg), then per pod aggregation x its h cores (pod*h^2 + agg*h + i).
// - VL2(D_A, D_I, m): T = D_A*D_I/4 ToRs of m servers. Aggregation switches come in pairs
//   (2q, 2q+1) sharing D_A/2 ToRs; the first half of a pair's ToRs has 2q as its first
//   aggregation switch, the rest 2q+1; the pod is the first aggregation switch. Links: S
//   server-ToR, then 2 per ToR (first, second aggregation), then D_A/2 per aggregation switch
//   (one to every intermediate switch).
// - BCube(n, k): server s has address digits (a_k .. a_0) in base n; the level-l switch of s
//   is s with digit l removed. Links: (k+1) per server, link l*S + s joins s to its level-l
//   switch. Pods are blocks of servers_per_pod consecutive servers.
// Equal-cost choices (fat-tree aggregation/core, VL2 aggregation/intermediate) come from a
// hash of the unordered pair {a, b}, so path(b, a) is path(a, b) reversed there. BCube
// corrects digits from the highest level down in both directions, so its two directions may
// relay through different servers.
#include "core/topology/network_topology.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace cl {

namespace {

constexpr long long kMaxServers = 100000;

std::string pad(long long value, int width) {
    std::string s = std::to_string(value);
    if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<std::size_t>(width) - s.size(), '0');
    return s;
}

int digits(long long largest) {
    int d = 1;
    while (largest >= 10) {
        largest /= 10;
        ++d;
    }
    return d;
}

std::uint64_t pairHash(int a, int b) {
    const auto lo = static_cast<std::uint64_t>(std::min(a, b));
    const auto hi = static_cast<std::uint64_t>(std::max(a, b));
    std::uint64_t x = (lo << 32) ^ hi ^ 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::string number(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

[[noreturn]] void bad(const std::string& message) {
    throw std::invalid_argument(message);
}

void checkTiers(const TopologySpec& spec, std::size_t needed, const std::string& what) {
    if (spec.tier_gbps.size() != needed)
        bad("tier_gbps has " + std::to_string(spec.tier_gbps.size()) + " entries; " +
            topologyKindName(spec.kind) + " needs " + std::to_string(needed) + " (" + what + ")");
    for (std::size_t i = 0; i < needed; ++i) {
        const double g = spec.tier_gbps[i];
        if (!std::isfinite(g) || g <= 0)
            bad("tier_gbps[" + std::to_string(i) + "] must be a positive number of Gbit/s (got " + number(g) +
                ")");
    }
}

// `servers` above kMaxServers + 1 is exact; kMaxServers + 1 itself stands for "too many to count".
void checkServerCount(long long servers) {
    if (servers > kMaxServers + 1)
        bad("the topology has " + std::to_string(servers) + " servers, more than " +
            std::to_string(kMaxServers));
    if (servers > kMaxServers) bad("the topology has more than " + std::to_string(kMaxServers) + " servers");
}

// n^e, saturating above kMaxServers so that huge parameters cannot overflow.
long long cappedPower(long long n, int e) {
    long long p = 1;
    for (int i = 0; i < e; ++i) {
        p *= n;
        if (p > kMaxServers) return kMaxServers + 1;
    }
    return p;
}

// Validates `spec` and returns its server count.
long long validate(const TopologySpec& spec) {
    switch (spec.kind) {
        case TopologyKind::Flat:
            if (spec.k < 0)
                bad("flat k (server count) must not be negative (got " + std::to_string(spec.k) + ")");
            checkServerCount(spec.k);
            return spec.k;
        case TopologyKind::FatTree: {
            if (spec.k < 2 || spec.k % 2 != 0)
                bad("fat-tree k must be an even number of at least 2 (got " + std::to_string(spec.k) + ")");
            if (spec.k > 1000) checkServerCount(kMaxServers + 1);
            const long long k = spec.k;
            checkServerCount(k * k * k / 4);
            checkTiers(spec, 3, "server-edge, edge-aggregation, aggregation-core");
            return k * k * k / 4;
        }
        case TopologyKind::VL2: {
            if (spec.k < 4 || spec.k % 2 != 0)
                bad("vl2 d_a (aggregation switch ports) must be an even number of at least 4 (got " +
                    std::to_string(spec.k) + ")");
            if (spec.n < 2 || spec.n % 2 != 0)
                bad("vl2 d_i (intermediate switch ports) must be an even number of at least 2 (got " +
                    std::to_string(spec.n) + ")");
            if (spec.servers_per_tor < 1)
                bad("vl2 servers_per_tor must be at least 1 (got " + std::to_string(spec.servers_per_tor) +
                    ")");
            const long long tors = static_cast<long long>(spec.k) * spec.n / 4;
            if (tors > kMaxServers) checkServerCount(kMaxServers + 1);
            checkServerCount(tors * spec.servers_per_tor);
            checkTiers(spec, 3, "server-ToR, ToR-aggregation, aggregation-intermediate");
            return tors * spec.servers_per_tor;
        }
        case TopologyKind::BCube: {
            if (spec.n < 2)
                bad("bcube n (switch ports) must be at least 2 (got " + std::to_string(spec.n) + ")");
            if (spec.k < 0) bad("bcube k (levels) must not be negative (got " + std::to_string(spec.k) + ")");
            if (spec.servers_per_pod < 0)
                bad("bcube servers_per_pod must not be negative (got " +
                    std::to_string(spec.servers_per_pod) + ")");
            const long long servers = cappedPower(spec.n, std::min(spec.k, 1000) + 1);
            checkServerCount(servers);
            checkTiers(spec, static_cast<std::size_t>(spec.k) + 1, "one per level, level 0 first");
            return servers;
        }
    }
    bad("unknown topology kind");
}

}  // namespace

struct TopologyBuilder {
    NetworkTopology& t;

    int node(std::string name, int tier, int pod) {
        t.nodes_.push_back({std::move(name), tier, pod});
        return static_cast<int>(t.nodes_.size()) - 1;
    }
    void link(int a, int b, int tier) {
        t.links_.push_back({a, b, tier, t.spec_.tier_gbps[static_cast<std::size_t>(tier)]});
    }

    void fatTree() {
        const int k = t.spec_.k, h = k / 2;
        const int pw = std::max(2, digits(k - 1)), ew = std::max(2, digits(h - 1)), hw = digits(h - 1);
        t.pods_ = k;
        for (int s = 0; s < t.servers_; ++s) {
            const int pod = s / (h * h);
            node("p" + pad(pod, pw) + "-e" + pad((s / h) % h, ew) + "-h" + pad(s % h, hw), 0, pod);
        }
        const int S = t.servers_;
        // Node of edge e / aggregation j in pod p: S + p*k + e, S + p*k + h + j.
        for (int p = 0; p < k; ++p) {
            for (int e = 0; e < h; ++e) node("p" + pad(p, pw) + "-edge-" + std::to_string(e), 1, p);
            for (int j = 0; j < h; ++j) node("p" + pad(p, pw) + "-agg-" + std::to_string(j), 2, p);
        }
        for (int c = 0; c < h * h; ++c) node("core-" + std::to_string(c), 3, -1);
        for (int s = 0; s < S; ++s) link(s, S + (s / (h * h)) * k + (s / h) % h, 0);
        for (int p = 0; p < k; ++p)
            for (int e = 0; e < h; ++e)
                for (int j = 0; j < h; ++j) link(S + p * k + e, S + p * k + h + j, 1);
        const int core0 = S + k * k;
        for (int p = 0; p < k; ++p)
            for (int j = 0; j < h; ++j)
                for (int i = 0; i < h; ++i) link(S + p * k + h + j, core0 + j * h + i, 2);
    }

    void vl2() {
        const int da = t.spec_.k, di = t.spec_.n, m = t.spec_.servers_per_tor;
        const int tors = da * di / 4, per_pair = da / 2, first_half = (per_pair + 1) / 2;
        const int S = t.servers_;
        t.pods_ = di;
        auto firstAgg = [&](int tor) {
            const int q = tor / per_pair, local = tor % per_pair;
            return 2 * q + (local < first_half ? 0 : 1);
        };
        const int tw = std::max(2, digits(tors - 1)), hw = std::max(2, digits(m - 1));
        for (int s = 0; s < S; ++s) node("t" + pad(s / m, tw) + "-h" + pad(s % m, hw), 0, firstAgg(s / m));
        for (int r = 0; r < tors; ++r) node("tor-" + std::to_string(r), 1, firstAgg(r));
        // Aggregation switches serve two pods, so they sit above pods.
        for (int g = 0; g < di; ++g) node("agg-" + std::to_string(g), 2, -1);
        for (int i = 0; i < da / 2; ++i) node("int-" + std::to_string(i), 3, -1);
        const int tor0 = S, agg0 = S + tors, int0 = S + tors + di;
        for (int s = 0; s < S; ++s) link(s, tor0 + s / m, 0);
        for (int r = 0; r < tors; ++r) {
            const int f = firstAgg(r), other = f ^ 1;
            link(tor0 + r, agg0 + f, 1);
            link(tor0 + r, agg0 + other, 1);
        }
        for (int g = 0; g < di; ++g)
            for (int i = 0; i < da / 2; ++i) link(agg0 + g, int0 + i, 2);
    }

    void bcube() {
        const int n = t.spec_.n, k = t.spec_.k, S = t.servers_;
        const int per_level = S / n;
        long long spp = t.spec_.servers_per_pod;
        if (spp == 0) spp = 2LL * per_level;
        t.pods_ = static_cast<int>((S + spp - 1) / spp);
        const int dw = digits(n - 1), sw = std::max(2, digits(per_level - 1));
        for (int s = 0; s < S; ++s) {
            std::string name = "h";
            for (int l = k, p = per_level; l >= 0; --l, p /= n) {
                name += pad((s / p) % n, dw);
                if (l > 0) name += "-";
            }
            node(std::move(name), 0, static_cast<int>(s / spp));
        }
        // The switch of server s at level l: s with digit l removed.
        auto sw_of = [&](int s, int l) {
            int pl = 1;
            for (int i = 0; i < l; ++i) pl *= n;
            return (s / (pl * n)) * pl + s % pl;
        };
        for (int l = 0; l <= k; ++l)
            for (int w = 0; w < per_level; ++w)
                node("bcube-l" + std::to_string(l) + "-s" + pad(w, sw), l + 1, -2);
        for (int l = 0; l <= k; ++l)
            for (int s = 0; s < S; ++s) {
                const int sw_node = S + l * per_level + sw_of(s, l);
                link(s, sw_node, l);
                // A switch belongs to a pod only when all its servers do.
                int& pod = t.nodes_[static_cast<std::size_t>(sw_node)].pod;
                const int sp = t.nodes_[static_cast<std::size_t>(s)].pod;
                pod = pod == -2 ? sp : (pod == sp ? pod : -1);
            }
    }
};

NetworkTopology NetworkTopology::build(const TopologySpec& spec) {
    NetworkTopology t;
    t.servers_ = static_cast<int>(validate(spec));
    t.spec_ = spec;
    TopologyBuilder b{t};
    switch (spec.kind) {
        case TopologyKind::Flat:
            t.pods_ = 1;
            for (int s = 0; s < t.servers_; ++s) b.node("node" + std::to_string(s), 0, 0);
            break;
        case TopologyKind::FatTree:
            b.fatTree();
            break;
        case TopologyKind::VL2:
            b.vl2();
            break;
        case TopologyKind::BCube:
            b.bcube();
            break;
    }
    return t;
}

int NetworkTopology::serverCount(const TopologySpec& spec) {
    return static_cast<int>(validate(spec));
}

int NetworkTopology::switchCount(int tier) const {
    int n = 0;
    for (std::size_t i = static_cast<std::size_t>(servers_); i < nodes_.size(); ++i)
        if (nodes_[i].tier == tier) ++n;
    return n;
}

std::vector<int> NetworkTopology::serversOfPod(int pod) const {
    std::vector<int> out;
    for (int s = 0; s < servers_; ++s)
        if (nodes_[static_cast<std::size_t>(s)].pod == pod) out.push_back(s);
    return out;
}

void NetworkTopology::appendPath(int a, int b, std::vector<int>& out) const {
    if (a == b || spec_.kind == TopologyKind::Flat) return;
    const int S = servers_;
    switch (spec_.kind) {
        case TopologyKind::Flat:
            return;
        case TopologyKind::FatTree: {
            const int k = spec_.k, h = k / 2, hh = h * h;
            const int pa = a / hh, pb = b / hh, ea = (a / h) % h, eb = (b / h) % h;
            out.push_back(a);
            if (pa == pb && ea == eb) {
                out.push_back(b);
                return;
            }
            const std::uint64_t x = pairHash(a, b);
            const int j = static_cast<int>(x % static_cast<std::uint64_t>(h));
            const int edge_agg0 = S, agg_core0 = S + k * hh;
            if (pa == pb) {
                out.push_back(edge_agg0 + pa * hh + ea * h + j);
                out.push_back(edge_agg0 + pb * hh + eb * h + j);
            } else {
                const int i =
                    static_cast<int>((x / static_cast<std::uint64_t>(h)) % static_cast<std::uint64_t>(h));
                out.push_back(edge_agg0 + pa * hh + ea * h + j);
                out.push_back(agg_core0 + pa * hh + j * h + i);
                out.push_back(agg_core0 + pb * hh + j * h + i);
                out.push_back(edge_agg0 + pb * hh + eb * h + j);
            }
            out.push_back(b);
            return;
        }
        case TopologyKind::VL2: {
            const int da = spec_.k, m = spec_.servers_per_tor, per_pair = da / 2;
            const int ta = a / m, tb = b / m;
            out.push_back(a);
            if (ta == tb) {
                out.push_back(b);
                return;
            }
            const std::uint64_t x = pairHash(a, b);
            const int tor_agg0 = S, agg_int0 = S + da * spec_.n / 2;
            // Uplink u of a ToR is link tor_agg0 + 2*tor + u; pods make u=0 the first aggregation
            // switch, so the aggregation switch of uplink u is firstAgg ^ u.
            auto agg = [&](int tor, int u) {
                const int local = tor % per_pair;
                return (2 * (tor / per_pair) + (local < (per_pair + 1) / 2 ? 0 : 1)) ^ u;
            };
            if (ta / per_pair == tb / per_pair) {
                // Both ToRs hang off the same two aggregation switches: turn around at one of them
                // instead of bouncing off an intermediate switch.
                const int g = 2 * (ta / per_pair) + static_cast<int>(x & 1U);
                out.push_back(tor_agg0 + 2 * ta + (agg(ta, 0) == g ? 0 : 1));
                out.push_back(tor_agg0 + 2 * tb + (agg(tb, 0) == g ? 0 : 1));
            } else {
                // Valiant load balancing: up to an intermediate switch chosen by the pair's hash.
                const int ua = static_cast<int>(x & 1U), ub = static_cast<int>((x >> 1) & 1U);
                const int i = static_cast<int>((x >> 2) % static_cast<std::uint64_t>(per_pair));
                // Which end is "a" must not change the choice, so the bits go by ToR order.
                const int u_src = ta < tb ? ua : ub, u_dst = ta < tb ? ub : ua;
                out.push_back(tor_agg0 + 2 * ta + u_src);
                out.push_back(agg_int0 + agg(ta, u_src) * per_pair + i);
                out.push_back(agg_int0 + agg(tb, u_dst) * per_pair + i);
                out.push_back(tor_agg0 + 2 * tb + u_dst);
            }
            out.push_back(b);
            return;
        }
        case TopologyKind::BCube: {
            const int n = spec_.n, k = spec_.k;
            int pl = S / n;  // n^k: the weight of digit k
            int cur = a;
            for (int l = k; l >= 0; --l, pl /= n) {
                const int dc = (cur / pl) % n, db = (b / pl) % n;
                if (dc == db) continue;
                const int next = cur + (db - dc) * pl;
                out.push_back(l * S + cur);
                out.push_back(l * S + next);
                cur = next;
            }
            return;
        }
    }
}

std::vector<int> NetworkTopology::path(int a, int b) const {
    std::vector<int> out;
    appendPath(a, b, out);
    return out;
}

double NetworkTopology::bottleneckGbps(int a, int b) const {
    double g = std::numeric_limits<double>::infinity();
    for (int l : path(a, b)) g = std::min(g, links_[static_cast<std::size_t>(l)].gbps);
    return g;
}

}  // namespace cl
