#pragma once
// SJF-BSBF's decision for one job pair (paper section V-A, Theorem 1, and Algorithm 2 as
// docs/architecture.md section 5.3 fixes it): should a new job N start now on the GPUs of a
// running job R and share them, or wait until R finishes? Sharing slows N by xi_N and R by xi_R.
#include <functional>
#include <vector>

namespace cl {

struct PairTimes {
    double running_remaining = 0.0;  // P_R: R's remaining solo time, seconds
    double new_solo = 0.0;           // P_N: N's solo time (at the sub-batch considered), seconds
    double xi_running = 1.0;         // xi_R
    double xi_new = 1.0;             // xi_N
};

// Sum of both JCTs (from now) when N waits for R: 2 P_R + P_N.
double sequentialJctSum(const PairTimes& p);
// Sum of both JCTs when N starts now and shares until the first of them finishes, the other
// then running alone.
double sharedJctSum(const PairTimes& p);
// Theorem 1: share iff the shared sum is smaller by more than a relative 1e-9 (a tie waits).
bool shareBeatsWaiting(const PairTimes& p);

struct SubBatchChoice {
    bool share = false;    // SF: sharing beats waiting at the chosen sub-batch
    int sub_batch = 0;     // b: per-GPU sub-batch (0 = none fits memory)
    double jct_sum = 0.0;  // t: the better of shared and sequential JCT sums at b
};

// Algorithm 2: tries b = local, local/2, ..., 1 (halving, rounded up) for which
// `fits(b)` holds; `new_solo(b)` is N's solo time at sub-batch b. Keeps the smallest JCT sum,
// ties to the larger b, and returns after the loop.
SubBatchChoice bestSubBatch(int local_batch, double running_remaining, double xi_running, double xi_new,
                            const std::function<double(int)>& new_solo, const std::function<bool(int)>& fits);

// The sub-batches Algorithm 2 tries, largest first.
std::vector<int> halvingSubBatches(int local_batch);

// Every JCT sum above grows with P_N, so Algorithm 2's choice is the fastest sub-batch that
// fits (ties to the larger). With sub-batches largest first and memory growing with the
// sub-batch, the ones that fit are a suffix: fastestFrom(solo)[first_fitting] is the choice.
// solo[i] is N's solo time at the i-th sub-batch; each entry is the index of the smallest
// value among solo[i..] (ties to the smaller index, i.e. the larger sub-batch).
std::vector<int> fastestFrom(const std::vector<double>& solo);

}  // namespace cl
