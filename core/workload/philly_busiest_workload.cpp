#include "core/workload/philly_busiest_workload.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "core/io/csv_table.h"
#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"
#include "core/model/accumulation_speed.h"
#include "core/util/portable_random.h"

namespace cl {

namespace {

constexpr double kHour = 3600.0;
// Pollux's workload generator's filters and model bins, in GPU-seconds / seconds.
constexpr double kMinDuration = 60.0;
constexpr double kMaxGpuTime = 1000.0 * kHour;

bool earlier(const PhillyJobRow& a, const PhillyJobRow& b) {
    return a.submit != b.submit ? a.submit < b.submit : a.row < b.row;
}

std::string polluxModel(double gpu_time, PortableRng& rng) {
    if (gpu_time < 1 * kHour) return rng.below(2) == 0 ? "cifar10" : "ncf";
    if (gpu_time < 10 * kHour) return rng.below(2) == 0 ? "deepspeech2" : "bert";
    if (gpu_time < 100 * kHour) return "yolov3";
    return "imagenet";
}

int defaultBatch(const ProfileSet* profiles, const std::string& model, int gpus) {
    if (!profiles) return 0;
    const ModelProfile* m = profiles->find(model);
    if (!m) return 0;
    const auto acc = accumulationProfileOf(*m);
    return acc ? acc->default_batch * gpus : 0;
}

}  // namespace

std::vector<PhillyJobRow> readPhillyJobRows(const std::string& path) {
    CsvTable t = CsvTable::readFile(path);
    const int c_time = t.requireColumn("timestamp");
    const int c_duration = t.requireColumn("duration");
    const int c_gpus = t.requireColumn("num_gpus");
    const int c_gpu_time = t.requireColumn("gpu_time");
    const int c_cluster = t.requireColumn("cluster");
    std::vector<PhillyJobRow> rows;
    rows.reserve(t.rows().size());
    for (std::size_t k = 0; k < t.rows().size(); ++k) {
        const CsvRow& row = t.rows()[k];
        t.requireRowWidth(row);
        PhillyJobRow r;
        const std::string stamp = t.text(row, c_time, false);
        const auto when = io::parseDateTime(stamp);
        if (!when)
            throw ParseError(t.file(), row.line, t.fieldName(c_time),
                             "expected a time 'YYYY-MM-DD HH:MM:SS', found '" + stamp + "'");
        r.submit = *when;
        r.duration = t.nonNegative(row, c_duration);
        r.gpus = io::jobGpus(t, row, c_gpus);
        r.gpu_time = t.nonNegative(row, c_gpu_time);
        r.cluster = t.text(row, c_cluster);
        r.row = static_cast<int>(k);
        rows.push_back(std::move(r));
    }
    return rows;
}

bool passesPolluxFilter(const PhillyJobRow& row) {
    return row.duration >= kMinDuration && row.gpu_time < kMaxGpuTime;
}

PhillyWindow findBusiestWindow(const std::vector<PhillyJobRow>& rows, int window_hours) {
    if (window_hours < 1)
        throw std::invalid_argument("window_hours must be at least 1, got " + std::to_string(window_hours));
    double first = 0, last = 0;
    bool any = false;
    for (const PhillyJobRow& r : rows) {
        if (!passesPolluxFilter(r)) continue;
        first = any ? std::min(first, r.submit) : r.submit;
        last = any ? std::max(last, r.submit) : r.submit;
        any = true;
    }
    if (!any) throw std::invalid_argument("no Philly job lasts at least 60 s with under 1000 GPU-hours");
    const long long first_hour = static_cast<long long>(std::floor(first / kHour));
    const long long last_hour = static_cast<long long>(std::floor(last / kHour));
    std::vector<int> per_hour(static_cast<std::size_t>(last_hour - first_hour + 1), 0);
    for (const PhillyJobRow& r : rows)
        if (passesPolluxFilter(r))
            ++per_hour[static_cast<std::size_t>(static_cast<long long>(std::floor(r.submit / kHour)) -
                                                first_hour)];

    // Sliding sum over windows starting at first_hour + s; strictly greater keeps the earliest.
    const std::size_t n = per_hour.size();
    const std::size_t w = static_cast<std::size_t>(window_hours);
    int sum = 0;
    for (std::size_t k = 0; k < std::min(w, n); ++k) sum += per_hour[k];
    int best = sum;
    std::size_t best_start = 0;
    for (std::size_t s = 1; s < n; ++s) {
        sum -= per_hour[s - 1];
        if (s + w - 1 < n) sum += per_hour[s + w - 1];
        if (sum > best) {
            best = sum;
            best_start = s;
        }
    }
    PhillyWindow win;
    win.start = static_cast<double>(first_hour + static_cast<long long>(best_start)) * kHour;
    win.hours = window_hours;
    win.jobs = best;
    win.eligible = best;
    return win;
}

namespace {
// Seconds from the most recent `first_hour`:00 of the day to the submission.
double secondsIntoHoursOfDay(double submit, int first_hour) {
    const double day = 24 * kHour;
    double into_day = std::fmod(submit, day);
    if (into_day < 0) into_day += day;
    double offset = into_day - first_hour * kHour;
    if (offset < 0) offset += day;
    return offset;
}
}  // namespace

PhillyWindow findBusiestHoursOfDay(const std::vector<PhillyJobRow>& rows, int window_hours) {
    if (window_hours < 1 || window_hours > 24)
        throw std::invalid_argument("window_hours must be 1..24 for hours of the day, got " +
                                    std::to_string(window_hours));
    int per_hour[24] = {};
    bool any = false;
    for (const PhillyJobRow& r : rows)
        if (passesPolluxFilter(r)) {
            ++per_hour[static_cast<int>(secondsIntoHoursOfDay(r.submit, 0) / kHour) % 24];
            any = true;
        }
    if (!any) throw std::invalid_argument("no Philly job lasts at least 60 s with under 1000 GPU-hours");
    int best = -1, best_start = 0;
    for (int h = 0; h < 24; ++h) {
        int sum = 0;
        for (int k = 0; k < window_hours; ++k) sum += per_hour[(h + k) % 24];
        if (sum > best) best = sum, best_start = h;
    }
    PhillyWindow win;
    win.start = best_start * kHour;
    win.hours = window_hours;
    win.jobs = best;
    win.eligible = best;
    return win;
}

PhillyWorkload phillyBusiestWorkload(const std::vector<PhillyJobRow>& rows, const PhillyWorkloadOptions& o,
                                     const ProfileSet* profiles) {
    if (o.jobs < 0)
        throw std::invalid_argument("the job count must not be negative, got " + std::to_string(o.jobs));
    if (o.max_gpus < 0)
        throw std::invalid_argument("max_gpus must not be negative, got " + std::to_string(o.max_gpus));
    PhillyWorkload out;
    std::vector<PhillyJobRow> pool;
    std::string window_text;
    if (o.hour_of_day) {
        out.window = findBusiestHoursOfDay(rows, o.window_hours);
        const int first = static_cast<int>(out.window.start / kHour);
        for (const PhillyJobRow& r : rows) {
            if (!passesPolluxFilter(r) || (o.max_gpus != 0 && r.gpus > o.max_gpus)) continue;
            const double offset = secondsIntoHoursOfDay(r.submit, first);
            if (offset >= o.window_hours * kHour) continue;
            PhillyJobRow shifted = r;
            shifted.submit = offset;  // seconds since the window's start on the job's own day
            pool.push_back(shifted);
        }
        char text[64];
        std::snprintf(text, sizeof text, "%02d:00-%02d:00 of every day", first,
                      (first + o.window_hours) % 24);
        window_text = text;
        out.window.start = 0.0;
    } else {
        out.window = findBusiestWindow(rows, o.window_hours);
        const double end = out.window.start + out.window.hours * kHour;
        for (const PhillyJobRow& r : rows)
            if (passesPolluxFilter(r) && r.submit >= out.window.start && r.submit < end &&
                (o.max_gpus == 0 || r.gpus <= o.max_gpus))
                pool.push_back(r);
        window_text = formatPhillyTime(out.window.start) + " + " + std::to_string(o.window_hours) + " h";
    }
    std::sort(pool.begin(), pool.end(), earlier);
    out.window.eligible = static_cast<int>(pool.size());
    if (static_cast<std::size_t>(o.jobs) > pool.size())
        throw std::invalid_argument(
            "asked for " + std::to_string(o.jobs) + " jobs but the busiest Philly window (" + window_text +
            ") holds only " + std::to_string(pool.size()) +
            (o.max_gpus > 0 ? " jobs of at most " + std::to_string(o.max_gpus) + " GPUs"
                            : std::string(" jobs")));

    PortableRng rng(o.seed);
    const std::size_t n = static_cast<std::size_t>(o.jobs);
    for (std::size_t k = 0; k < n; ++k) std::swap(pool[k], pool[k + rng.below(pool.size() - k)]);
    pool.resize(n);
    std::sort(pool.begin(), pool.end(), earlier);

    Trace& t = out.trace;
    t.jobs.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const PhillyJobRow& r = pool[k];
        Job j;
        j.model = polluxModel(r.gpu_time, rng);
        j.id = j.model + "-" + std::to_string(k);
        j.submit_time = r.submit - out.window.start;
        j.gpus = r.gpus;
        j.duration = r.duration;
        j.vc = r.cluster;
        j.batch_size = defaultBatch(profiles, j.model, j.gpus);
        if (auto c = o.configurations.find(j.model); c != o.configurations.end()) {
            std::vector<std::pair<int, int>> fitting;
            for (const auto& config : c->second)
                if (o.max_gpus == 0 || config.first <= o.max_gpus) fitting.push_back(config);
            if (!fitting.empty()) {
                const auto& [gpus, batch] = fitting[rng.below(fitting.size())];
                j.gpus = gpus;
                j.batch_size = batch;
                if (!o.keep_philly_duration) j.duration = 0.0;  // trains the model's samples (rule 7)
            }
        }
        t.jobs.push_back(std::move(j));
    }
    out.sampled = std::move(pool);
    t.name = "philly-busiest-" + std::to_string(o.jobs) + "-seed" + std::to_string(o.seed);
    t.provenance.push_back(
        "SJF-BSBF workload: " + std::to_string(o.jobs) + " of the " + std::to_string(out.window.eligible) +
        " Philly jobs of the busiest window " + window_text + " (" + std::to_string(out.window.jobs) +
        " after Pollux's filters" +
        (o.max_gpus > 0 ? ", at most " + std::to_string(o.max_gpus) + " GPUs" : std::string()) + "), seed " +
        std::to_string(o.seed) + ", Pollux model bins by gpu_time" +
        (o.configurations.empty() ? std::string() : ", GPUs and batch from Pollux's configurations"));
    return out;
}

