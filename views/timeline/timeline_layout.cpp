#include "views/timeline/timeline_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace cl::views {

namespace {

// Pixel positions are kept finite and near the plot so that a deep zoom (a segment a billion
// pixels wide) still paints.
float clampPx(double x, double widthPx) {
    return static_cast<float>(std::clamp(x, -4.0, widthPx + 4.0));
}

// lower_bound that looks near `first` before bisecting: consecutive queries of a frame move
// forward by a few elements, so this costs O(log distance) instead of O(log n).
template <class It, class T, class Less>
It gallop(It first, It last, const T& value, Less less) {
    std::ptrdiff_t step = 1;
    It lo = first;
    while (last - lo > step && less(*(lo + step), value)) {
        lo += step;
        step *= 2;
    }
    const It hi = last - lo > step ? lo + step + 1 : last;
    return std::lower_bound(lo, hi, value, less);
}

// Groups a run's per-job changes (each with .job and .t) by job: job j's are
// index[begin[j] .. begin[j+1]), in time order (stable, so of simultaneous changes the run's
// last one comes last and holds).
template <class Change>
void indexByJob(const std::vector<Change>& changes, int jobs, std::vector<int>& begin,
                std::vector<int>& index) {
    begin.assign(static_cast<std::size_t>(jobs) + 1, 0);
    for (const auto& c : changes)
        if (c.job >= 0 && c.job < jobs) ++begin[static_cast<std::size_t>(c.job) + 1];
    std::partial_sum(begin.begin(), begin.end(), begin.begin());
    index.resize(static_cast<std::size_t>(begin.back()));
    std::vector<int> fill(begin.begin(), begin.end() - 1);
    for (int i = 0; i < static_cast<int>(changes.size()); ++i) {
        const int j = changes[static_cast<std::size_t>(i)].job;
        if (j >= 0 && j < jobs) index[static_cast<std::size_t>(fill[static_cast<std::size_t>(j)]++)] = i;
    }
    for (int j = 0; j < jobs; ++j)
        std::stable_sort(index.begin() + begin[static_cast<std::size_t>(j)],
                         index.begin() + begin[static_cast<std::size_t>(j) + 1], [&](int a, int b) {
                             return changes[static_cast<std::size_t>(a)].t <
                                    changes[static_cast<std::size_t>(b)].t;
                         });
}

// The job's last change at or before t, or nullptr.
template <class Change>
const Change* changeAt(const std::vector<Change>& changes, const std::vector<int>& begin,
                       const std::vector<int>& index, int job, double t) {
    if (index.empty() || static_cast<std::size_t>(job) + 1 >= begin.size()) return nullptr;
    const auto first = index.begin() + begin[static_cast<std::size_t>(job)];
    const auto last = index.begin() + begin[static_cast<std::size_t>(job) + 1];
    const auto after = std::upper_bound(
        first, last, t, [&](double time, int c) { return time < changes[static_cast<std::size_t>(c)].t; });
    return after == first ? nullptr : &changes[static_cast<std::size_t>(*(after - 1))];
}

const auto kLess = [](double a, double b) { return a < b; };
const auto kLessEq = [](double a, double b) { return a <= b; };

using SegmentIndexIt = std::vector<int>::const_iterator;

// Greedy lanes of one GPU's segments [first, last), sorted by start: each segment goes to the
// first lane that is free by its start, so that within a lane intervals never overlap and their
// ends are sorted too. laneOf[k]: the lane of segment first[k]; laneEnd.size(): the lanes used.
void assignLanes(const std::vector<cl::GpuSegment>& segs, SegmentIndexIt first, SegmentIndexIt last,
                 std::vector<double>& laneEnd, std::vector<int>& laneOf) {
    laneEnd.clear();
    laneOf.assign(static_cast<std::size_t>(last - first), 0);
    for (auto it = first; it != last; ++it) {
        const auto& s = segs[static_cast<std::size_t>(*it)];
        std::size_t lane = 0;
        while (lane < laneEnd.size() && laneEnd[lane] > s.t0) ++lane;
        if (lane == laneEnd.size())
            laneEnd.push_back(s.t1);
        else
            laneEnd[lane] = s.t1;
        laneOf[static_cast<std::size_t>(it - first)] = static_cast<int>(lane);
    }
}

// sharedOf[k] = 1 when segment first[k] overlaps another of the same GPU. Sorted by start: an
// interval overlaps an earlier one when it starts before the latest end so far, and a later one
// exactly when the next one starts before its end.
void markShared(const std::vector<cl::GpuSegment>& segs, SegmentIndexIt first, SegmentIndexIt last,
                std::vector<char>& sharedOf) {
    sharedOf.assign(static_cast<std::size_t>(last - first), 0);
    double latestEnd = -std::numeric_limits<double>::infinity();
    for (auto it = first; it != last; ++it) {
        const auto k = static_cast<std::size_t>(it - first);
        const auto& s = segs[static_cast<std::size_t>(*it)];
        if (s.t0 < latestEnd) sharedOf[k] = 1;
        if (it + 1 != last && segs[static_cast<std::size_t>(*(it + 1))].t0 < s.t1) sharedOf[k] = 1;
        latestEnd = std::max(latestEnd, s.t1);
    }
}

}  // namespace

