#pragma once
// How a run's results are stored (docs/architecture.md section 9.2): one write/read pair per
// table a run fills. Per-sample rows are plain columns; job records (one row per run), segments,
// allocation and batch changes are packed little-endian blobs, one row per run, GPU or job. The caller holds
// the transaction (writes) or the read snapshot (reads).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/model/sim_result.h"
#include "core/store/sqlite_db.h"

namespace cl {

// Called once per stored row of the tables below, and once per packed job record (progress of a
// long write).
using RowWritten = std::function<void()>;

// The rows writeRun* will write for r: jobs, GPUs with segments, samples, jobs with allocation
// changes, jobs with batch changes, left-out jobs and notes.
std::size_t storedRunRows(const SimResult& r);

// run_summaries: the summary, policy, conventions, events and wall time.
void writeRunSummary(SqliteDb& db, std::int64_t run_id, const SimResult& r);
// The summary's figure columns as a SELECT list, each name after `prefix` ("m." for a join), in
// the order readRunSummaryFigures reads them.
std::string runSummaryFigureColumns(const std::string& prefix);
// Reads those columns from `first_column` on into `summary`. False for a row written before
// schema 8: its p95 queueing delay, size-class figures and timed-out count are then left as they
// were. (Rows written before schema 10 read a timed-out count of 0: those engines had no limits.)
bool readRunSummaryFigures(const Statement& s, int first_column, Summary& summary);
// The conventions the run was made under ("" when its summary row is missing).
std::string readRunConventions(SqliteDb& db, std::int64_t run_id);

// run_job_records (schema 11): the run's job records in trace order, packed into one row (layout in
// run_codec.cpp). A store at an older schema writes run_jobs rows (timed_out from schema 10 on),
// and a run stored before schema 11 is read from them. A blob that does not hold its count of
// records is refused, naming the run.
void writeRunJobs(SqliteDb& db, std::int64_t run_id, const std::vector<JobRecord>& jobs,
                  const RowWritten& written);
std::vector<JobRecord> readRunJobs(SqliteDb& db, std::int64_t run_id, std::size_t expected_jobs);

// run_segments: one blob per GPU of (t0 f64, t1 f64, job i32), sorted by start.
void writeRunSegments(SqliteDb& db, std::int64_t run_id, const std::vector<GpuSegment>& segments,
                      const RowWritten& written);
std::vector<GpuSegment> readRunSegments(SqliteDb& db, std::int64_t run_id);

// run_series: one row per time sample, in time order.
void writeRunSeries(SqliteDb& db, std::int64_t run_id, const std::vector<TimeSample>& series,
                    const RowWritten& written);
std::vector<TimeSample> readRunSeries(SqliteDb& db, std::int64_t run_id);

// run_allocations: one blob per job of (t, cpus, memory_gb, speedup; f64 each); read back in
// time order.
void writeRunAllocations(SqliteDb& db, std::int64_t run_id, const std::vector<AllocationChange>& allocations,
                         const RowWritten& written);
std::vector<AllocationChange> readRunAllocations(SqliteDb& db, std::int64_t run_id);

// run_batches: one blob per job of (t f64, sub_batch i32, accumulation_steps i32, interference
// f64); read back in time order. Nothing is written (and the table is not touched) for a run
// without batch changes, so a workspace of schema 4, which has no such table, still takes runs.
void writeRunBatches(SqliteDb& db, std::int64_t run_id, const std::vector<BatchChange>& batches,
                     const RowWritten& written);
std::vector<BatchChange> readRunBatches(SqliteDb& db, std::int64_t run_id);

// run_left_out (schema 10): one row per job left out of the run because it can never fit the
// cluster (docs/architecture.md 2.10), in the run's order. Like run_batches, nothing is written for
// a run without any, so such a run stores exactly the rows it stored before schema 10.
void writeRunLeftOut(SqliteDb& db, std::int64_t run_id, const std::vector<LeftOutJob>& left_out,
                     const RowWritten& written);
std::vector<LeftOutJob> readRunLeftOut(SqliteDb& db, std::int64_t run_id);

// run_notes (schema 10): one row per note of the run (what its reader must know, section 2.8), in
// order; nothing is written for a run without notes.
void writeRunNotes(SqliteDb& db, std::int64_t run_id, const std::vector<std::string>& notes,
                   const RowWritten& written);
std::vector<std::string> readRunNotes(SqliteDb& db, std::int64_t run_id);

}  // namespace cl
