// Synergy-OPT's ILP (eqs 1-5) with GLPK; the formulation and its reductions are described in
// the header.
#include "core/policies/synergy_opt_ilp.h"
#include "core/util/number_format.h"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

namespace cl {

namespace {

// Relative tolerance of constraint (5): an option whose throughput equals the minimum up to
// rounding (the proportional share itself) stays.
constexpr double kMinTolerance = 1e-9;
// Relative slack when checking GLPK's answer against the capacities (GLPK's own primal
// feasibility tolerance is 1e-7 on scaled rows).
constexpr double kCapacitySlack = 1e-7;

struct ProblemDeleter {
    void operator()(glp_prob* p) const noexcept { glp_delete_prob(p); }
};

// Terminal output off while we run; the caller's setting comes back afterwards.
class TermOutGuard {
public:
    TermOutGuard() : previous_(glp_term_out(GLP_OFF)) {}
    ~TermOutGuard() { glp_term_out(previous_); }
    TermOutGuard(const TermOutGuard&) = delete;
    TermOutGuard& operator=(const TermOutGuard&) = delete;

private:
    int previous_;
};

// Frees the calling thread's GLPK environment when the thread ends (re-entrant builds keep
// one environment per thread and leak it otherwise).
struct ThreadEnvReleaser {
    ~ThreadEnvReleaser() { glp_free_env(); }
};

bool glpkReentrant() {
    static const bool reentrant = glp_config("TLS") != nullptr;
    return reentrant;
}

std::mutex& glpkMutex() {
    static std::mutex m;
    return m;
}

std::string jobName(std::size_t j) {
    return "job " + std::to_string(j);
}

struct Option {
    double cpus = 0.0;
    double memory_gb = 0.0;
    double throughput = 0.0;
    bool operator<(const Option& o) const {
        return std::tie(cpus, memory_gb, throughput) < std::tie(o.cpus, o.memory_gb, o.throughput);
    }
};

// Jobs with identical remaining options.
struct Class {
    std::vector<Option> options;
    std::vector<std::size_t> jobs;  // ascending
    int first_column = 0;           // 1-based GLPK column of options[0]
};

struct Prepared {
    std::vector<Class> classes;
    std::vector<std::vector<int>> kept;  // per job: input index of each class option
    std::vector<int> fallback;           // per job: input index
    double trivial_bound = 0.0;
};

void validate(std::span<const OptJob> jobs, double total_cpus, double total_memory_gb, double time_limit_s) {
    if (!(std::isfinite(total_cpus) && total_cpus >= 0))
        throw std::invalid_argument("solveOptIlp: total CPUs must be a finite number >= 0, not " +
                                    formatNumber(total_cpus));
    if (!(std::isfinite(total_memory_gb) && total_memory_gb >= 0))
        throw std::invalid_argument("solveOptIlp: total memory must be a finite number >= 0, not " +
                                    formatNumber(total_memory_gb));
    if (!(time_limit_s > 0))
        throw std::invalid_argument("solveOptIlp: the time limit must be > 0 seconds, not " +
                                    formatNumber(time_limit_s));
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const OptJob& job = jobs[j];
        if (job.choices.empty())
            throw std::invalid_argument("solveOptIlp: " + jobName(j) + " has no (CPU, memory) options");
        if (!std::isfinite(job.min_throughput))
            throw std::invalid_argument("solveOptIlp: " + jobName(j) + ": min_throughput must be finite");
        for (std::size_t k = 0; k < job.choices.size(); ++k) {
            const OptChoice& c = job.choices[k];
            const bool ok = std::isfinite(c.cpus) && c.cpus >= 0 && std::isfinite(c.memory_gb) &&
                            c.memory_gb >= 0 && std::isfinite(c.throughput);
            if (!ok)
                throw std::invalid_argument(
                    "solveOptIlp: " + jobName(j) + " option " + std::to_string(k) +
                    ": CPUs and memory must be finite and >= 0, throughput finite (got " +
                    formatNumber(c.cpus) + " CPUs, " + formatNumber(c.memory_gb) + " GB, throughput " +
                    formatNumber(c.throughput) + ")");
        }
        if (job.fallback < -1 || job.fallback >= static_cast<int>(job.choices.size()))
            throw std::invalid_argument("solveOptIlp: " + jobName(j) + ": fallback " +
                                        std::to_string(job.fallback) + " is not one of its " +
                                        std::to_string(job.choices.size()) + " options");
    }
}

bool meetsMinimum(const OptJob& job, double throughput) {
    return throughput >= job.min_throughput - kMinTolerance * std::fabs(job.min_throughput);
}

Prepared prepare(std::span<const OptJob> jobs, double total_cpus, double total_memory_gb) {
    Prepared p;
    p.kept.resize(jobs.size());
    p.fallback.resize(jobs.size());
    std::map<std::vector<Option>, std::size_t> class_of;
    // Weights for "cheapest": share of each capacity (a zero capacity only admits zero use).
    const double wc = total_cpus > 0 ? 1.0 / total_cpus : 1.0;
    const double wm = total_memory_gb > 0 ? 1.0 / total_memory_gb : 1.0;
    double min_cpus = 0.0;
    double min_memory = 0.0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const OptJob& job = jobs[j];
        std::vector<int> eligible;
        double best = -std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < job.choices.size(); ++k) {
            best = std::max(best, job.choices[k].throughput);
            if (meetsMinimum(job, job.choices[k].throughput)) eligible.push_back(static_cast<int>(k));
        }
        if (eligible.empty())
            throw std::invalid_argument(
                "solveOptIlp: infeasible: none of the " + std::to_string(job.choices.size()) +
                " options of " + jobName(j) + " reaches its minimum throughput " +
                formatNumber(job.min_throughput) + " (best " + formatNumber(best) + ")");
        if (job.fallback >= 0 &&
            !meetsMinimum(job, job.choices[static_cast<std::size_t>(job.fallback)].throughput))
            throw std::invalid_argument("solveOptIlp: " + jobName(j) + ": its fallback option " +
                                        std::to_string(job.fallback) + " is below its minimum throughput");

