#pragma once
// The per-GPU timeline's data side, without widgets: rows (GPUs grouped by server, a collapsed
// server is one row), per-row interval arrays sorted by time, and the per-frame draw-list
// builder with level of detail (docs/architecture.md section 1.6, after Tracy): each frame
// binary-searches the visible window of each visible row and merges runs of intervals narrower than a few
// pixels into one "N segments" block, so a frame costs about (visible rows x pixels), not
// (segments).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/sim_result.h"

namespace cl::views {

struct TimelineRow {
    int server = 0;
    int gpu = -1;  // global GPU index; -1 = a collapsed server (all its GPUs in one row)
};

struct TimelineItem {
    enum Kind : std::uint8_t {
        Segment,  // one segment of one job (job, first = its index in SimResult::segments)
        Merged,   // `count` consecutive segments of one lane, each too narrow to draw alone
        Busy,     // collapsed server: mean fraction `busy` of its GPUs holding a job
        Queue,    // a job waiting: submit -> first start, on the GPUs it first ran on
    };
    int row = 0;
    Kind kind = Segment;
    std::uint8_t lane = 0;   // interleaving lane within the row (jobs sharing the GPU)
    std::uint8_t lanes = 1;  // lanes of the row
    float x0 = 0.f;          // pixels from the left edge of the plot, clamped near the plot
    float x1 = 0.f;
    int job = -1;      // JobRecord::index; -1 for Merged and Busy
    int count = 0;     // segments covered (Segment: 1; Queue: 0)
    int first = -1;    // first covered segment (index into SimResult::segments)
    float busy = 0.f;  // Busy only
    double t0 = 0.0;   // time span covered
    double t1 = 0.0;
};

struct TimelineDrawList {
    std::vector<TimelineItem> items;  // sorted by row, then lane, then x
    long long segments = 0;           // segments in view (sum of item counts of GPU rows)
};

class TimelineLayout {
public:
    // Runs narrower than this many pixels are merged into one block.
    static constexpr double kMergePixels = 3.0;

    void setData(const cl::Cluster& cluster, std::shared_ptr<const cl::SimResult> result);
    void clear();
    bool isEmpty() const { return !m_result; }
    const cl::SimResult* result() const { return m_result.get(); }
    const cl::Cluster& cluster() const { return m_cluster; }

    // Earliest submit and latest end/segment end; [0, 1] without data.
    double runStart() const { return m_runStart; }
    double runEnd() const { return m_runEnd; }

    // Rows. Changing the collapse state rebuilds them and bumps generation().
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    const TimelineRow& row(int r) const { return m_rows.at(static_cast<std::size_t>(r)); }
    int serverCount() const { return static_cast<int>(m_cluster.servers.size()); }
    int serverGpuBegin(int server) const { return m_gpuOffsets.at(static_cast<std::size_t>(server)); }
    int serverGpuEnd(int server) const { return m_gpuOffsets.at(static_cast<std::size_t>(server) + 1); }
    int serverOfGpu(int gpu) const;
    bool isCollapsed(int server) const;
    void setCollapsed(int server, bool collapsed);
    void setAllCollapsed(bool collapsed);
    int firstRowOfServer(int server) const;
    int rowOfGpu(int gpu) const;  // the GPU's row, or its collapsed server's row
    // Server internals (ServerArchitecture::gpuSlots()): the socket and GPU group (numbered
    // across its server) of a global GPU, -1 on a server whose architecture is not described.
    bool hasArchitectures() const { return m_hasArchitectures; }
    int socketOfGpu(int gpu) const;
    int groupOfGpu(int gpu) const;
    // What starts at the top of row r: a new server, a new socket or a new GPU group of the
    // same server, or nothing (the rows continue one group).
    enum class Boundary { None, Group, Socket, Server };
    Boundary boundaryAbove(int row) const;
    // "p00-e00-h0 · S0 · G1 · GPU 2" on a described server, "node3 · GPU 2" otherwise, the
    // server name for a collapsed server; `withServer` = false drops the server name.
    std::string laneLabel(int row, bool withServer = true) const;
    int laneCount(int row) const;  // interleaving lanes (1 for collapsed rows and idle GPUs)
    int maxLaneCount() const { return m_maxLanes; }  // over all GPUs
    // Changes whenever rows or data change, so that cached draw lists can key on it.
    unsigned generation() const { return m_generation; }

    // The draw list of rows [firstRow, lastRow) over the time window [t0, t1] drawn
    // widthPx pixels wide. Queue items are added when withQueueing.
    TimelineDrawList build(double t0, double t1, double widthPx, int firstRow, int lastRow,
                           bool withQueueing) const;
    // The item under x (pixels) at yInRow (0 = top of the row, 1 = bottom) of row, or -1.
    static int itemAt(const TimelineDrawList& list, int row, double yInRow, double x);

