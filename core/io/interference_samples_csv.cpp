#include <string>
#include <utility>

#include "core/io/csv_table.h"
#include "core/io/interference_samples_io.h"
#include "core/io/parse_error.h"

namespace cl {

namespace {

constexpr double kMinSlowdown = 0.5;

std::vector<InterferenceSample> samplesFromTable(const CsvTable& t) {
    const int own_cpu = t.requireColumn("own_cpu");
    const int other_cpu = t.requireColumn("other_cpu");
    const int socket_cores = t.requireColumn("socket_cores");
    const int own_pcie = t.requireColumn("own_pcie");
    const int other_pcie = t.requireColumn("other_pcie");
    const int pcie_gbps = t.requireColumn("pcie_gbps");
    const int slowdown = t.requireColumn("slowdown");
    auto positive = [&t](const CsvRow& row, int col) {
        const double v = t.number(row, col);
        if (v <= 0)
            throw ParseError(t.file(), row.line, t.fieldName(col),
                             "must be positive, found " + t.text(row, col));
        return v;
    };
    std::vector<InterferenceSample> samples;
    for (const CsvRow& row : t.rows()) {
        t.requireRowWidth(row);
        InterferenceSample s;
        s.own_cpu = t.nonNegative(row, own_cpu);
        s.other_cpu = t.nonNegative(row, other_cpu);
        s.socket_cores = positive(row, socket_cores);
        s.own_pcie = t.nonNegative(row, own_pcie);
        s.other_pcie = t.nonNegative(row, other_pcie);
        s.pcie_gbps = positive(row, pcie_gbps);
        s.slowdown = t.number(row, slowdown);
        if (s.slowdown < kMinSlowdown)
            throw ParseError(
                t.file(), row.line, t.fieldName(slowdown),
                "must be at least 0.5 (time co-located / time alone), found " + t.text(row, slowdown));
        if (s.slowdown > kMaxSampleSlowdown)
            throw ParseError(
                t.file(), row.line, t.fieldName(slowdown),
                "must be at most 1e6 (time co-located / time alone), found " + t.text(row, slowdown));
        const std::pair<int, double> loads[] = {{own_cpu, s.socket_cores},
                                                {other_cpu, s.socket_cores},
                                                {own_pcie, s.pcie_gbps},
                                                {other_pcie, s.pcie_gbps}};
        for (const auto& load : loads)
            if (t.number(row, load.first) > kMaxLoadRatio * load.second)
                throw ParseError(
                    t.file(), row.line, t.fieldName(load.first),
                    "more than 1000 times " +
                        t.fieldName(load.first == own_cpu || load.first == other_cpu ? socket_cores
                                                                                     : pcie_gbps) +
                        " (a unit error?), found " + t.text(row, load.first));
        samples.push_back(s);
    }
    if (samples.empty()) throw ParseError(t.file(), 0, "", "no samples (only a header line)");
    return samples;
}

}  // namespace

std::vector<InterferenceSample> readInterferenceSamplesCsv(const std::string& path) {
    return samplesFromTable(CsvTable::readFile(path));
}

std::vector<InterferenceSample> parseInterferenceSamplesCsv(const std::string& text,
                                                            const std::string& file) {
    return samplesFromTable(CsvTable::parse(text, file));
}

}  // namespace cl
