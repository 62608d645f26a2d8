// clusterloom-cli transform: read a trace, apply transforms, write the result.
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "core/io/builtin_data.h"
#include "core/io/trace_writers.h"
#include "core/workload/trace_transforms.h"

namespace cli {

int transformCommand(const std::vector<std::string>& argv) {
    std::string specs;
    for (const auto& s : cl::transformSpecSyntax()) specs += "\n  " + s;
    Args args("transform",
              "Read a trace, apply transforms in the order given, write the result. Transforms:" + specs,
              {{"trace", "FILE", "input trace (required)"},
               {"format", "F", "input format", false, "auto"},
               {"apply", "SPEC", "transform to apply", true},
               {"out", "FILE", "output trace (.json or .csv) (required)"},
               {"model-seed", "N", "seed of the rule that assigns models to jobs without one", false, "1"}});
    if (!args.parse(argv)) return 0;
    cl::ProfileSet profiles = cl::builtinProfiles();
    std::string out = args.require("out");
    cl::Trace trace = loadTrace(args.require("trace"), args.get("format"), profiles,
                                static_cast<unsigned long long>(args.getInt("model-seed")), false);
    trace = cl::applyTransforms(trace, args.getAll("apply"));
    cl::writeTrace(trace, out);
    std::cerr << "wrote " << trace.jobs.size() << " jobs to " << out << "\n";
    return 0;
}

}  // namespace cli
