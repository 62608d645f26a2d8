// The only translation unit that includes LEMON. Compiled as C++17 (see core/CMakeLists.txt:
// files named *_cxx17.cpp form the clusterloom_matching library) because LEMON 1.3.1 uses
// std::allocator::construct, which C++20 removed.
#include "core/matching/max_weight_matching.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <lemon/matching.h>
#include <lemon/smart_graph.h>

namespace cl {

namespace {

void checkEdge(const WeightedEdge& e, std::size_t index, long long nodes) {
    if (e.u < 0 || e.v < 0 || e.u >= nodes || e.v >= nodes) {
        throw std::invalid_argument("matching: edge " + std::to_string(index) + " (" + std::to_string(e.u) +
                                    ", " + std::to_string(e.v) + ") has an endpoint outside [0, " +
                                    std::to_string(nodes) + ")");
    }
    if (e.u == e.v) {
        throw std::invalid_argument("matching: edge " + std::to_string(index) + " is a self loop on node " +
                                    std::to_string(e.u));
    }
    if (e.weight > kMaxMatchingEdgeWeight) {
        throw std::invalid_argument("matching: edge " + std::to_string(index) + " weight " +
                                    std::to_string(e.weight) + " exceeds kMaxMatchingEdgeWeight");
    }
}

}  // namespace

std::vector<int> maxWeightMatching(int nodes, const std::vector<WeightedEdge>& edges) {
    if (nodes < 0) {
        throw std::invalid_argument("maxWeightMatching: negative node count " + std::to_string(nodes));
    }
    // Normalise (u < v), keep positive edges only, and collapse parallel edges to the heaviest.
    std::vector<WeightedEdge> kept;
    kept.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const WeightedEdge& e = edges[i];
        checkEdge(e, i, nodes);
        if (e.weight > 0) {
            kept.push_back({std::min(e.u, e.v), std::max(e.u, e.v), e.weight});
        }
    }
    std::vector<int> mate(static_cast<std::size_t>(nodes), -1);
    if (kept.empty()) {
        return mate;
    }
    auto byEndpointsHeaviestFirst = [](const WeightedEdge& a, const WeightedEdge& b) {
        if (a.u != b.u) return a.u < b.u;
        if (a.v != b.v) return a.v < b.v;
        return a.weight > b.weight;  // heaviest first, so unique() keeps it
    };
    // Callers usually list edges in this order already (the grouping does); skip the sort then.
    if (!std::is_sorted(kept.begin(), kept.end(), byEndpointsHeaviestFirst))
        std::sort(kept.begin(), kept.end(), byEndpointsHeaviestFirst);
    kept.erase(
        std::unique(kept.begin(), kept.end(),
                    [](const WeightedEdge& a, const WeightedEdge& b) { return a.u == b.u && a.v == b.v; }),
        kept.end());

    using Graph = lemon::SmartGraph;
    Graph graph;
    graph.reserveNode(nodes);
    graph.reserveEdge(static_cast<int>(kept.size()));
    std::vector<Graph::Node> node(static_cast<std::size_t>(nodes));
    for (int v = 0; v < nodes; ++v) {
        node[static_cast<std::size_t>(v)] = graph.addNode();
    }
    std::vector<Graph::Edge> edge;
    edge.reserve(kept.size());
    for (const WeightedEdge& e : kept) {
        edge.push_back(
            graph.addEdge(node[static_cast<std::size_t>(e.u)], node[static_cast<std::size_t>(e.v)]));
    }
    // Build the maps after the graph so they are allocated once, not grown edge by edge.
    Graph::EdgeMap<long long> weight(graph);
    for (std::size_t i = 0; i < kept.size(); ++i) {
        weight[edge[i]] = static_cast<long long>(kept[i].weight);
    }
    Graph::NodeMap<int> index(graph);
    for (int v = 0; v < nodes; ++v) {
        index[node[static_cast<std::size_t>(v)]] = v;
    }

    lemon::MaxWeightedMatching<Graph, Graph::EdgeMap<long long>> solver(graph, weight);
    solver.run();
    for (int v = 0; v < nodes; ++v) {
        const Graph::Node m = solver.mate(node[static_cast<std::size_t>(v)]);
        if (m != lemon::INVALID) {
            mate[static_cast<std::size_t>(v)] = index[m];
        }
    }
    return mate;
}

std::int64_t matchingWeight(const std::vector<int>& mate, const std::vector<WeightedEdge>& edges) {
    const long long n = static_cast<long long>(mate.size());
    for (std::size_t v = 0; v < mate.size(); ++v) {
        const int m = mate[v];
        if (m == -1) continue;
        if (m < 0 || m >= n || static_cast<std::size_t>(m) == v ||
            mate[static_cast<std::size_t>(m)] != static_cast<int>(v)) {
            throw std::invalid_argument("matchingWeight: mate is not a matching at node " +
                                        std::to_string(v));
        }
    }
    // Best edge weight of each matched pair, keyed by the pair's lower node.
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
    std::vector<std::int64_t> best(mate.size(), kNone);
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const WeightedEdge& e = edges[i];
        if (e.u < 0 || e.v < 0 || e.u >= n || e.v >= n) {
            throw std::invalid_argument("matchingWeight: edge " + std::to_string(i) +
                                        " has an endpoint outside [0, " + std::to_string(n) + ")");
        }
        if (mate[static_cast<std::size_t>(e.u)] == e.v && e.u != e.v) {
            std::int64_t& b = best[static_cast<std::size_t>(std::min(e.u, e.v))];
            b = std::max(b, e.weight);
        }
    }
    std::int64_t total = 0;
    for (std::size_t v = 0; v < mate.size(); ++v) {
        if (mate[v] > static_cast<int>(v)) {
            if (best[v] == kNone) {
                throw std::invalid_argument("matchingWeight: matched pair (" + std::to_string(v) + ", " +
                                            std::to_string(mate[v]) + ") is joined by no edge");
            }
            total += best[v];
        }
    }
    return total;
}

std::int64_t fixedPointWeight(double w) {
    const double scaled = w * 1e6;
    if (!std::isfinite(scaled) || std::fabs(scaled) > static_cast<double>(kMaxMatchingEdgeWeight)) {
        throw std::invalid_argument("fixedPointWeight: weight " + std::to_string(w) +
                                    " is not finite or too large");
    }
    return static_cast<std::int64_t>(std::llround(scaled));
}

}  // namespace cl