void TimelineLayout::clear() {
    *this = TimelineLayout{};
}

void TimelineLayout::setData(const cl::Cluster& cluster, std::shared_ptr<const cl::SimResult> result) {
    const unsigned generation = m_generation;
    clear();
    m_generation = generation + 1;
    m_cluster = cluster;
    m_gpuOffsets = cluster.gpuOffsets();
    m_collapsed.assign(cluster.servers.size(), 0);
    indexArchitectures(cluster);
    m_result = std::move(result);
    const int gpus = cluster.totalGpus();
    m_serverBusy.resize(cluster.servers.size());
    m_queues.resize(static_cast<std::size_t>(gpus));
    m_gpuLaneBegin.assign(static_cast<std::size_t>(gpus) + 1, 0);
    if (!m_result) {
        rebuildRows();
        return;
    }

    computeRunExtent();
    const SegmentsByGpu byGpu = sortSegmentsByGpu(m_result->segments, gpus);
    buildLanes(byGpu, gpus);
    buildServerBusy(byGpu);

    const int jobs = static_cast<int>(m_result->jobs.size());
    indexSegmentsByJob(jobs);
    // Allocation and batch changes by job, each job's in time order (stable: simultaneous
    // changes keep the run's order, the last one holding), so that a tooltip bisects one job's list.
    indexByJob(m_result->allocations, jobs, m_jobAllocBegin, m_jobAlloc);
    indexByJob(m_result->batches, jobs, m_jobBatchBegin, m_jobBatch);
    buildQueues(jobs, gpus);

    rebuildRows();
}

// Slots only for a described architecture that agrees with the server's GPU count.
void TimelineLayout::indexArchitectures(const cl::Cluster& cluster) {
    m_gpuSocket.assign(static_cast<std::size_t>(cluster.totalGpus()), -1);
    m_gpuGroup.assign(m_gpuSocket.size(), -1);
    for (std::size_t sv = 0; sv < cluster.servers.size(); ++sv) {
        const cl::ServerArchitecture& arch = cluster.servers[sv].architecture;
        if (!arch.described()) continue;
        const std::vector<cl::ServerArchitecture::GpuSlot> slots = arch.gpuSlots();
        if (static_cast<int>(slots.size()) != cluster.servers[sv].gpus) continue;
        m_hasArchitectures = true;
        for (std::size_t k = 0; k < slots.size(); ++k) {
            const auto g = static_cast<std::size_t>(m_gpuOffsets[sv]) + k;
            m_gpuSocket[g] = slots[k].socket;
            m_gpuGroup[g] = slots[k].group;
        }
    }
}

// Run extent.
void TimelineLayout::computeRunExtent() {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const auto& j : m_result->jobs) {
        lo = std::min(lo, j.submit);
        if (std::isfinite(j.end)) hi = std::max(hi, j.end);
    }
    for (const auto& s : m_result->segments) {
        lo = std::min(lo, s.t0);
        hi = std::max(hi, s.t1);
    }
    if (!std::isfinite(lo)) lo = 0.0;
    if (!std::isfinite(hi) || hi <= lo) hi = lo + 1.0;
    m_runStart = lo;
    m_runEnd = hi;
}

