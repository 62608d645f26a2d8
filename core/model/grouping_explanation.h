#pragma once
// Why Muri grouped jobs the way it did (docs/architecture.md section 5.1, "Why this grouping"):
// recorded by the Muri mechanism only when SimOptions::grouping_log is set, so a run that does
// not ask pays one null-pointer check per decision and its results are the same either way.
#include <vector>

namespace cl {

// Another group the matching could have formed instead (see GroupingRecord::alternatives).
struct GroupingAlternative {
    std::vector<int> jobs;  // trace job indices, in member order
    double gamma = 0.0;     // its interleaving efficiency: its edge weight in the matching graph
    // The best total weight of a matching of that round that contains this group instead: its
    // weight plus a maximum weight matching of the round's other nodes. Never above the chosen
    // matching's total, which is maximum.
    double matching_weight = 0.0;
};

// One group of two or more jobs that a Muri decision formed and placed (autopack kept it).
struct GroupingRecord {
    double time = 0.0;      // the decision's time; the group runs from then until the next record
    int gpus = 0;           // GPUs each member asks for (the group's bucket)
    std::vector<int> jobs;  // trace job indices, in member order
    // Interleaving efficiency gamma of the group (Muri paper, Eq. 4) as the scheduler saw it:
    // MuriGroupTimer::efficiency of the members' types in member order. It is the weight of the
    // matching edge whose merge made the group.
    double gamma = 0.0;
    // The members' solo iteration times summed over the group's shared iteration time (the true
    // profiles): how much faster the group is than its members one after the other.
    double speedup = 0.0;
    // The matching round (0-based; Algorithm 1's loop) whose merge completed the group, and that
    // round's matching in the group's bucket: its total weight (the sum of the matched edges'
    // gammas), which the maximum weighted matching maximised. NaN weight: no matching (the "no
    // Blossom" ablation packs in priority order).
    int round = 0;
    double matching_weight = 0.0;
    // The alternatives the matching considered for this group, exact: the round's last merge
    // joined two nodes A and B (groups from the earlier rounds, Muri paper section 4.2,
    // Algorithm 1); every other node C of the bucket's graph with an edge to A or B (a merge of at
    // most max_group_size jobs) gives another group, A + C or B + C. Listed are the two of highest
    // gamma whose mix of job types differs from the chosen group's and from each other's (groups
    // of the same mix are interchangeable and the matching breaks such ties in priority order;
    // tied_partners counts them), best first, ties by node order.
    std::vector<GroupingAlternative> alternatives;
    int tied_partners = 0;
};

// What a simulation hands out when asked: every grouping decision's groups, in time order.
struct GroupingLog {
    std::vector<GroupingRecord> records;

    // The group job `job` runs in at time `t`: the last record at or before t (within `slack`
    // seconds) that lists it, or nullptr. Records are in time order.
    const GroupingRecord* groupOf(int job, double t, double slack = 1e-9) const {
        const GroupingRecord* found = nullptr;
        for (const GroupingRecord& r : records) {
            if (r.time > t + slack) break;
            for (int j : r.jobs)
                if (j == job) found = &r;
        }
        return found;
    }
};

}  // namespace cl
