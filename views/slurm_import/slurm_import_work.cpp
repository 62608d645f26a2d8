#include "views/slurm_import/slurm_import_work.h"

#include <exception>

#include "core/io/sacct_trace.h"

namespace cl::views {

HistoryRead readHistory(const QString& path, const cl::SacctOptions& options, const QString& name) {
    HistoryRead read;
    try {
        const std::string file = path.toStdString();
        cl::SacctImport history = cl::readSacct(file, options);
        read.trace = std::make_shared<const cl::Trace>(
            cl::traceFromSacct(history, name.toStdString(), file, &read.left_out));
        read.history = std::move(history);
    } catch (const std::exception& e) {
        read.error = QString::fromUtf8(e.what());
    }
    return read;
}

NodesRead readNodes(const QString& path) {
    NodesRead read;
    try {
        read.inventory = cl::readSlurmNodes(path.toStdString());
    } catch (const std::exception& e) {
        read.error = QString::fromUtf8(e.what());
    }
    return read;
}

RuledTrace applyProfileRules(const cl::Trace& trace, const cl::ProfileRules& rules,
                             const cl::ProfileSet& profiles) {
    RuledTrace ruled;
    try {
        cl::checkProfileRules(rules, profiles, "rules");
        auto copy = std::make_shared<cl::Trace>(trace);
        ruled.counts = cl::assignProfilesByRule(*copy, rules);
        ruled.iterations = cl::iterationsFromMeasuredTime(*copy, profiles);
        ruled.trace = std::move(copy);
    } catch (const std::exception& e) {
        ruled.error = QString::fromUtf8(e.what());
    }
    return ruled;
}

}  // namespace cl::views