// Counting sort by GPU, then by start within each GPU.
TimelineLayout::SegmentsByGpu TimelineLayout::sortSegmentsByGpu(const std::vector<cl::GpuSegment>& segs,
                                                                int gpus) {
    const int n = static_cast<int>(segs.size());
    SegmentsByGpu out;
    std::vector<int>& byGpuBegin = out.begin;
    std::vector<int>& byGpu = out.order;
    byGpuBegin.assign(static_cast<std::size_t>(gpus) + 1, 0);
    for (const auto& s : segs)
        if (s.gpu >= 0 && s.gpu < gpus) ++byGpuBegin[static_cast<std::size_t>(s.gpu) + 1];
    std::partial_sum(byGpuBegin.begin(), byGpuBegin.end(), byGpuBegin.begin());
    byGpu.resize(static_cast<std::size_t>(byGpuBegin.back()));
    {
        std::vector<int> fill(byGpuBegin.begin(), byGpuBegin.end() - 1);
        for (int i = 0; i < n; ++i) {
            const int g = segs[static_cast<std::size_t>(i)].gpu;
            if (g >= 0 && g < gpus) byGpu[static_cast<std::size_t>(fill[static_cast<std::size_t>(g)]++)] = i;
        }
    }
    for (int g = 0; g < gpus; ++g) {
        auto first = byGpu.begin() + byGpuBegin[static_cast<std::size_t>(g)];
        auto last = byGpu.begin() + byGpuBegin[static_cast<std::size_t>(g) + 1];
        std::sort(first, last, [&](int a, int b) {
            const auto& sa = segs[static_cast<std::size_t>(a)];
            const auto& sb = segs[static_cast<std::size_t>(b)];
            return sa.t0 != sb.t0 ? sa.t0 < sb.t0 : sa.job < sb.job;
        });
    }
    return out;
}

void TimelineLayout::buildLanes(const SegmentsByGpu& byGpu, int gpus) {
    const auto& segs = m_result->segments;
    m_t0.reserve(byGpu.order.size());
    m_t1.reserve(byGpu.order.size());
    m_seg.reserve(byGpu.order.size());
    m_shared.reserve(byGpu.order.size());
    std::vector<int> laneOf;
    std::vector<char> sharedOf;
    std::vector<double> laneEnd;
    for (int g = 0; g < gpus; ++g) {
        auto first = byGpu.order.begin() + byGpu.begin[static_cast<std::size_t>(g)];
        auto last = byGpu.order.begin() + byGpu.begin[static_cast<std::size_t>(g) + 1];
        assignLanes(segs, first, last, laneEnd, laneOf);
        markShared(segs, first, last, sharedOf);
        const std::size_t lanes = std::max<std::size_t>(laneEnd.size(), 1);
        m_maxLanes = std::max(m_maxLanes, static_cast<int>(lanes));
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            Lane l;
            l.begin = static_cast<int>(m_seg.size());
            for (auto it = first; it != last; ++it) {
                if (laneOf[static_cast<std::size_t>(it - first)] != static_cast<int>(lane)) continue;
                const auto& s = segs[static_cast<std::size_t>(*it)];
                m_t0.push_back(s.t0);
                m_t1.push_back(s.t1);
                m_seg.push_back(*it);
                m_shared.push_back(sharedOf[static_cast<std::size_t>(it - first)]);
            }
            l.end = static_cast<int>(m_seg.size());
            m_lanes.push_back(l);
        }
        m_gpuLaneBegin[static_cast<std::size_t>(g) + 1] = static_cast<int>(m_lanes.size());
    }
}

// Collapsed servers: a step function of busy GPUs (a GPU shared by two jobs counts once).
void TimelineLayout::buildServerBusy(const SegmentsByGpu& byGpu) {
    const auto& segs = m_result->segments;
    for (std::size_t sv = 0; sv < m_cluster.servers.size(); ++sv) {
        ServerBusy& b = m_serverBusy[sv];
        std::vector<std::pair<double, int>> events;
        for (int g = m_gpuOffsets[sv]; g < m_gpuOffsets[sv + 1]; ++g) {
            auto first = byGpu.order.begin() + byGpu.begin[static_cast<std::size_t>(g)];
            auto last = byGpu.order.begin() + byGpu.begin[static_cast<std::size_t>(g) + 1];
            double u0 = 0.0, u1 = 0.0;
            bool open = false;
            for (auto it = first; it != last; ++it) {
                const auto& s = segs[static_cast<std::size_t>(*it)];
                b.starts.push_back(s.t0);
                b.ends.push_back(s.t1);
                if (open && s.t0 <= u1) {
                    u1 = std::max(u1, s.t1);
                    continue;
                }
                if (open) {
                    events.emplace_back(u0, +1);
                    events.emplace_back(u1, -1);
                }
                u0 = s.t0;
                u1 = s.t1;
                open = true;
            }
            if (open) {
                events.emplace_back(u0, +1);
                events.emplace_back(u1, -1);
            }
        }
        std::sort(b.starts.begin(), b.starts.end());
        std::sort(b.ends.begin(), b.ends.end());
        std::sort(events.begin(), events.end());
        int busy = 0;
        double area = 0.0;
        for (std::size_t i = 0; i < events.size();) {
            const double t = events[i].first;
            if (!b.t.empty()) area += static_cast<double>(b.busy.back()) * (t - b.t.back());
            while (i < events.size() && events[i].first == t) busy += events[i++].second;
            b.t.push_back(t);
            b.busy.push_back(busy);
            b.area.push_back(area);
        }
    }
}

