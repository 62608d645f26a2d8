// clusterloom-cli fit-profile: fits SJF-BSBF's speed model to Pollux's measurements and writes
// the profile set (data/profiles/sjf-bsbf.json).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/public_datasets.h"
#include "core/io/accumulation_profile_json.h"
#include "core/io/pollux_model_folder.h"
#include "core/io/profile_io.h"
#include "core/model/accumulation_fit.h"

namespace cli {

namespace {

std::string fixed(double v, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

void printTable(const std::vector<cl::AccumulationFit>& fits, std::ostream& out) {
    char line[256];
    std::snprintf(line, sizeof line, "%-12s %10s %10s %7s %10s %10s %10s %10s %5s %7s %7s\n", "model",
                  "a_comp ms", "b_comp ms", "delta", "intra a", "intra b", "inter a", "inter b", "rows",
                  "rms %", "max %");
    out << line;
    for (const auto& f : fits) {
        const cl::AccumulationProfile& p = f.profile;
        std::snprintf(line, sizeof line, "%-12s %10s %10s %7s %10s %10s %10s %10s %5d %7s %7s\n",
                      f.model.c_str(), fixed(p.alpha_comp * 1e3, 3).c_str(),
                      fixed(p.beta_comp * 1e3, 4).c_str(), fixed(p.delta, 3).c_str(),
                      fixed(p.alpha_comm_intra * 1e3, 2).c_str(), fixed(p.beta_comm_intra * 1e3, 4).c_str(),
                      fixed(p.alpha_comm_inter * 1e3, 2).c_str(), fixed(p.beta_comm_inter * 1e3, 4).c_str(),
                      f.error.rows, fixed(f.error.rms_rel_error * 100, 1).c_str(),
                      fixed(f.error.max_rel_error * 100, 1).c_str());
        out << line;
    }
    for (const auto& f : fits) {
        const std::pair<const char*, const cl::LinearFit*> terms[] = {{"compute", &f.compute},
                                                                      {"intra-node all-reduce", &f.intra},
                                                                      {"inter-node all-reduce", &f.inter}};
        for (const auto& [what, lf] : terms) {
            if (lf->constant)
                out << f.model << ": " << what << " fitted as a constant (fewer than two distinct x)\n";
            if (lf->clamped) out << f.model << ": " << what << " had a negative coefficient, clamped to 0\n";
        }
    }
    out << "(all-reduce ms = a + b x MB sent per worker; rms/max: relative error of Eq. 7 vs measured step "
           "time)\n";
}

}  // namespace

int fitProfileCommand(const std::vector<std::string>& argv) {
    Args args(
        "fit-profile",
        "Fit SJF-BSBF's speed model (Eq. 7: compute alpha/beta, all-reduce alpha/beta on one node and "
        "across\n"
        "nodes, overlap delta) to Pollux's measurements of bert, cifar10, deepspeech2, imagenet, ncf and\n"
        "yolov3, print the fitted parameters and fit error, and write the profile set JSON.",
        {{"models", "DIR",
          "Pollux model folders (<model>/placements.csv, scalability.csv); " +
              publicDatasetHint("pollux/models")},
         {"out", "FILE",
          "profile set to write (data/profiles/sjf-bsbf.json); without it the JSON goes to "
          "stdout and the table to stderr"}});
    if (!args.parse(argv)) return 0;
    const std::vector<cl::AccumulationFit> fits =
        cl::fitPolluxModels(publicDatasetOption(args, "models", "pollux/models"));
    const cl::ProfileSet set = cl::accumulationProfileSet(fits);
    if (!args.has("out")) {
        printTable(fits, std::cerr);
        std::cout << cl::profilesJsonText(set);
        return 0;
    }
    const std::string out = args.get("out");
    if (const auto parent = std::filesystem::path(out).parent_path(); !parent.empty())
        std::filesystem::create_directories(parent);
    cl::writeProfilesJson(set, out);
    printTable(fits, std::cout);
    std::cout << "wrote " << fits.size() << " models to " << out << "\n";
    return 0;
}

}  // namespace cli
