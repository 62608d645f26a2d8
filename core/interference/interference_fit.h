#pragma once
// Least-squares fit of the interference model (interference_model.h) to measured
// co-location samples, as the multi-agent placement paper's Sec. VI-F fits its model and two
// ablations (Table III); docs/architecture.md section 6.6.
#include <string>
#include <vector>

#include "core/interference/interference_model.h"

namespace cl {

struct InterferenceSample {
    double own_cpu = 0.0;       // u, cores
    double other_cpu = 0.0;     // U, cores (including spill)
    double socket_cores = 1.0;  // C
    double own_pcie = 0.0;      // p, Gbps
    double other_pcie = 0.0;    // P, Gbps
    double pcie_gbps = 128.0;   // B
    double slowdown = 1.0;      // measured: time co-located / time alone
};

enum class InterferenceFitVariant {
    Full,         // cpu_a, cpu_b, pcie_a
    WithoutCpu,   // pcie_a only (cpu_a = cpu_b = 0)
    WithoutPcie,  // cpu_a, cpu_b (pcie_a = 0)
};

std::string interferenceFitVariantName(InterferenceFitVariant v);  // "full", "w/o CPU", "w/o PCIe"

struct InterferenceFit {
    InterferenceFitVariant variant = InterferenceFitVariant::Full;
    InterferenceCoefficients coefficients;
    int samples = 0;
    double rmse = 0.0;                  // root mean square of predicted - measured slowdown
    double mape = 0.0;                  // mean of |predicted - measured| / measured (a fraction)
    double max_error = 0.0;             // largest |predicted - measured|
    bool cpu_b_at_bound = false;        // the best cpu_b is the search's upper bound
    bool cpu_b_at_lower_bound = false;  // ... its lower bound: the data are linear in the CPU load
    // What such data determine: near cpu_b = 0 the CPU term is cpu_a cpu_b (u/C)(U/C).
    double cpuLinearSlope() const { return coefficients.cpu_a * coefficients.cpu_b; }
};

// cpu_b is searched in [kMinFittedCpuB, kMaxFittedCpuB]. Beyond the upper end exp(b U / C) is so
// steep that the CPU term is zero until the socket is full and near-vertical after, which no
// measurement in the paper suggests. Below the lower end the term is linear in U / C to within
// 1% over any load up to twice the socket, so the data fix only the product cpu_a cpu_b: an
// unbounded search there drifts towards cpu_b = 0 with cpu_a growing without limit (cpu_a 6e13,
// cpu_b 1e-14 on nearly linear samples). A fit ending at either bound is flagged.
constexpr double kMinFittedCpuB = 0.01;
constexpr double kMaxFittedCpuB = 20.0;

// Samples beyond these are unit errors, not measurements; refusing them also keeps every sum
// of the fit finite. A load may exceed its socket or group (oversubscription) but not by more
// than kMaxLoadRatio times; a slowdown may not exceed the model's cap.
constexpr double kMaxLoadRatio = 1000.0;
constexpr double kMaxSampleSlowdown = 1.0e6;

// Minimises the sum of squared slowdown residuals. For a fixed cpu_b the model is linear in
// (cpu_a, pcie_a): the normal equations are solved in closed form, with both coefficients
// kept non-negative (the model refuses negative ones). cpu_b is found by a grid scan of the
// range (bracketing) followed by Brent's 1-D minimisation inside the best bracket.
// Throws std::invalid_argument for samples with non-finite or negative values or beyond the
// limits above (naming the sample), fewer samples than the variant has parameters, or data that cannot
// determine a parameter (no sample with both own and other CPU load, all with the same U / C, or no sample
// with both own and other PCIe traffic).
InterferenceFit fitInterference(const std::vector<InterferenceSample>& samples,
                                InterferenceFitVariant variant);

// Prediction errors of given coefficients on samples (fills samples, rmse, mape, max_error).
InterferenceFit evaluateInterference(const std::vector<InterferenceSample>& samples,
                                     const InterferenceCoefficients& coefficients);

}  // namespace cl
