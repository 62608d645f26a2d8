#include "core/interference/interference_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

namespace cl {

namespace {

// Grid points of the cpu_b scan: the RSS as a function of cpu_b can have more than one
// local minimum when the data are noisy, so Brent only refines the best grid bracket.
constexpr int kGridPoints = 200;
// Same cap as the model's exponent, so that the fit and the predictions agree.
constexpr double kMaxExponent = 50.0;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void checkSample(const InterferenceSample& s, std::size_t index) {
    const std::pair<const char*, double> fields[] = {
        {"own_cpu", s.own_cpu},   {"other_cpu", s.other_cpu},   {"socket_cores", s.socket_cores},
        {"own_pcie", s.own_pcie}, {"other_pcie", s.other_pcie}, {"pcie_gbps", s.pcie_gbps},
        {"slowdown", s.slowdown}};
    for (const auto& field : fields) {
        const std::string name = field.first;
        const double v = field.second;
        const bool must_be_positive = name == "socket_cores" || name == "pcie_gbps" || name == "slowdown";
        if (!std::isfinite(v) || v < 0 || (must_be_positive && v == 0))
            throw std::invalid_argument("interference sample " + std::to_string(index + 1) + ": " + name +
                                        (must_be_positive ? " must be a finite positive number, got "
                                                          : " must be a finite non-negative number, got ") +
                                        num(v));
    }
    const std::string sample = "interference sample " + std::to_string(index + 1) + ": ";
    if (s.own_cpu > kMaxLoadRatio * s.socket_cores || s.other_cpu > kMaxLoadRatio * s.socket_cores)
        throw std::invalid_argument(sample + "CPU load above " + num(kMaxLoadRatio) + " times socket_cores");
    if (s.own_pcie > kMaxLoadRatio * s.pcie_gbps || s.other_pcie > kMaxLoadRatio * s.pcie_gbps)
        throw std::invalid_argument(sample + "PCIe traffic above " + num(kMaxLoadRatio) + " times pcie_gbps");
    if (s.slowdown > kMaxSampleSlowdown)
        throw std::invalid_argument(sample + "slowdown above " + num(kMaxSampleSlowdown));
}

// Per-sample quantities that do not depend on cpu_b.
struct Prepared {
    std::vector<double> own_share;    // u / C
    std::vector<double> other_share;  // U / C
    std::vector<double> pcie;         // (p / B) (P / B)
    std::vector<double> y;            // slowdown - 1
};

struct Linear {
    double cpu_a = 0.0;
    double pcie_a = 0.0;
    double rss = 0.0;
};

double cpuTerm(const Prepared& d, std::size_t i, double b) {
    if (d.own_share[i] == 0 || d.other_share[i] == 0) return 0.0;
    return d.own_share[i] * std::expm1(std::min(b * d.other_share[i], kMaxExponent));
}

double rssOf(const Prepared& d, const std::vector<double>& x1, double a, double c) {
    double rss = 0.0;
    for (std::size_t i = 0; i < d.y.size(); ++i) {
        const double r = d.y[i] - a * x1[i] - c * d.pcie[i];
        rss += r * r;
    }
    return rss;
}

// Least squares of y on a * x1 + c * x2 with a, c >= 0 (use_cpu / use_pcie switch terms off).
// The problem is a convex quadratic: its constrained minimum is the unconstrained one when
// that is feasible, else the better of the two one-term fits clamped at zero.
Linear solveLinear(const Prepared& d, const std::vector<double>& x1, bool use_cpu, bool use_pcie) {
    double s11 = 0, s12 = 0, s22 = 0, t1 = 0, t2 = 0;
    for (std::size_t i = 0; i < d.y.size(); ++i) {
        const double a = use_cpu ? x1[i] : 0.0;
        const double c = use_pcie ? d.pcie[i] : 0.0;
        s11 += a * a;
        s12 += a * c;
        s22 += c * c;
        t1 += a * d.y[i];
        t2 += c * d.y[i];
    }
    std::vector<Linear> candidates;
    if (use_cpu && use_pcie) {
        const double det = s11 * s22 - s12 * s12;
        if (s11 > 0 && s22 > 0 && det > 1e-12 * s11 * s22) {
            const double a = (t1 * s22 - t2 * s12) / det;
            const double c = (t2 * s11 - t1 * s12) / det;
            if (a >= 0 && c >= 0) candidates.push_back({a, c, 0.0});
        }
    }
    if (candidates.empty()) {
        if (use_cpu) candidates.push_back({s11 > 0 ? std::max(0.0, t1 / s11) : 0.0, 0.0, 0.0});
        if (use_pcie) candidates.push_back({0.0, s22 > 0 ? std::max(0.0, t2 / s22) : 0.0, 0.0});
    }
    Linear best;
    bool first = true;
    for (Linear& l : candidates) {
        l.rss = rssOf(d, x1, l.cpu_a, l.pcie_a);
        if (first || l.rss < best.rss) best = l;
        first = false;
    }
    return best;
}

// Brent's minimisation (golden section with parabolic steps) of f on [lo, hi].
template <class F>
double brentMinimum(F&& f, double lo, double hi) {
    const double golden = 0.5 * (3.0 - std::sqrt(5.0));
    double x = lo + golden * (hi - lo), w = x, v = x;
    double fx = f(x), fw = fx, fv = fx;
    double step = 0.0, prev_step = 0.0;
    for (int iter = 0; iter < 300; ++iter) {
        const double mid = 0.5 * (lo + hi);
        const double tol = 1e-10 * std::fabs(x) + 1e-14;
        if (std::fabs(x - mid) <= 2 * tol - 0.5 * (hi - lo)) break;
        bool parabolic = false;
        if (std::fabs(prev_step) > tol) {
            double r = (x - w) * (fx - fv);
            double q = (x - v) * (fx - fw);
            double p = (x - v) * q - (x - w) * r;
            q = 2.0 * (q - r);
            if (q > 0) p = -p;
            q = std::fabs(q);
            const double older = prev_step;
            prev_step = step;
            // Accept the parabola's vertex only inside the bracket and when it moves less than
            // half the step before last (else the steps may not shrink).
            if (std::fabs(p) < std::fabs(0.5 * q * older) && p > q * (lo - x) && p < q * (hi - x)) {
                step = p / q;
                const double u = x + step;
                if (u - lo < 2 * tol || hi - u < 2 * tol) step = x < mid ? tol : -tol;
                parabolic = true;
            }
        }
        if (!parabolic) {
            prev_step = (x < mid ? hi : lo) - x;
            step = golden * prev_step;
        }
        const double u = std::fabs(step) >= tol ? x + step : x + (step > 0 ? tol : -tol);
        const double fu = f(u);
        if (fu <= fx) {
            (u < x ? hi : lo) = x;
            v = w, fv = fw;
            w = x, fw = fx;
            x = u, fx = fu;
        } else {
            (u < x ? lo : hi) = u;
            if (fu <= fw || w == x) {
                v = w, fv = fw;
                w = u, fw = fu;
            } else if (fu <= fv || v == x || v == w) {
                v = u, fv = fu;
            }
        }
    }
    return x;
}

int parameterCount(InterferenceFitVariant v) {
    switch (v) {
        case InterferenceFitVariant::Full:
            return 3;
        case InterferenceFitVariant::WithoutCpu:
            return 1;
        case InterferenceFitVariant::WithoutPcie:
            return 2;
    }
    return 3;
}

}  // namespace

std::string interferenceFitVariantName(InterferenceFitVariant v) {
    switch (v) {
        case InterferenceFitVariant::Full:
            return "full";
        case InterferenceFitVariant::WithoutCpu:
            return "w/o CPU";
        case InterferenceFitVariant::WithoutPcie:
            return "w/o PCIe";
    }
    return "full";
}

InterferenceFit evaluateInterference(const std::vector<InterferenceSample>& samples,
                                     const InterferenceCoefficients& coefficients) {
    InterferenceFit fit;
    fit.coefficients = coefficients;
    fit.samples = static_cast<int>(samples.size());
    if (samples.empty()) return fit;
    double sq = 0.0, rel = 0.0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const InterferenceSample& s = samples[i];
        checkSample(s, i);
        TaskInterferenceInput in;
        in.own_cpu_cores = s.own_cpu;
        in.other_cpu_cores = s.other_cpu;
        in.socket_cores = s.socket_cores;
        in.own_pcie_gbps = s.own_pcie;
        in.other_pcie_gbps = s.other_pcie;
        in.pcie_gbps = s.pcie_gbps;
        const double err = std::fabs(interferenceSlowdown(coefficients, in) - s.slowdown);
        sq += err * err;
        rel += err / s.slowdown;
        fit.max_error = std::max(fit.max_error, err);
    }
    const double n = static_cast<double>(samples.size());
    fit.rmse = std::sqrt(sq / n);
    fit.mape = rel / n;
    return fit;
}

