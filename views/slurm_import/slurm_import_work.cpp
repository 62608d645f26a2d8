#include "views/slurm_import/slurm_import_work.h"

#include <exception>

#include "core/io/sacct_trace.h"
#include "core/sim/job_requests.h"

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

PartitionsRead readPartitions(const QString& path) {
    PartitionsRead read;
    try {
        read.partitions = cl::readSlurmPartitions(path.toStdString());
    } catch (const std::exception& e) {
        read.error = QString::fromUtf8(e.what());
    }
    return read;
}

FitCheck checkJobsFit(const cl::Cluster& cluster, const cl::Trace& trace) {
    FitCheck fit;
    try {
        const cl::JobRequests requests(cluster, trace);
        fit.reasons.resize(trace.jobs.size());
        for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
            fit.reasons[i] = requests.neverFits(static_cast<int>(i));
            if (!fit.reasons[i].empty()) ++fit.never_fit;
        }
    } catch (const std::exception& e) {
        fit.reasons.clear();
        fit.never_fit = 0;
        fit.error = QString::fromUtf8(e.what());
    }
    return fit;
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
