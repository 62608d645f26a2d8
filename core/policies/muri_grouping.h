#pragma once
// Muri's grouping (Algorithm 1 with the stop rule of docs/architecture.md section 5.1): candidates
// are bucketed by GPU count; each round builds, per bucket, a graph whose nodes are the current
// groups and whose edge weights are the interleaving efficiency of the merged group (only
// merges of at most max_group_size jobs), finds a maximum weighted matching, and merges
// matched pairs in node order while the candidates still need more GPUs than the cluster
// has (or a bucket's request more than its servers have, MuriBucket::request). At most
// max_group_size rounds (so groups of 3 occur).
#include <cstdint>
#include <memory>
#include <span>
#include <tuple>
#include <vector>

#include "core/policies/muri_group_timer.h"

namespace cl {

struct MuriCandidate {
    int job = 0;
    int type = 0;  // MuriGroupTimer type
};

struct MuriBucket {
    int gpus = 0;
    std::vector<MuriCandidate> candidates;  // in priority order
    // What its jobs asked for (docs/architecture.md 2.10): a request id, the same for every
    // bucket of the same servers (-1 = every server), and the GPUs of the servers it allows.
    // Jobs of different requests are never grouped, and a request's buckets keep merging while
    // their candidates need more GPUs than its servers have, as all buckets do for the cluster.
    int request = -1;
    int request_gpus = 0;
};

struct MuriGroupingOptions {
    int max_group_size = 4;  // 1 to 4 (the group timer's limit)
    bool worst_ordering = false;
    bool use_matching = true;  // false: "no Blossom" ablation, pack in priority order
    // Small rounds use LEMON's matching on the full graph; larger ones the type-compressed
    // exact solver (nodes with the same member types are interchangeable), falling back to
    // LEMON if it cannot finish in time. Forcing either path is for tests and benchmarks.
    bool force_full_graph = false;
    bool force_type_compressed = false;
    int full_graph_max_nodes = 48;
};

struct MuriGroup {
    int gpus = 0;
    std::vector<int> members;  // indices into the bucket's candidates
    int bucket = 0;
};

// One grouping, flat: group g's members (indices into its bucket's candidates) are
// members[g.first, g.first + g.size). Flat so that a scheduler regrouping at every event
// allocates nothing once its buffers have grown (docs/architecture.md section 2.9).
struct MuriGrouping {
    struct Group {
        int gpus = 0;
        int bucket = 0;
        int first = 0;
        int size = 0;
    };
    std::vector<Group> groups;
    std::vector<int> members;

    std::span<const int> membersOf(const Group& g) const {
        return {members.data() + g.first, static_cast<std::size_t>(g.size)};
    }
};

// Why a group formed, for GroupingRecord (core/model/grouping_explanation.h): the matching round
// whose merge completed it, that round's matching weight in its bucket, and the alternatives the
// matching considered (GroupingRecord::alternatives says which), members as indices into the
// bucket's candidates. Weights are fixed point (fixedPointWeight).
struct MuriGroupNote {
    int round = 0;
    std::int64_t matching_weight = 0;
    struct Alternative {
        std::vector<int> members;
        std::int64_t weight = 0;
        std::int64_t matching_weight = 0;
    };
    std::vector<Alternative> alternatives;
    int tied_partners = 0;
};

// Groups candidates again and again (one scheduler's events), keeping its working buffers and,
// when asked, the solutions of matching rounds by their canonical instance (node types with
// counts), since the same candidate mix recurs across events. With the cache a round's answer
// can depend on earlier rounds (the full-graph solver's choice among equal matchings is
// remembered), so it is a property of the grouper, kept for a whole simulation.
class MuriGrouper {
public:
    explicit MuriGrouper(bool cache_rounds = true);
    ~MuriGrouper();
    MuriGrouper(MuriGrouper&&) noexcept;
    MuriGrouper& operator=(MuriGrouper&&) noexcept;

    // `slots[b]` = how many placements the candidates of bucket b were admitted with (only
    // used without matching: candidates fill those slots max_group_size at a time). The
    // result stays valid until the next call. Throws std::invalid_argument for a
    // max_group_size outside 1..4.
    const MuriGrouping& group(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                              int cluster_gpus, const MuriGroupingOptions& options, MuriGroupTimer& timer);

    // Matching rounds answered so far from the round cache, solved, and of those solved, read
    // off a remembered optimal basis instead of GLPK (for benchmarks); and rounds whose nodes
    // were those of the last round of their GPU count and number, answered with its mates
    // before any of these.
    std::uint64_t cacheHits() const;
    std::uint64_t solvedRounds() const;
    std::uint64_t reusedBases() const;
    std::uint64_t repeatedRounds() const;

    // When on, each group() also notes why each group formed (noteOf). Costs nothing when off;
    // the groups are the same either way (the notes use their own buffers and solvers).
    void setExplain(bool on);
    // The note of group g of the last grouping, or nullptr (a single, or no matching).
    const MuriGroupNote* noteOf(std::size_t g) const;

private:
    struct Workspace;
    std::unique_ptr<Workspace> work_;
};

// One grouping without a round cache (tests and benchmarks).
std::vector<MuriGroup> groupCandidates(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                                       int cluster_gpus, const MuriGroupingOptions& options,
                                       MuriGroupTimer& timer);

}  // namespace cl