// Segments by job, in start order.
void TimelineLayout::indexSegmentsByJob(int jobs) {
    const auto& segs = m_result->segments;
    const int n = static_cast<int>(segs.size());
    m_jobSegBegin.assign(static_cast<std::size_t>(jobs) + 1, 0);
    for (const auto& s : segs)
        if (s.job >= 0 && s.job < jobs) ++m_jobSegBegin[static_cast<std::size_t>(s.job) + 1];
    std::partial_sum(m_jobSegBegin.begin(), m_jobSegBegin.end(), m_jobSegBegin.begin());
    m_jobSeg.resize(static_cast<std::size_t>(m_jobSegBegin.back()));
    {
        std::vector<int> fill(m_jobSegBegin.begin(), m_jobSegBegin.end() - 1);
        for (int i = 0; i < n; ++i) {
            const int j = segs[static_cast<std::size_t>(i)].job;
            if (j >= 0 && j < jobs)
                m_jobSeg[static_cast<std::size_t>(fill[static_cast<std::size_t>(j)]++)] = i;
        }
    }
}

// Queueing: submit -> first start, on the GPUs where the job first ran.
void TimelineLayout::buildQueues(int jobs, int gpus) {
    const auto& segs = m_result->segments;
    for (int j = 0; j < jobs; ++j) {
        const auto& rec = m_result->jobs[static_cast<std::size_t>(j)];
        if (!std::isfinite(rec.first_start) || !(rec.first_start > rec.submit)) continue;
        for (int k = m_jobSegBegin[static_cast<std::size_t>(j)];
             k < m_jobSegBegin[static_cast<std::size_t>(j) + 1]; ++k) {
            const auto& s = segs[static_cast<std::size_t>(m_jobSeg[static_cast<std::size_t>(k)])];
            if (s.t0 == rec.first_start && s.gpu >= 0 && s.gpu < gpus)
                m_queues[static_cast<std::size_t>(s.gpu)].push_back({rec.submit, rec.first_start, j});
        }
    }
    for (auto& q : m_queues)
        std::sort(q.begin(), q.end(), [](const QueueSpan& a, const QueueSpan& b) { return a.t0 < b.t0; });
}

void TimelineLayout::rebuildRows() {
    m_rows.clear();
    m_serverFirstRow.assign(m_cluster.servers.size(), 0);
    for (std::size_t sv = 0; sv < m_cluster.servers.size(); ++sv) {
        m_serverFirstRow[sv] = static_cast<int>(m_rows.size());
        if (m_collapsed[sv] || m_gpuOffsets[sv] == m_gpuOffsets[sv + 1]) {
            m_rows.push_back({static_cast<int>(sv), -1});
            continue;
        }
        for (int g = m_gpuOffsets[sv]; g < m_gpuOffsets[sv + 1]; ++g)
            m_rows.push_back({static_cast<int>(sv), g});
    }
    ++m_generation;
}

int TimelineLayout::serverOfGpu(int gpu) const {
    auto it = std::upper_bound(m_gpuOffsets.begin(), m_gpuOffsets.end(), gpu);
    return static_cast<int>(it - m_gpuOffsets.begin()) - 1;
}

bool TimelineLayout::isCollapsed(int server) const {
    return server >= 0 && server < serverCount() && m_collapsed[static_cast<std::size_t>(server)];
}

void TimelineLayout::setCollapsed(int server, bool collapsed) {
    if (server < 0 || server >= serverCount() || isCollapsed(server) == collapsed) return;
    m_collapsed[static_cast<std::size_t>(server)] = collapsed ? 1 : 0;
    rebuildRows();
}

