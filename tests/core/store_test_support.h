#pragma once
// Helpers shared by the workspace test suites: raw SQL probes of a store and file bytes.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "core/store/scenario_store.h"

namespace cl::test {

// The first column of the first row of sql (with ?1 bound to id when given); -1 for no row.
inline std::int64_t scalar(ScenarioStore& store, const std::string& sql) {
    Statement s = store.db().prepare(sql);
    return s.step() ? s.int64At(0) : -1;
}
inline std::int64_t scalar(ScenarioStore& store, const std::string& sql, std::int64_t id) {
    Statement s = store.db().prepare(sql);
    s.bind(1, id);
    return s.step() ? s.int64At(0) : -1;
}

// Rows a run owns in each results table.
inline std::int64_t resultRows(ScenarioStore& store, std::int64_t run_id) {
    std::int64_t n = 0;
    for (const char* table : {"run_summaries", "run_jobs", "run_job_records", "run_segments", "run_series",
                              "run_allocations", "run_batches"})
        n += scalar(store, std::string("SELECT count(*) FROM ") + table + " WHERE run_id = ?1", run_id);
    return n;
}

inline std::string integrity(ScenarioStore& store) {
    Statement s = store.db().prepare("PRAGMA integrity_check");
    std::string out;
    while (s.step()) out += (out.empty() ? "" : "; ") + s.textAt(0);
    return out;
}

inline std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace cl::test