    // Per-job queries (job = JobRecord::index).
    int jobCount() const;
    std::vector<int> segmentsOfJob(int job) const;  // indices into SimResult::segments
    std::vector<int> gpusOfJob(int job) const;      // sorted, distinct
    // Wall-time intervals during which the job held GPUs (union over its GPUs, sorted).
    std::vector<std::pair<double, double>> runningIntervals(int job) const;
    // Jobs that shared a GPU with it at some moment (Muri interleaving groups), sorted.
    std::vector<int> partnersOf(int job) const;
    // Jobs sharing segment `segment`'s GPU while that segment runs, sorted.
    std::vector<int> partnersOfSegment(int segment) const;
    // Jobs holding segment `segment`'s GPU at time t (t0 <= t < t1) besides its own job, sorted.
    std::vector<int> partnersAt(int segment, double t) const;
    // Wall time during which the job held GPUs it shared with another job.
    double sharedTime(int job) const;
    // Whether the run recorded CPU/memory allocation changes (Synergy mechanisms).
    bool hasAllocations() const { return !m_jobAlloc.empty(); }
    // The job's CPU/memory allocation in force at t: its latest change at or before t (a
    // bisection of the job's changes, indexed once per run), or nullptr if it has none by then.
    const cl::AllocationChange* allocationAt(int job, double t) const;
    // Whether the run recorded gradient-accumulation changes (SJF-BSBF mechanisms).
    bool hasBatches() const { return !m_jobBatch.empty(); }
    // The job's sub-batch, accumulation steps and sharing slowdown in force at t, as
    // allocationAt; nullptr if it has none by then.
    const cl::BatchChange* batchAt(int job, double t) const;

private:
    struct Lane {
        int begin = 0;  // into m_t0/m_t1/m_seg
        int end = 0;
    };
    struct ServerBusy {
        std::vector<double> t;       // change points of the busy-GPU count
        std::vector<int> busy;       // busy GPUs on [t[i], t[i+1])
        std::vector<double> area;    // integral of busy GPUs from t[0] to t[i]
        std::vector<double> starts;  // segment starts, sorted (to count segments in a span)
        std::vector<double> ends;    // segment ends, sorted
    };
    struct QueueSpan {
        double t0 = 0.0;
        double t1 = 0.0;
        int job = 0;
    };

    // Segment indices grouped by GPU, each GPU's sorted by start: GPU g's are
    // order[begin[g] .. begin[g+1]).
    struct SegmentsByGpu {
        std::vector<int> begin;
        std::vector<int> order;
    };

    // setData's steps, in this order once a result is given.
    void indexArchitectures(const cl::Cluster& cluster);
    void computeRunExtent();
    static SegmentsByGpu sortSegmentsByGpu(const std::vector<cl::GpuSegment>& segs, int gpus);
    void buildLanes(const SegmentsByGpu& byGpu, int gpus);
    void buildServerBusy(const SegmentsByGpu& byGpu);
    void indexSegmentsByJob(int jobs);
    void buildQueues(int jobs, int gpus);

    void rebuildRows();
    void buildGpuRow(const TimelineRow& row, int r, double t0, double t1, double widthPx,
                     TimelineDrawList& out) const;
    void buildServerRow(int server, int r, double t0, double t1, double widthPx, TimelineDrawList& out) const;

    cl::Cluster m_cluster;
    std::shared_ptr<const cl::SimResult> m_result;
    std::vector<int> m_gpuOffsets{0};
    std::vector<int> m_gpuSocket;  // per global GPU, -1 = not described
    std::vector<int> m_gpuGroup;
    bool m_hasArchitectures = false;
    std::vector<char> m_collapsed;
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_serverFirstRow;
    unsigned m_generation = 0;
    double m_runStart = 0.0;
    double m_runEnd = 1.0;
    int m_maxLanes = 1;

    // Segments grouped by GPU, then lane, sorted by start (lanes never overlap in time).
    std::vector<double> m_t0;
    std::vector<double> m_t1;
    std::vector<int> m_seg;
    // Per interval (as m_seg): 1 when it overlaps another on its GPU. Only those are drawn in
    // their lane; the rest of a split row's bars take its full height, so that sharing shows
    // where it happens rather than over the GPU's whole run.
    std::vector<char> m_shared;
    std::vector<Lane> m_lanes;
    std::vector<int> m_gpuLaneBegin{0};  // lanes of GPU g: [m_gpuLaneBegin[g], m_gpuLaneBegin[g+1])
    std::vector<ServerBusy> m_serverBusy;
    std::vector<std::vector<QueueSpan>> m_queues;  // per GPU, sorted by start
    // Segments grouped by job: job j's are m_jobSeg[m_jobSegBegin[j] .. m_jobSegBegin[j+1]).
    std::vector<int> m_jobSegBegin{0};
    std::vector<int> m_jobSeg;
    // Allocation changes grouped by job, each job's sorted by time: indices into
    // SimResult::allocations, job j's at m_jobAlloc[m_jobAllocBegin[j] .. m_jobAllocBegin[j+1]).
    std::vector<int> m_jobAllocBegin{0};
    std::vector<int> m_jobAlloc;
    // Batch changes likewise: indices into SimResult::batches.
    std::vector<int> m_jobBatchBegin{0};
    std::vector<int> m_jobBatch;
};

}  // namespace cl::views