        // Drop dominated options; exact duplicates keep the first.
        std::vector<Option> options;
        for (int a : eligible) {
            const OptChoice& ca = job.choices[static_cast<std::size_t>(a)];
            bool dominated = false;
            for (int b : eligible) {
                if (b == a) continue;
                const OptChoice& cb = job.choices[static_cast<std::size_t>(b)];
                if (cb.cpus <= ca.cpus && cb.memory_gb <= ca.memory_gb && cb.throughput >= ca.throughput) {
                    const bool same =
                        cb.cpus == ca.cpus && cb.memory_gb == ca.memory_gb && cb.throughput == ca.throughput;
                    if (!same || b < a) {
                        dominated = true;
                        break;
                    }
                }
            }
            if (dominated) continue;
            p.kept[j].push_back(a);
            options.push_back({ca.cpus, ca.memory_gb, ca.throughput});
        }

        double fewest_cpus = std::numeric_limits<double>::infinity();
        double least_memory = std::numeric_limits<double>::infinity();
        double top = -std::numeric_limits<double>::infinity();
        int cheapest = -1;
        double cheapest_cost = 0.0;
        for (std::size_t k = 0; k < options.size(); ++k) {
            const Option& o = options[k];
            fewest_cpus = std::min(fewest_cpus, o.cpus);
            least_memory = std::min(least_memory, o.memory_gb);
            top = std::max(top, o.throughput);
            const double cost = o.cpus * wc + o.memory_gb * wm;
            const Option& c = options[static_cast<std::size_t>(std::max(cheapest, 0))];
            if (cheapest < 0 || cost < cheapest_cost ||
                (cost == cheapest_cost && std::tie(o.cpus, o.memory_gb) < std::tie(c.cpus, c.memory_gb))) {
                cheapest = static_cast<int>(k);
                cheapest_cost = cost;
            }
        }
        p.fallback[j] = job.fallback >= 0 ? job.fallback : p.kept[j][static_cast<std::size_t>(cheapest)];
        min_cpus += fewest_cpus;
        min_memory += least_memory;
        p.trivial_bound += top;

        auto [it, inserted] = class_of.try_emplace(options, p.classes.size());
        if (inserted) p.classes.push_back({std::move(options), {}, 0});
        p.classes[it->second].jobs.push_back(j);
    }
    if (min_cpus > total_cpus * (1.0 + kMinTolerance))
        throw std::invalid_argument(
            "solveOptIlp: infeasible: the jobs need at least " + formatNumber(min_cpus) +
            " CPUs at their minimum throughput, more than the " + formatNumber(total_cpus) + " available");
    if (min_memory > total_memory_gb * (1.0 + kMinTolerance))
        throw std::invalid_argument("solveOptIlp: infeasible: the jobs need at least " +
                                    formatNumber(min_memory) +
                                    " GB of memory at their minimum throughput, more than the " +
                                    formatNumber(total_memory_gb) + " GB available");
    return p;
}

