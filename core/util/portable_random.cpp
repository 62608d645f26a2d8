#include "core/util/portable_random.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace cl {

double PortableRng::uniform01() {
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

std::uint64_t PortableRng::below(std::uint64_t n) {
    if (n == 0) throw std::invalid_argument("PortableRng::below: n must be positive");
    // 2^64 mod n, computed in 64-bit arithmetic; rejecting raw values below it leaves a
    // range whose size is a multiple of n.
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
        const std::uint64_t x = engine_();
        if (x >= threshold) return x % n;
    }
}

double PortableRng::exponential(double rate) {
    return -std::log1p(-uniform01()) / rate;
}

double PortableRng::standardNormal() {
    const double u1 = uniform01();
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log1p(-u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t z = seed + (stream + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::size_t pickWeighted(const std::vector<double>& weights, double u) {
    double total = 0.0;
    for (double w : weights) total += w;
    if (!(total > 0.0)) throw std::invalid_argument("pickWeighted: weights must have a positive total");
    const double target = u * total;
    double cumulative = 0.0;
    std::size_t last_positive = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0.0) continue;
        cumulative += weights[i];
        last_positive = i;
        if (target < cumulative) return i;
    }
    return last_positive;  // u * total rounded up to the total
}

}  // namespace cl
