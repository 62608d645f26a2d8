#pragma once
// Output writers for run results ("tracers" kept out of the simulation logic).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/io/atomic_file.h"
#include "core/model/sim_result.h"

namespace cl {

// job_index,job_id,model,gpus,iterations,submit,first_start,end,jct,queueing_delay,pending_time,preemptions,restarts
void writeJobsCsv(const SimResult& result, const std::string& path);
// gpu,t0,t1,job_index
void writeSegmentsCsv(const SimResult& result, const std::string& path);

// The same file written while the run goes, from SimOptions::segment_sink, so that a run's
// segments need not be held in memory. The file is created at the first write; the rows are
// formatted and written on a thread of the writer's own (write() hands over a copy, and waits
// while several batches are still unwritten); commit() completes the file, and an I/O failure
// is thrown by it or by a later write(). An uncommitted writer leaves nothing behind.
class SegmentsCsvWriter {
public:
    explicit SegmentsCsvWriter(std::string path);
    ~SegmentsCsvWriter();
    SegmentsCsvWriter(const SegmentsCsvWriter&) = delete;
    SegmentsCsvWriter& operator=(const SegmentsCsvWriter&) = delete;
    void write(std::span<const GpuSegment> segments);
    std::size_t rows() const;
    void commit();  // throws std::runtime_error naming the file on I/O failure

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};
// t,queue_length,running_jobs,blocking_index,gpu_utilization
void writeSeriesCsv(const SimResult& result, const std::string& path);

nlohmann::json summaryJson(const Summary& s);
// {"avg_jct": {policy: seconds}, "policies": {policy: {summary}}, plus the given context}.
nlohmann::json metricsJson(const std::vector<SimResult>& results, const nlohmann::json& context);
void writeJson(const nlohmann::json& j, const std::string& path);

}  // namespace cl