[[noreturn]] void noCombination(double total_cpus, double total_memory_gb) {
    throw std::invalid_argument("solveOptIlp: infeasible: no combination of the jobs' options fits " +
                                formatNumber(total_cpus) + " CPUs and " + formatNumber(total_memory_gb) +
                                " GB with every job at its minimum throughput");
}

void countNodes(glp_tree* tree, void* info) {
    int active = 0;
    int current = 0;
    int total = 0;
    glp_ios_tree_size(tree, &active, &current, &total);
    int* nodes = static_cast<int*>(info);
    *nodes = std::max(*nodes, total);
}

void finish(std::span<const OptJob> jobs, OptResult& r) {
    r.objective = 0.0;
    for (std::size_t j = 0; j < jobs.size(); ++j)
        r.objective += jobs[j].choices[static_cast<std::size_t>(r.choice[j])].throughput;
    r.bound = std::max(r.bound, r.objective);
}

void useFallback(std::span<const OptJob> jobs, const Prepared& p, double total_cpus, double total_memory_gb,
                 OptResult& r) {
    double cpus = 0.0;
    double memory = 0.0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const OptChoice& c = jobs[j].choices[static_cast<std::size_t>(p.fallback[j])];
        cpus += c.cpus;
        memory += c.memory_gb;
    }
    if (cpus > total_cpus * (1.0 + kCapacitySlack) || memory > total_memory_gb * (1.0 + kCapacitySlack))
        throw std::runtime_error("solveOptIlp: no integer solution was found " +
                                 std::string(r.time_limited ? "within the time limit" : "(GLPK failed)") +
                                 " and the fallback options need " + formatNumber(cpus) + " CPUs and " +
                                 formatNumber(memory) + " GB, more than the " + formatNumber(total_cpus) +
                                 " CPUs and " + formatNumber(total_memory_gb) +
                                 " GB available; pass each job's proportional share as its fallback");
    r.choice = p.fallback;
    r.fallback = true;
    r.optimal = false;
}

}  // namespace

