// clusterloom-cli fit-interference: fits the co-location interference model and its two
// ablations to measured samples (the multi-agent placement paper, Sec. VI-F, Table III) and can
// store the full fit's coefficients in a profile set.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/interference/interference_fit.h"
#include "core/io/atomic_file.h"
#include "core/io/csv_table.h"
#include "core/io/interference_samples_io.h"
#include "core/io/profile_io.h"

namespace cli {

namespace {

std::string fmt(const char* format, double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void printTable(const std::string& file, const std::vector<cl::InterferenceFit>& fits, std::ostream& out) {
    out << "fitted " << fits.front().samples << " samples from " << file << "\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-10s %12s %12s %12s %10s %8s %10s\n", "model", "cpu_a", "cpu_b",
                  "pcie_a", "RMSE", "MAPE %", "max error");
    out << line;
    for (const auto& f : fits) {
        std::snprintf(line, sizeof line, "%-10s %12s %12s %12s %10s %8s %10s\n",
                      cl::interferenceFitVariantName(f.variant).c_str(),
                      fmt("%.6g", f.coefficients.cpu_a).c_str(), fmt("%.6g", f.coefficients.cpu_b).c_str(),
                      fmt("%.6g", f.coefficients.pcie_a).c_str(), fmt("%.4f", f.rmse).c_str(),
                      fmt("%.2f", f.mape * 100).c_str(), fmt("%.4f", f.max_error).c_str());
        out << line;
    }
    for (const auto& f : fits)
        if (f.cpu_b_at_bound)
            out << cl::interferenceFitVariantName(f.variant) << ": cpu_b ended at the search bound "
                << cl::kMaxFittedCpuB << " (the CPU term may want a steeper exponent)\n";
    for (const auto& f : fits)
        if (f.cpu_b_at_lower_bound)
            out << cl::interferenceFitVariantName(f.variant) << ": cpu_b ended at its lower bound "
                << cl::kMinFittedCpuB
                << ": the slowdown is linear in the CPU load there and the samples fix only the slope "
                   "cpu_a x cpu_b = "
                << fmt("%.6g", f.cpuLinearSlope()) << "\n";
    out << "(slowdown = 1 + cpu_a (u/C)(exp(cpu_b U/C) - 1) + pcie_a (p/B)(P/B); RMSE and max error in "
           "slowdown "
           "units, MAPE relative to the measured slowdown)\n";
}

nlohmann::ordered_json fitsJson(const std::string& file, const std::vector<cl::InterferenceFit>& fits) {
    nlohmann::ordered_json out;
    out["samples_file"] = file;
    out["samples"] = fits.front().samples;
    out["fits"] = nlohmann::ordered_json::array();
    for (const auto& f : fits) {
        nlohmann::ordered_json j;
        j["model"] = cl::interferenceFitVariantName(f.variant);
        j["cpu_a"] = f.coefficients.cpu_a;
        j["cpu_b"] = f.coefficients.cpu_b;
        j["pcie_a"] = f.coefficients.pcie_a;
        j["rmse"] = f.rmse;
        j["mape"] = f.mape;
        j["max_error"] = f.max_error;
        j["cpu_b_at_bound"] = f.cpu_b_at_bound;
        j["cpu_b_at_lower_bound"] = f.cpu_b_at_lower_bound;
        if (f.cpu_b_at_lower_bound) j["cpu_linear_slope"] = f.cpuLinearSlope();
        out["fits"].push_back(j);
    }
    return out;
}

// Sets "interference" in a copy of the profile set's JSON rather than re-writing it from a
// ProfileSet, which would drop the file's free-text keys ("notes", "gpu_type_speed_sources").
std::string storeCoefficients(const std::string& in, const std::string& out,
                              const cl::InterferenceCoefficients& c) {
    const cl::ProfileSet set = cl::readProfilesJson(in);  // validates IN, errors name file and line
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(cl::readWholeFile(in));
    doc["interference"] = {{"cpu_a", c.cpu_a}, {"cpu_b", c.cpu_b}, {"pcie_a", c.pcie_a}};
    const std::string text = doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    if (!(cl::parseProfilesJson(text, out).interference == c))
        throw std::runtime_error("internal error: " + out + " would not read back the fitted coefficients");
    if (const auto parent = std::filesystem::path(out).parent_path(); !parent.empty())
        std::filesystem::create_directories(parent);
    cl::AtomicFile file(out);  // a failed write leaves OUT (which may be IN) as it was
    file.stream() << text;
    file.commit();
    return "wrote the full fit's coefficients into profile set '" + set.name + "' at " + out + "\n";
}

}  // namespace

int fitInterferenceCommand(const std::vector<std::string>& argv) {
    // --write-profiles takes two values, which Args does not do: take it out first.
    std::vector<std::string> rest;
    std::vector<std::string> write_profiles;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        if (argv[i].rfind("--write-profiles", 0) != 0) {
            rest.push_back(argv[i]);
            continue;
        }
        if (argv[i] != "--write-profiles")
            throw UsageError("fit-interference: --write-profiles takes two values: IN.json OUT.json");
        if (!write_profiles.empty())
            throw UsageError("fit-interference: option '--write-profiles' given more than once");
        if (i + 2 >= argv.size() || argv[i + 1].rfind("--", 0) == 0 || argv[i + 2].rfind("--", 0) == 0)
            throw UsageError("fit-interference: option '--write-profiles' needs two values IN.json OUT.json");
        write_profiles = {argv[i + 1], argv[i + 2]};
        i += 2;
    }
    Args args(
        "fit-interference",
        "Fit the co-location interference model (core/interference/interference_model.h) to measured\n"
        "samples by least squares, with the ablations without the CPU term and without the PCIe term\n"
        "(the multi-agent placement paper's Table III). samples.csv has the header\n"
        "own_cpu,other_cpu,socket_cores,own_pcie,other_pcie,pcie_gbps,slowdown (extra columns ignored).",
        {{"json", "", "print the fits as JSON instead of a table"},
         {"write-profiles", "IN.json OUT.json",
          "store the full fit's coefficients in profile set IN.json as OUT.json (may be IN; "
          "written only on success)"}});
    args.positionals("samples.csv", 1, 1);
    if (!args.parse(rest)) return 0;
    const std::string file = args.positional().front();
    const std::vector<cl::InterferenceSample> samples = cl::readInterferenceSamplesCsv(file);
    // Data with only CPU (or only PCIe) co-locations cannot fit every model; the others are
    // still worth seeing, so a model that cannot be fitted is named with the reason.
    std::vector<cl::InterferenceFit> fits;
    std::string not_fitted, first_error;
    for (auto v : {cl::InterferenceFitVariant::Full, cl::InterferenceFitVariant::WithoutCpu,
                   cl::InterferenceFitVariant::WithoutPcie}) {
        try {
            fits.push_back(cl::fitInterference(samples, v));
        } catch (const std::invalid_argument& e) {
            if (first_error.empty()) first_error = e.what();
            not_fitted += cl::interferenceFitVariantName(v) + ": not fitted: " + e.what() + "\n";
        }
    }
    if (fits.empty()) throw std::invalid_argument(first_error);

    std::string wrote;
    if (!write_profiles.empty()) {
        if (fits.front().variant != cl::InterferenceFitVariant::Full)
            throw std::invalid_argument("--write-profiles needs the full model, which was not fitted: " +
                                        first_error);
        wrote = storeCoefficients(write_profiles[0], write_profiles[1], fits.front().coefficients);
    }
    std::cerr << not_fitted;
    if (args.has("json")) {
        std::cout << fitsJson(file, fits).dump(2) << "\n";
        std::cerr << wrote;
    } else {
        printTable(file, fits, std::cout);
        std::cout << wrote;
    }
    return 0;
}

}  // namespace cli
