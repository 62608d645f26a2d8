// Synergy-OPT's ideal allocation (Mohan et al., OSDI 2022, section 4.1.1, eqs 1-5;
// docs/architecture.md section 4.6): the cluster's CPUs and memory pooled into one super-machine, every
// runnable job picks exactly one of its discrete (CPU, memory) options so that the total
// throughput is largest:
//
//   maximise   sum_j sum_k W_jk y_jk                          (1)
//   subject to sum_j sum_k c_jk y_jk <= C                      (2)
//              sum_j sum_k m_jk y_jk <= M                      (3)
//              sum_k y_jk = 1                  for every job j (4)
//              sum_k W_jk y_jk >= W_j^min      for every job j (5)
//              y_jk in {0, 1}
//
// Constraint (5) is applied by dropping the options below a job's minimum (a relative
// tolerance of 1e-9 keeps the option whose throughput *is* the minimum, e.g. the
// GPU-proportional share). The placement step (section 4.1.2) is not part of this function.
//
// How it is solved: jobs whose remaining options are identical (same (c, m, W) lists, as
// with many jobs of one model and GPU count) are merged into one class with integer counts
// x_ck in [0, n_c], sum_k x_ck = n_c. This is the same program (jobs of a class are
// interchangeable; a class's LP relaxation has the same value as its jobs' one) without the
// symmetry that makes branch-and-bound over identical binaries slow. Options dominated by
// another option of the same job (no more CPU, no more memory, at least the throughput) are
// dropped too: swapping to the dominating option never breaks a constraint. The class's
// jobs take its chosen options in job order, each class's options in input order.
//
// GLPK (5.0 on Debian 12): the LP relaxation is solved first with glp_simplex (its value is
// `bound`), then glp_intopt with the MIP presolver on, tm_lim = what is left of
// time_limit_s, terminal output off (glp_term_out(GLP_OFF) while we run, the caller's
// setting restored afterwards), and the problem object deleted on every path.
//
// Threads: GLPK is not thread-safe by design, but since 4.61 it can be built re-entrant,
// keeping its environment in thread-local storage ("TLS" in glp_config; Debian's 5.0 is
// built with _Thread_local). Then independent problems may be solved on different threads
// as long as no thread touches another thread's GLPK objects (this function creates and
// deletes its own), and each thread should call glp_free_env before it ends or its
// environment leaks (GLPK 4.61 release notes; A. Makhorin on help-glpk, January 2017). So:
// with TLS, calls run concurrently and a thread-exit hook frees the calling thread's
// environment; without TLS (one global environment) calls are serialised by a mutex.
// Other GLPK users in this process (core/matching) do not take that mutex.
#pragma once

#include <span>
#include <vector>

namespace cl {

// One discrete (CPU, memory) option of a job: totals for the job (not per GPU) and the job's
// throughput there (any unit, the same for all jobs: e.g. per-GPU throughput x GPUs).
struct OptChoice {
    double cpus = 0.0;
    double memory_gb = 0.0;
    double throughput = 0.0;
};

struct OptJob {
    std::vector<OptChoice> choices;
    // Constraint (5): the job gets at least this throughput (its GPU-proportional share's).
    double min_throughput = 0.0;
    // The option used when the solver returns no integer solution (see OptResult::fallback),
    // e.g. the GPU-proportional share; -1 = the cheapest option meeting the minimum (least
    // c/C + m/M, then fewer CPUs, then less memory). Must meet the minimum when given.
    int fallback = -1;
};

struct OptResult {
    std::vector<int> choice;  // per job, an index into its choices
    double objective = 0.0;   // sum of the chosen throughputs (eq 1)
    // The LP relaxation's optimum: an upper bound on the best objective (not a bound on the
    // branch-and-bound's progress). When the time limit stopped even the LP relaxation, the
    // sum of every job's best option.
    double bound = 0.0;
    bool optimal = false;       // GLPK proved `objective` optimal
    bool time_limited = false;  // the time limit stopped the search
    // No integer solution was found in time (or GLPK failed): every job got its fallback
    // option. These fit whenever the proportional shares fit and are given as fallbacks.
    bool fallback = false;
    // Branch-and-bound nodes GLPK created, the root included (0 when the search never
    // started: no jobs, the MIP presolver solved it, or the time limit came first).
    int nodes = 0;
};

// Throws std::invalid_argument, naming the job (and option), for malformed input (no
// options, a negative or non-finite amount, a non-positive time limit, a fallback out of
// range or below the minimum) and for infeasible instances: a job none of whose options
// reaches its minimum, minimum demands that exceed a capacity, or no combination that fits.
// Throws std::runtime_error when the fallback itself does not fit (only reachable with
// default fallbacks when the search found nothing in time). time_limit_s may be infinity.
OptResult solveOptIlp(std::span<const OptJob> jobs, double total_cpus, double total_memory_gb,
                      double time_limit_s);

}  // namespace cl