InterferenceFit fitInterference(const std::vector<InterferenceSample>& samples,
                                InterferenceFitVariant variant) {
    const std::string what = "interference fit (" + interferenceFitVariantName(variant) + ")";
    const int params = parameterCount(variant);
    if (static_cast<int>(samples.size()) < params)
        throw std::invalid_argument(what + ": needs at least " + std::to_string(params) + " samples, got " +
                                    std::to_string(samples.size()));
    const bool use_cpu = variant != InterferenceFitVariant::WithoutCpu;
    const bool use_pcie = variant != InterferenceFitVariant::WithoutPcie;

    Prepared d;
    bool cpu_seen = false, cpu_varies = false, pcie_seen = false;
    double first_share = 0.0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const InterferenceSample& s = samples[i];
        checkSample(s, i);
        d.own_share.push_back(s.own_cpu / s.socket_cores);
        d.other_share.push_back(s.other_cpu / s.socket_cores);
        d.pcie.push_back((s.own_pcie / s.pcie_gbps) * (s.other_pcie / s.pcie_gbps));
        d.y.push_back(s.slowdown - 1.0);
        if (d.own_share.back() > 0 && d.other_share.back() > 0) {
            if (!cpu_seen)
                first_share = d.other_share.back();
            else if (d.other_share.back() != first_share)
                cpu_varies = true;
            cpu_seen = true;
        }
        if (d.pcie.back() > 0) pcie_seen = true;
    }
    if (use_cpu && !cpu_seen)
        throw std::invalid_argument(what +
                                    ": no sample has both own_cpu and other_cpu above 0, so cpu_a and "
                                    "cpu_b cannot be fitted");
    if (use_cpu && !cpu_varies)
        throw std::invalid_argument(what +
                                    ": every sample with CPU load has the same other_cpu / socket_cores, "
                                    "so cpu_a and cpu_b cannot be told apart");
    if (use_pcie && !pcie_seen)
        throw std::invalid_argument(what +
                                    ": no sample has both own_pcie and other_pcie above 0, so pcie_a "
                                    "cannot be fitted");

    std::vector<double> x1(samples.size(), 0.0);
    auto fitAt = [&](double b) {
        for (std::size_t i = 0; i < x1.size(); ++i) x1[i] = use_cpu ? cpuTerm(d, i, b) : 0.0;
        return solveLinear(d, x1, use_cpu, use_pcie);
    };

    InterferenceFit fit;
    fit.variant = variant;
    InterferenceCoefficients c;
    c.cpu_a = c.cpu_b = c.pcie_a = 0.0;
    if (!use_cpu) {
        c.pcie_a = fitAt(0.0).pcie_a;
    } else {
        const double step = (kMaxFittedCpuB - kMinFittedCpuB) / kGridPoints;
        auto grid = [&](int k) { return kMinFittedCpuB + k * step; };
        int best_k = 0;
        double best_rss = fitAt(grid(0)).rss;
        for (int k = 1; k <= kGridPoints; ++k) {
            const double rss = fitAt(grid(k)).rss;
            if (rss < best_rss) best_rss = rss, best_k = k;
        }
        const double lo = grid(std::max(0, best_k - 1));
        const double hi = grid(std::min(kGridPoints, best_k + 1));
        double b = brentMinimum([&](double x) { return fitAt(x).rss; }, lo, hi);
        // Brent never evaluates the bracket's ends; the grid point itself may still be best.
        if (fitAt(grid(best_k)).rss <= fitAt(b).rss) b = grid(best_k);
        const Linear l = fitAt(b);
        c.cpu_a = l.cpu_a;
        c.cpu_b = b;
        c.pcie_a = l.pcie_a;
        fit.cpu_b_at_bound = b >= kMaxFittedCpuB;
        fit.cpu_b_at_lower_bound = b <= kMinFittedCpuB;
    }
    const InterferenceFit errors = evaluateInterference(samples, c);
    fit.coefficients = c;
    fit.samples = errors.samples;
    fit.rmse = errors.rmse;
    fit.mape = errors.mape;
    fit.max_error = errors.max_error;
    return fit;
}

}  // namespace cl