void TimelineLayout::setAllCollapsed(bool collapsed) {
    std::fill(m_collapsed.begin(), m_collapsed.end(), collapsed ? 1 : 0);
    rebuildRows();
}

int TimelineLayout::firstRowOfServer(int server) const {
    if (server < 0 || server >= serverCount()) return -1;
    return m_serverFirstRow[static_cast<std::size_t>(server)];
}

int TimelineLayout::rowOfGpu(int gpu) const {
    const int server = serverOfGpu(gpu);
    if (server < 0 || server >= serverCount()) return -1;
    const int first = firstRowOfServer(server);
    return isCollapsed(server) ? first : first + (gpu - serverGpuBegin(server));
}

int TimelineLayout::socketOfGpu(int gpu) const {
    return gpu >= 0 && gpu < static_cast<int>(m_gpuSocket.size()) ? m_gpuSocket[static_cast<std::size_t>(gpu)]
                                                                  : -1;
}

int TimelineLayout::groupOfGpu(int gpu) const {
    return gpu >= 0 && gpu < static_cast<int>(m_gpuGroup.size()) ? m_gpuGroup[static_cast<std::size_t>(gpu)]
                                                                 : -1;
}

TimelineLayout::Boundary TimelineLayout::boundaryAbove(int r) const {
    if (r <= 0 || r >= rowCount()) return r == 0 ? Boundary::Server : Boundary::None;
    const TimelineRow& above = row(r - 1);
    const TimelineRow& here = row(r);
    if (above.server != here.server) return Boundary::Server;
    if (here.gpu < 0 || above.gpu < 0) return Boundary::None;
    if (socketOfGpu(here.gpu) != socketOfGpu(above.gpu)) return Boundary::Socket;
    if (groupOfGpu(here.gpu) != groupOfGpu(above.gpu)) return Boundary::Group;
    return Boundary::None;
}

std::string TimelineLayout::laneLabel(int r, bool withServer) const {
    const TimelineRow& rw = row(r);
    const std::string& name = m_cluster.servers[static_cast<std::size_t>(rw.server)].name;
    if (rw.gpu < 0) return name;
    std::string out = withServer ? name + " \u00b7 " : std::string();
    if (socketOfGpu(rw.gpu) >= 0)
        out += "S" + std::to_string(socketOfGpu(rw.gpu)) + " \u00b7 G" + std::to_string(groupOfGpu(rw.gpu)) +
               " \u00b7 ";
    return out + "GPU " + std::to_string(rw.gpu - serverGpuBegin(rw.server));
}

int TimelineLayout::laneCount(int r) const {
    const TimelineRow& rw = row(r);
    if (rw.gpu < 0 || m_gpuLaneBegin.size() <= static_cast<std::size_t>(rw.gpu) + 1) return 1;
    return std::max(1, m_gpuLaneBegin[static_cast<std::size_t>(rw.gpu) + 1] -
                           m_gpuLaneBegin[static_cast<std::size_t>(rw.gpu)]);
}

TimelineDrawList TimelineLayout::build(double t0, double t1, double widthPx, int firstRow, int lastRow,
                                       bool withQueueing) const {
    TimelineDrawList out;
    if (!m_result || !(t1 > t0) || !(widthPx > 0)) return out;
    firstRow = std::max(firstRow, 0);
    lastRow = std::min(lastRow, rowCount());
    for (int r = firstRow; r < lastRow; ++r) {
        const TimelineRow& rw = m_rows[static_cast<std::size_t>(r)];
        if (rw.gpu < 0) {
            buildServerRow(rw.server, r, t0, t1, widthPx, out);
            continue;
        }
        buildGpuRow(rw, r, t0, t1, widthPx, out);
        if (!withQueueing) continue;
        const double scale = widthPx / (t1 - t0);
        for (const QueueSpan& q : m_queues[static_cast<std::size_t>(rw.gpu)]) {
            if (q.t0 >= t1) break;
            if (q.t1 <= t0) continue;
            TimelineItem it;
            it.row = r;
            it.kind = TimelineItem::Queue;
            it.x0 = clampPx((q.t0 - t0) * scale, widthPx);
            it.x1 = clampPx((q.t1 - t0) * scale, widthPx);
            it.job = q.job;
            it.t0 = q.t0;
            it.t1 = q.t1;
            out.items.push_back(it);
        }
    }
    return out;
}