std::map<std::string, std::vector<std::pair<int, int>>> polluxConfigurations(
    const std::string& workloads_dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(workloads_dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("workload-", 0) == 0 && entry.path().extension() == ".csv")
            files.push_back(entry.path().string());
    }
    if (files.empty())
        throw std::invalid_argument("no Pollux workload-*.csv in '" + workloads_dir + "'" +
                                    (ec ? " (" + ec.message() + ")" : std::string()));
    std::sort(files.begin(), files.end());
    std::map<std::string, std::vector<std::pair<int, int>>> out;
    for (const std::string& f : files)
        for (const Job& j : readPolluxWorkloadCsv(f).jobs) out[j.model].push_back({j.gpus, j.batch_size});
    for (auto& [model, list] : out) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return out;
}

PhillyWorkload phillyBusiestWorkload(const std::string& path, const PhillyWorkloadOptions& options,
                                     const ProfileSet* profiles) {
    PhillyWorkload w = phillyBusiestWorkload(readPhillyJobRows(path), options, profiles);
    w.trace.provenance.back() += ", from " + io::fileName(path);
    return w;
}

std::string formatPhillyTime(double seconds) {
    using namespace std::chrono;
    const long long s = static_cast<long long>(std::floor(seconds));
    const long long day = s >= 0 ? s / 86400 : (s - 86399) / 86400;
    const long long rest = s - day * 86400;
    const year_month_day ymd{sys_days{days{day}}};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), rest / 3600,
                  rest / 60 % 60);
    return buf;
}

}  // namespace cl
