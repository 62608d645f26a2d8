#include "core/io/pollux_model_folder.h"

#include <filesystem>
#include <stdexcept>

#include "core/io/csv_table.h"
#include "core/io/parse_error.h"

namespace cl {

namespace {

int placementDigits(const CsvTable& t, const CsvRow& row, int col, int& nodes) {
    const std::string text = t.text(row, col, false);
    int gpus = 0;
    nodes = 0;
    for (char ch : text) {
        if (ch < '1' || ch > '9')
            throw ParseError(t.file(), row.line, t.fieldName(col),
                             "placement must be digits 1-9, one per node (GPUs on it), found '" + text + "'");
        gpus += ch - '0';
        ++nodes;
    }
    return gpus;
}

void readTimes(const CsvTable& t, const CsvRow& row, int step_col, int sync_col, PolluxRow& r) {
    r.step_time = t.nonNegative(row, step_col);
    if (!(r.step_time > 0))
        throw ParseError(t.file(), row.line, t.fieldName(step_col), "step time must be positive");
    r.sync_time = t.nonNegative(row, sync_col);
}

}  // namespace

std::vector<PolluxRow> readPolluxModelFolder(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<PolluxRow> rows;
    {
        const CsvTable t = CsvTable::readFile((fs::path(dir) / "placements.csv").string());
        const int placement = t.requireColumn("placement"), bsz = t.requireColumn("local_bsz"),
                  step = t.requireColumn("step_time"), sync = t.requireColumn("sync_time");
        for (const CsvRow& row : t.rows()) {
            t.requireRowWidth(row);
            PolluxRow r;
            r.file = t.file();
            r.line = row.line;
            r.replicas = placementDigits(t, row, placement, r.nodes);
            r.local_bsz = t.positiveInt(row, bsz);
            readTimes(t, row, step, sync, r);
            rows.push_back(r);
        }
    }
    {
        const CsvTable t = CsvTable::readFile((fs::path(dir) / "scalability.csv").string());
        const int nodes = t.requireColumn("num_nodes"), replicas = t.requireColumn("num_replicas"),
                  bsz = t.requireColumn("local_bsz"), step = t.requireColumn("step_time"),
                  sync = t.requireColumn("sync_time");
        for (const CsvRow& row : t.rows()) {
            t.requireRowWidth(row);
            PolluxRow r;
            r.file = t.file();
            r.line = row.line;
            r.nodes = t.positiveInt(row, nodes);
            r.replicas = t.positiveInt(row, replicas);
            if (r.replicas < r.nodes)
                throw ParseError(t.file(), row.line, t.fieldName(replicas), "fewer replicas than nodes");
            r.local_bsz = t.positiveInt(row, bsz);
            readTimes(t, row, step, sync, r);
            rows.push_back(r);
        }
    }
    return rows;
}

AccumulationFit fitPolluxModelFolder(const std::string& dir, const PolluxModelConstants& constants) {
    return fitAccumulationProfile(readPolluxModelFolder(dir), constants, dir);
}

std::vector<AccumulationFit> fitPolluxModels(const std::string& models_dir) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(models_dir))
        throw std::invalid_argument("Pollux models folder not found: " + models_dir);
    std::vector<AccumulationFit> fits;
    for (const auto& c : polluxModelConstants()) {
        const fs::path dir = fs::path(models_dir) / c.name;
        if (!fs::is_directory(dir))
            throw std::invalid_argument("Pollux model folder missing: " + dir.string());
        fits.push_back(fitPolluxModelFolder(dir.string(), c));
    }
    return fits;
}

}  // namespace cl