void TimelineLayout::buildGpuRow(const TimelineRow& rw, int r, double t0, double t1, double widthPx,
                                 TimelineDrawList& out) const {
    const double scale = widthPx / (t1 - t0);
    const double mergeTime = kMergePixels / scale;
    const auto& segs = m_result->segments;
    const int laneBegin = m_gpuLaneBegin[static_cast<std::size_t>(rw.gpu)];
    const int laneEnd = m_gpuLaneBegin[static_cast<std::size_t>(rw.gpu) + 1];
    const auto lanes = static_cast<std::uint8_t>(std::clamp(laneEnd - laneBegin, 1, 255));
    for (int l = laneBegin; l < laneEnd; ++l) {
        const Lane& lane = m_lanes[static_cast<std::size_t>(l)];
        const double* s0 = m_t0.data();
        const double* s1 = m_t1.data();
        // First interval ending after t0 (ends are sorted within a lane) and first starting at
        // or after t1: the visible ones lie in between.
        int i = static_cast<int>(std::upper_bound(s1 + lane.begin, s1 + lane.end, t0) - s1);
        const int end = static_cast<int>(std::lower_bound(s0 + i, s0 + lane.end, t1) - s0);
        while (i < end) {
            const int firstIndex = i;
            TimelineItem it;
            it.row = r;
            it.lane = static_cast<std::uint8_t>(l - laneBegin);
            it.lanes = lanes;
            it.first = m_seg[static_cast<std::size_t>(i)];
            it.t0 = s0[i];
            if ((s1[i] - s0[i]) >= mergeTime) {
                it.kind = TimelineItem::Segment;
                it.job = segs[static_cast<std::size_t>(it.first)].job;
                it.count = 1;
                it.t1 = s1[i];
            } else {
                // A run of narrow intervals: swallow everything that ends within mergeTime of
                // the run's end (binary search), then the next interval if it is narrow and
                // starts close; stop at a gap or a wide interval.
                const int start = i;
                for (;;) {
                    const double limit = s1[i] + mergeTime;
                    const int j = static_cast<int>(gallop(s1 + i + 1, s1 + end, limit, kLess) - s1);
                    if (j > i + 1) {
                        i = j - 1;
                        continue;
                    }
                    if (j < end && s0[j] - s1[i] < mergeTime && s1[j] - s0[j] < mergeTime) {
                        i = j;
                        continue;
                    }
                    break;
                }
                it.count = i - start + 1;
                it.t1 = s1[i];
                if (it.count == 1) {
                    it.kind = TimelineItem::Segment;
                    it.job = segs[static_cast<std::size_t>(it.first)].job;
                } else {
                    it.kind = TimelineItem::Merged;
                    it.job = -1;
                }
            }
            // Alone on the GPU (every interval of a merged run): the full row, not its lane.
            if (lanes > 1 && std::none_of(m_shared.begin() + firstIndex, m_shared.begin() + i + 1,
                                          [](char c) { return c != 0; })) {
                it.lane = 0;
                it.lanes = 1;
            }
            it.x0 = clampPx((it.t0 - t0) * scale, widthPx);
            it.x1 = clampPx((it.t1 - t0) * scale, widthPx);
            out.segments += it.count;
            out.items.push_back(it);
            ++i;
        }
    }
}

