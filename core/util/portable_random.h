#pragma once
// Seeded random numbers that are the same on every platform.
//
// std::mt19937_64 is fully specified by the C++ standard, so its raw 64-bit output is
// identical everywhere; the std::*_distribution classes are not (their algorithms are
// implementation-defined), so ClusterLoom never uses them. Everything here is derived from
// the raw output with documented formulas:
//   uniform01()      = (x >> 11) * 2^-53                      in [0, 1), one draw
//   below(n)         = x mod n after rejecting x < 2^64 mod n  (unbiased), >= one draw
//   exponential(r)   = -log(1 - uniform01()) / r               one draw
//   standardNormal() = Box-Muller, sqrt(-2 log(1 - u1)) cos(2 pi u2), exactly two draws
// log/cos/pow come from the C library; correctly rounded or not, they differ across
// libraries by at most the last bit, and callers that publish times round them (see
// trace_generator.h) so that such differences cannot show.
#include <cstdint>
#include <random>
#include <vector>

namespace cl {

class PortableRng {
public:
    explicit PortableRng(std::uint64_t seed) : engine_(seed) {}

    std::uint64_t next() { return engine_(); }
    double uniform01();
    std::uint64_t below(std::uint64_t n);  // uniform in [0, n); n must be > 0
    double exponential(double rate);       // mean 1 / rate
    double standardNormal();

private:
    std::mt19937_64 engine_;
};

// Independent stream seeds derived from one user seed: splitmix64(seed + (stream + 1) *
// 0x9E3779B97F4A7C15). Lets one attribute (e.g. the model mix) change without moving the
// draws of the others.
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream);

// Index drawn from non-negative weights for u in [0, 1): the first index whose cumulative
// weight exceeds u * total (zero weights are never drawn). Requires a positive total.
std::size_t pickWeighted(const std::vector<double>& weights, double u);

}  // namespace cl
