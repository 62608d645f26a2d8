#pragma once
// PyTorch profiler (Kineto) traces: Chrome trace JSON, plain or gzip-compressed, read into the
// few events a model profile needs (docs/architecture.md section 8.6), and the profile of one
// run's ranks. The figures are computed in core/model/kineto_profile.h.
#include <string>
#include <string_view>
#include <vector>

#include "core/model/kineto_events.h"
#include "core/model/kineto_profile.h"

namespace cl {

// The events of a trace held in memory (`bytes`: JSON, or gzip data holding JSON); `source`
// names it in errors. Throws ParseError for bad gzip data, text that is not JSON, no
// traceEvents, and a step, kernel, launch or DataLoader event with a bad ts, dur or id.
KinetoEvents parseKinetoTrace(std::string_view bytes, const std::string& source);
KinetoEvents readKinetoTrace(const std::string& path);

// One rank's breakdown. Throws ParseError naming the file when it has no ProfilerStep#N span
// or only one (nothing is left after the warm-up step), besides the errors above.
KinetoRankProfile readKinetoRank(const std::string& path);
// The files are the ranks of one run: one profile named `name` (empty: the first file's name
// without .gz and .json). Throws ParseError as readKinetoRank, std::invalid_argument for no files.
KinetoProfile kinetoProfile(const std::vector<std::string>& paths, const std::string& name);

}  // namespace cl
