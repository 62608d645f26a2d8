#pragma once
// Reads a Pollux model folder (placements.csv and scalability.csv, the throughput measurements
// described in core/model/accumulation_fit.h) and fits SJF-BSBF's speed model to it.
#include <string>
#include <vector>

#include "core/model/accumulation_fit.h"

namespace cl {

// Both CSVs of a model folder. Throws ParseError naming file, line and field on bad input
// (missing file or column, non-digit placement, non-positive batch or step time, negative sync).
std::vector<PolluxRow> readPolluxModelFolder(const std::string& dir);

// Reads and fits one model folder.
AccumulationFit fitPolluxModelFolder(const std::string& dir, const PolluxModelConstants& constants);
// Fits every model of polluxModelConstants() from models_dir/<model>/ (all must exist).
std::vector<AccumulationFit> fitPolluxModels(const std::string& models_dir);

}  // namespace cl
