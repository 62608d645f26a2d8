#include "core/policies/sharing_benefit.h"

#include <algorithm>
#include <limits>

namespace cl {

namespace {
constexpr double kRelativeMargin = 1e-9;
}

double sequentialJctSum(const PairTimes& p) {
    return 2.0 * p.running_remaining + p.new_solo;
}

double sharedJctSum(const PairTimes& p) {
    const double n = p.xi_new * p.new_solo;                               // N's time to finish while sharing
    const double r = p.xi_running * p.running_remaining;                  // R's time to finish while sharing
    if (n <= r) return 2.0 * n + p.running_remaining - n / p.xi_running;  // N first; R then alone
    return 2.0 * r + p.new_solo - r / p.xi_new;                           // R first; N then alone
}

bool shareBeatsWaiting(const PairTimes& p) {
    const double seq = sequentialJctSum(p);
    return sharedJctSum(p) < seq * (1.0 - kRelativeMargin);
}

std::vector<int> halvingSubBatches(int local_batch) {
    std::vector<int> out;
    for (int b = std::max(local_batch, 1);; b -= b / 2) {  // ceil(b / 2) without overflow
        out.push_back(b);
        if (b == 1) break;
    }
    return out;
}

std::vector<int> fastestFrom(const std::vector<double>& solo) {
    std::vector<int> best(solo.size());
    for (int i = static_cast<int>(solo.size()) - 1; i >= 0; --i)
        best[i] = (i + 1 < static_cast<int>(solo.size()) && solo[best[i + 1]] < solo[i]) ? best[i + 1] : i;
    return best;
}

SubBatchChoice bestSubBatch(int local_batch, double running_remaining, double xi_running, double xi_new,
                            const std::function<double(int)>& new_solo,
                            const std::function<bool(int)>& fits) {
    SubBatchChoice best;
    best.jct_sum = std::numeric_limits<double>::infinity();
    for (int b : halvingSubBatches(local_batch)) {
        if (!fits(b)) continue;
        PairTimes p{running_remaining, new_solo(b), xi_running, xi_new};
        const bool share = shareBeatsWaiting(p);
        const double t = share ? sharedJctSum(p) : sequentialJctSum(p);
        if (t < best.jct_sum) {  // strict: ties keep the larger b
            best = {share, b, t};
        }
    }
    if (best.sub_batch == 0) best.jct_sum = 0.0;
    return best;
}

}  // namespace cl
