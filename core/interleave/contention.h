#pragma once
// Slow-down of interleaved jobs from contention on the resources a stage uses besides its
// main one (Muri paper section 6.2: "the resource contention between different stages
// decreases the processing speed"). Factors from docs/architecture.md section 4.5 (settings, with
// these defaults): a group's stage-derived time is multiplied by 1.33/1.015 (2 jobs), 1.5/1.015
// (3) or 1.37/1.015 (4); a job alone runs at its profile iteration time x 1.015.
namespace cl {

struct Contention {
    double solo = 1.015;  // a job alone: profile iteration time x solo
    // per_size[p]: multiplier of a p-job group's stage-derived time (index 0 unused;
    // per_size[1] = solo for completeness, but groupTiming uses the profile iteration
    // time x solo for single jobs, never the stage sum).
    double per_size[5] = {1.0, 1.015, 1.33 / 1.015, 1.5 / 1.015, 1.37 / 1.015};

    // per_size[jobs] for 1..4; groups of more than 4 jobs (only possible with more than 4
    // explicit stages) use per_size[4]. Throws std::invalid_argument for jobs < 1.
    double factor(int jobs) const;

    // All factors 1: the paper's idealised examples (Fig. 1, 4, 6).
    static Contention none();
};

}  // namespace cl