void TimelineLayout::buildServerRow(int server, int r, double t0, double t1, double widthPx,
                                    TimelineDrawList& out) const {
    const ServerBusy& b = m_serverBusy[static_cast<std::size_t>(server)];
    const int gpus = serverGpuEnd(server) - serverGpuBegin(server);
    if (b.t.empty() || gpus <= 0) return;
    const double scale = widthPx / (t1 - t0);
    const double mergeTime = kMergePixels / scale;
    const std::size_t n = b.t.size();
    // Area under the busy count at t, given the step k that contains t: O(1).
    const auto areaAt = [&](std::size_t k, double t) { return b.area[k] + b.busy[k] * (t - b.t[k]); };
    // Segments overlapping [a, c) = started before c - ended by a; both ends only move forward.
    auto started = b.starts.begin();
    auto ended = b.ends.begin();
    std::size_t k = static_cast<std::size_t>(std::upper_bound(b.t.begin(), b.t.end(), t0) - b.t.begin());
    if (k > 0) --k;
    while (k + 1 < n && b.t[k] < t1) {
        const double a = std::max(b.t[k], t0);
        std::size_t next = k + 1;
        if (std::min(b.t[next], t1) - a < mergeTime) {
            // Merge whole steps until the block is at least mergeTime wide.
            next = static_cast<std::size_t>(
                gallop(b.t.begin() + static_cast<std::ptrdiff_t>(k) + 1, b.t.end(), a + mergeTime, kLess) -
                b.t.begin());
            next = std::min(next, n - 1);
        }
        const double c = std::min(b.t[next], t1);
        // a lies in step k; c in step next-1 unless the window ends earlier.
        std::size_t ck = next - 1;
        while (ck > k && b.t[ck] > c) --ck;
        const double area = areaAt(ck, c) - areaAt(k, a);
        if (area > 0.0 && c > a) {
            started = gallop(started, b.starts.end(), c, kLess);
            ended = gallop(ended, b.ends.end(), a, kLessEq);
            TimelineItem it;
            it.row = r;
            it.kind = TimelineItem::Busy;
            it.t0 = a;
            it.t1 = c;
            it.x0 = clampPx((a - t0) * scale, widthPx);
            it.x1 = clampPx((c - t0) * scale, widthPx);
            it.busy = static_cast<float>(area / (c - a) / gpus);
            it.count = static_cast<int>((started - b.starts.begin()) - (ended - b.ends.begin()));
            out.items.push_back(it);
        }
        k = next;
    }
}

int TimelineLayout::itemAt(const TimelineDrawList& list, int row, double yInRow, double x) {
    auto it = std::lower_bound(list.items.begin(), list.items.end(), row,
                               [](const TimelineItem& item, int r) { return item.row < r; });
    int queueHit = -1;
    for (; it != list.items.end() && it->row == row; ++it) {
        const double x1 = std::max<double>(it->x1, it->x0 + 1.0);
        if (x < it->x0 || x >= x1) continue;
        if (it->kind == TimelineItem::Queue) {
            if (queueHit < 0) queueHit = static_cast<int>(it - list.items.begin());
            continue;
        }
        if (it->kind != TimelineItem::Busy) {
            const int lane = std::clamp(static_cast<int>(std::floor(yInRow * it->lanes)), 0, it->lanes - 1);
            if (lane != it->lane) continue;
        }
        return static_cast<int>(it - list.items.begin());
    }
    return queueHit;
}

int TimelineLayout::jobCount() const {
    return m_result ? static_cast<int>(m_result->jobs.size()) : 0;
}

std::vector<int> TimelineLayout::segmentsOfJob(int job) const {
    if (job < 0 || job >= jobCount()) return {};
    return {m_jobSeg.begin() + m_jobSegBegin[static_cast<std::size_t>(job)],
            m_jobSeg.begin() + m_jobSegBegin[static_cast<std::size_t>(job) + 1]};
}

const cl::AllocationChange* TimelineLayout::allocationAt(int job, double t) const {
    if (job < 0 || job >= jobCount() || std::isnan(t)) return nullptr;
    return changeAt(m_result->allocations, m_jobAllocBegin, m_jobAlloc, job, t);
}

const cl::BatchChange* TimelineLayout::batchAt(int job, double t) const {
    if (job < 0 || job >= jobCount() || std::isnan(t)) return nullptr;
    return changeAt(m_result->batches, m_jobBatchBegin, m_jobBatch, job, t);
}

std::vector<int> TimelineLayout::gpusOfJob(int job) const {
    std::vector<int> gpus;
    for (int s : segmentsOfJob(job)) gpus.push_back(m_result->segments[static_cast<std::size_t>(s)].gpu);
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    return gpus;
}

std::vector<std::pair<double, double>> TimelineLayout::runningIntervals(int job) const {
    std::vector<std::pair<double, double>> spans;
    for (int s : segmentsOfJob(job)) {
        const auto& seg = m_result->segments[static_cast<std::size_t>(s)];
        spans.emplace_back(seg.t0, seg.t1);
    }
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& s : spans) {
        if (!merged.empty() && s.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, s.second);
        else
            merged.push_back(s);
    }
    return merged;
}