OptResult solveOptIlp(std::span<const OptJob> jobs, double total_cpus, double total_memory_gb,
                      double time_limit_s) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    validate(jobs, total_cpus, total_memory_gb, time_limit_s);
    OptResult r;
    if (jobs.empty()) {
        r.optimal = true;
        return r;
    }
    Prepared p = prepare(jobs, total_cpus, total_memory_gb);
    r.bound = p.trivial_bound;

    // Milliseconds left for GLPK (INT_MAX = no limit); at least 1.
    const bool unlimited = std::isinf(time_limit_s) || time_limit_s * 1000.0 >= static_cast<double>(INT_MAX);
    auto remainingMs = [&]() -> int {
        if (unlimited) return INT_MAX;
        const double spent = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        const double left = std::ceil(time_limit_s * 1000.0 - spent);
        return static_cast<int>(std::clamp(left, 1.0, static_cast<double>(INT_MAX - 1)));
    };

    std::unique_lock<std::mutex> serial;
    if (glpkReentrant()) {
        thread_local ThreadEnvReleaser releaser;
        (void)releaser;
    } else {
        serial = std::unique_lock<std::mutex>(glpkMutex());
    }
    TermOutGuard quiet;
    std::unique_ptr<glp_prob, ProblemDeleter> lp(glp_create_prob());
    glp_set_obj_dir(lp.get(), GLP_MAX);

    // Rows: 1 = CPUs (2), 2 = memory (3), 3.. = one per class (4), as counts.
    const int nclasses = static_cast<int>(p.classes.size());
    glp_add_rows(lp.get(), 2 + nclasses);
    glp_set_row_bnds(lp.get(), 1, GLP_UP, 0.0, total_cpus);
    glp_set_row_bnds(lp.get(), 2, GLP_UP, 0.0, total_memory_gb);
    std::vector<int> ia(1, 0);
    std::vector<int> ja(1, 0);
    std::vector<double> ar(1, 0.0);
    int ncols = 0;
    for (int c = 0; c < nclasses; ++c) {
        Class& cls = p.classes[static_cast<std::size_t>(c)];
        const double count = static_cast<double>(cls.jobs.size());
        glp_set_row_bnds(lp.get(), 3 + c, GLP_FX, count, count);
        cls.first_column = ncols + 1;
        glp_add_cols(lp.get(), static_cast<int>(cls.options.size()));
        for (const Option& o : cls.options) {
            const int col = ++ncols;
            glp_set_col_kind(lp.get(), col, GLP_IV);
            glp_set_col_bnds(lp.get(), col, GLP_DB, 0.0, count);
            glp_set_obj_coef(lp.get(), col, o.throughput);
            if (o.cpus != 0) {
                ia.push_back(1);
                ja.push_back(col);
                ar.push_back(o.cpus);
            }
            if (o.memory_gb != 0) {
                ia.push_back(2);
                ja.push_back(col);
                ar.push_back(o.memory_gb);
            }
            ia.push_back(3 + c);
            ja.push_back(col);
            ar.push_back(1.0);
        }
    }
    glp_load_matrix(lp.get(), static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());

    // The LP relaxation: the bound, and a cheap proof of infeasibility.
    glp_smcp lp_parm;
    glp_init_smcp(&lp_parm);
    lp_parm.msg_lev = GLP_MSG_OFF;
    lp_parm.tm_lim = remainingMs();
    const int lp_rc = glp_simplex(lp.get(), &lp_parm);
    if (lp_rc == 0 && glp_get_status(lp.get()) == GLP_NOFEAS) noCombination(total_cpus, total_memory_gb);
    if (lp_rc != 0 || glp_get_status(lp.get()) != GLP_OPT) {
        r.time_limited = lp_rc == GLP_ETMLIM;
        useFallback(jobs, p, total_cpus, total_memory_gb, r);
        finish(jobs, r);
        return r;
    }
    r.bound = glp_get_obj_val(lp.get());

    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.mip_gap = 0.0;
    parm.tm_lim = remainingMs();
    parm.cb_func = countNodes;
    parm.cb_info = &r.nodes;
    const int rc = glp_intopt(lp.get(), &parm);
    const int status = glp_mip_status(lp.get());
    if ((rc == 0 && status == GLP_NOFEAS) || rc == GLP_ENOPFS) noCombination(total_cpus, total_memory_gb);
    r.time_limited = rc == GLP_ETMLIM;
    if (!((rc == 0 || rc == GLP_ETMLIM) && (status == GLP_OPT || status == GLP_FEAS))) {
        useFallback(jobs, p, total_cpus, total_memory_gb, r);
        finish(jobs, r);
        return r;
    }
    r.optimal = rc == 0 && status == GLP_OPT;

    // Counts per class option -> one option per job (the class's jobs in order).
    r.choice.assign(jobs.size(), -1);
    double cpus = 0.0;
    double memory = 0.0;
    for (const Class& cls : p.classes) {
        std::size_t next = 0;
        for (std::size_t k = 0; k < cls.options.size(); ++k) {
            const double value = glp_mip_col_val(lp.get(), cls.first_column + static_cast<int>(k));
            const long long count = std::llround(value);
            if (std::fabs(value - static_cast<double>(count)) > 1e-6 || count < 0 ||
                next + static_cast<std::size_t>(count) > cls.jobs.size())
                throw std::runtime_error("solveOptIlp: GLPK returned an invalid count " +
                                         formatNumber(value));
            for (long long i = 0; i < count; ++i, ++next) {
                const std::size_t j = cls.jobs[next];
                r.choice[j] = p.kept[j][k];
                cpus += cls.options[k].cpus;
                memory += cls.options[k].memory_gb;
            }
        }
        if (next != cls.jobs.size())
            throw std::runtime_error("solveOptIlp: GLPK left a job without an option");
    }
    if (cpus > total_cpus * (1.0 + kCapacitySlack) + kCapacitySlack ||
        memory > total_memory_gb * (1.0 + kCapacitySlack) + kCapacitySlack)
        throw std::runtime_error("solveOptIlp: GLPK's solution uses " + formatNumber(cpus) + " CPUs and " +
                                 formatNumber(memory) + " GB, over the capacity");
    finish(jobs, r);
    return r;
}

}  // namespace cl
