#pragma once
// Slurm's job priority as a priority order (docs/architecture.md 4.8): jobs of a partition with a
// higher PriorityTier first, then by priority, then by submission. priority/basic gives every job
// the same priority (submit order); priority/multifactor adds up Slurm's weighted factors, each
// in [0, 1]:
//  - age: time pending, capped at PriorityMaxAge;
//  - job size: the job's share of the cluster's GPUs (PriorityFavorSmall: its complement);
//  - partition: its partition's PriorityTier over the highest tier;
//  - QOS: 0 (no QOS is modelled);
//  - fair-share: Slurm's classic formula 2^(-U/S) per account, U the account's share of the
//    decayed GPU-seconds used (PriorityDecayHalfLife), S = 1 / number of accounts seen.
#include <memory>

#include "core/policies/priority_order.h"
#include "core/policies/slurm_config.h"

namespace cl {

std::unique_ptr<PriorityOrder> makeSlurmPriorityOrder(const SlurmConfig& config);

}  // namespace cl