std::vector<int> TimelineLayout::partnersOfSegment(int segment) const {
    std::vector<int> partners;
    if (!m_result || segment < 0 || segment >= static_cast<int>(m_result->segments.size())) return partners;
    const auto& seg = m_result->segments[static_cast<std::size_t>(segment)];
    if (seg.gpu < 0 || seg.gpu + 1 >= static_cast<int>(m_gpuLaneBegin.size())) return partners;
    for (int l = m_gpuLaneBegin[static_cast<std::size_t>(seg.gpu)];
         l < m_gpuLaneBegin[static_cast<std::size_t>(seg.gpu) + 1]; ++l) {
        const Lane& lane = m_lanes[static_cast<std::size_t>(l)];
        int i = static_cast<int>(
            std::upper_bound(m_t1.begin() + lane.begin, m_t1.begin() + lane.end, seg.t0) - m_t1.begin());
        for (; i < lane.end && m_t0[static_cast<std::size_t>(i)] < seg.t1; ++i) {
            const int other =
                m_result->segments[static_cast<std::size_t>(m_seg[static_cast<std::size_t>(i)])].job;
            if (other != seg.job) partners.push_back(other);
        }
    }
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    return partners;
}

std::vector<int> TimelineLayout::partnersAt(int segment, double t) const {
    std::vector<int> partners;
    if (!m_result || segment < 0 || segment >= static_cast<int>(m_result->segments.size()) || std::isnan(t))
        return partners;
    const auto& seg = m_result->segments[static_cast<std::size_t>(segment)];
    if (seg.gpu < 0 || seg.gpu + 1 >= static_cast<int>(m_gpuLaneBegin.size())) return partners;
    for (int l = m_gpuLaneBegin[static_cast<std::size_t>(seg.gpu)];
         l < m_gpuLaneBegin[static_cast<std::size_t>(seg.gpu) + 1]; ++l) {
        const Lane& lane = m_lanes[static_cast<std::size_t>(l)];
        // Within a lane intervals are disjoint and sorted: the only one that may hold t is the
        // first ending after it.
        const auto i = static_cast<std::size_t>(
            std::upper_bound(m_t1.begin() + lane.begin, m_t1.begin() + lane.end, t) - m_t1.begin());
        if (i >= static_cast<std::size_t>(lane.end) || m_t0[i] > t) continue;
        const int other = m_result->segments[static_cast<std::size_t>(m_seg[i])].job;
        if (other != seg.job) partners.push_back(other);
    }
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    return partners;
}

std::vector<int> TimelineLayout::partnersOf(int job) const {
    std::vector<int> partners;
    for (int s : segmentsOfJob(job)) {
        const auto p = partnersOfSegment(s);
        partners.insert(partners.end(), p.begin(), p.end());
    }
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    return partners;
}

double TimelineLayout::sharedTime(int job) const {
    // Overlap of the job's segments with other jobs' segments on the same GPU, unioned over
    // time (a gang job shares all its GPUs at once, so take the union over its GPUs).
    std::vector<std::pair<double, double>> shared;
    for (int s : segmentsOfJob(job)) {
        const auto& seg = m_result->segments[static_cast<std::size_t>(s)];
        for (int l = m_gpuLaneBegin[static_cast<std::size_t>(seg.gpu)];
             l < m_gpuLaneBegin[static_cast<std::size_t>(seg.gpu) + 1]; ++l) {
            const Lane& lane = m_lanes[static_cast<std::size_t>(l)];
            int i = static_cast<int>(
                std::upper_bound(m_t1.begin() + lane.begin, m_t1.begin() + lane.end, seg.t0) - m_t1.begin());
            for (; i < lane.end && m_t0[static_cast<std::size_t>(i)] < seg.t1; ++i) {
                if (m_result->segments[static_cast<std::size_t>(m_seg[static_cast<std::size_t>(i)])].job ==
                    job)
                    continue;
                const double a = std::max(seg.t0, m_t0[static_cast<std::size_t>(i)]);
                const double b = std::min(seg.t1, m_t1[static_cast<std::size_t>(i)]);
                if (b > a) shared.emplace_back(a, b);
            }
        }
    }
    std::sort(shared.begin(), shared.end());
    double total = 0.0, u0 = 0.0, u1 = 0.0;
    bool open = false;
    for (const auto& s : shared) {
        if (open && s.first <= u1) {
            u1 = std::max(u1, s.second);
            continue;
        }
        if (open) total += u1 - u0;
        u0 = s.first;
        u1 = s.second;
        open = true;
    }
    if (open) total += u1 - u0;
    return total;
}

}  // namespace cl::views
