// PyTorch profiler (Kineto) traces -> the events a profile needs (docs/architecture.md
// section 8.6). A trace is Chrome trace JSON: {"traceEvents": [...], "distributedInfo": {...},
// "deviceProperties": [...]} or a bare array of events. Traces run to tens of megabytes, so the
// JSON is read with nlohmann's SAX interface and only the events that matter are kept; a
// DOM is built only to find the line of an error.
#include "core/io/kineto_trace.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/io/csv_table.h"
#include "core/io/json_doc.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"

namespace cl {

namespace {

using json = nlohmann::json;

bool isGzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// All members of a gzip file, one after the other (as gunzip does).
std::string gunzip(std::string_view in, const std::string& source) {
    constexpr std::size_t kMaxOutput = std::size_t{8} << 30;  // refuse more than 8 GB of JSON
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        throw ParseError(source, 0, "", "cannot start gzip decoder");
    struct End {
        z_stream* z;
        ~End() { inflateEnd(z); }
    } end{&zs};
    std::string out;
    out.resize(std::max<std::size_t>(in.size() * 4, 1 << 16));
    std::size_t produced = 0, consumed = 0;
    for (;;) {
        if (produced == out.size()) {
            if (out.size() >= kMaxOutput)
                throw ParseError(source, 0, "", "gzip data expands beyond 8 GB; not a profiler trace");
            out.resize(std::min(out.size() * 2, kMaxOutput));
        }
        const std::size_t in_chunk = std::min<std::size_t>(in.size() - consumed, 1u << 30);
        const std::size_t out_chunk = std::min<std::size_t>(out.size() - produced, 1u << 30);
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
        zs.avail_in = static_cast<uInt>(in_chunk);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
        zs.avail_out = static_cast<uInt>(out_chunk);
        const int rc = inflate(&zs, Z_NO_FLUSH);
        consumed += in_chunk - zs.avail_in;
        produced += out_chunk - zs.avail_out;
        if (rc == Z_STREAM_END) {
            if (consumed == in.size()) break;
            if (inflateReset(&zs) != Z_OK) throw ParseError(source, 0, "", "bad gzip data");
            continue;
        }
        if (rc == Z_BUF_ERROR && consumed == in.size() && zs.avail_out > 0)
            throw ParseError(source, 0, "", "gzip data ends early (truncated file?)");
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            throw ParseError(source, 0, "",
                             std::string("bad gzip data: ") + (zs.msg ? zs.msg : "corrupt stream"));
    }
    out.resize(produced);
    return out;
}

bool containsNoCase(std::string_view text, std::string_view lower_word) {
    if (lower_word.size() > text.size()) return false;
    for (std::size_t i = 0; i + lower_word.size() <= text.size(); ++i) {
        std::size_t k = 0;
        while (k < lower_word.size() &&
               static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + k]))) == lower_word[k])
            ++k;
        if (k == lower_word.size()) return true;
    }
    return false;
}

// An event or field the profile needs is malformed: where, and what is wrong.
struct BadValue {
    io::JsonPath at;
    std::string message;
};

// A number as it came: its value, and the integer when it was one (or a float without fraction).
struct Number {
    double value = 0.0;
    bool integral = false;
    std::int64_t integer = 0;
};

class EventCollector {
public:
    explicit EventCollector(KinetoEvents& out) : out_(out) {}

    bool saw_events = false;

    // nlohmann's SAX interface.
    bool null() { return other(true); }
    bool boolean(bool) { return other(false); }
    bool number_integer(json::number_integer_t v) {
        return number({static_cast<double>(v), true, static_cast<std::int64_t>(v)});
    }
    bool number_unsigned(json::number_unsigned_t v) {
        const bool fits = v <= static_cast<json::number_unsigned_t>(std::numeric_limits<std::int64_t>::max());
        return number({static_cast<double>(v), fits, fits ? static_cast<std::int64_t>(v) : 0});
    }
    bool number_float(json::number_float_t v, const json::string_t&) {
        const bool whole = std::floor(v) == v && std::abs(v) < 9.0e18;
        return number({v, whole, whole ? static_cast<std::int64_t>(v) : 0});
    }
    bool string(json::string_t& s) {
        beginValue();
        if (frames_.empty()) return true;
        switch (top()) {
            case Frame::Event:
                if (key_ == "ph")
                    event_.ph.swap(s);
                else if (key_ == "cat")
                    event_.cat.swap(s);
                else if (key_ == "name")
                    event_.name.swap(s);
                else
                    badTypeOf(key_);
                break;
            case Frame::Args:
                if (key_ == "correlation") event_.correlation_bad = true;
                break;
            case Frame::Distributed:
                if (key_ == "world_size" || key_ == "rank")
                    fail(distributedPath(), "expected a whole number");
                break;
            case Frame::FirstDevice:
                if (key_ == "name") out_.gpu_name.swap(s);
                break;
            default:
                break;
        }
        return true;
    }
    bool binary(json::binary_t&) { return other(false); }
    bool start_object(std::size_t) {
        beginValue();
        Frame f = Frame::Other;
        const Frame parent = frames_.empty() ? Frame::None : top();
        if (parent == Frame::None) {
            f = Frame::Root;
        } else if (parent == Frame::Events) {
            f = Frame::Event;
            event_.reset();
        } else if (parent == Frame::Event && key_ == "args") {
            f = Frame::Args;
        } else if (parent == Frame::Root && key_ == "distributedInfo") {
            f = Frame::Distributed;
        } else if (parent == Frame::Devices && device_index_ == 1) {
            f = Frame::FirstDevice;
        }
        frames_.push_back(f);
        return true;
    }
    bool key(json::string_t& k) {
        key_.swap(k);
        return true;
    }
    bool end_object() {
        const Frame f = top();
        frames_.pop_back();
        if (f == Frame::Event) keepEvent();
        return true;
    }
    bool start_array(std::size_t) {
        beginValue();
        Frame f = Frame::Other;
        const Frame parent = frames_.empty() ? Frame::None : top();
        if ((parent == Frame::None || (parent == Frame::Root && key_ == "traceEvents")) && !saw_events) {
            f = Frame::Events;
            saw_events = true;
            events_at_root_ = parent == Frame::None;
        } else if (parent == Frame::Root && key_ == "deviceProperties") {
            f = Frame::Devices;
        }
        frames_.push_back(f);
        return true;
    }
    bool end_array() {
        frames_.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

private:
    enum class Frame { None, Root, Events, Event, Args, Distributed, Devices, FirstDevice, Other };
    struct Event {
        std::string ph, cat, name;
        std::optional<double> ts, dur;
        std::optional<std::int64_t> correlation;
        bool correlation_bad = false;
        void reset() {
            ph.clear();
            cat.clear();
            name.clear();
            ts.reset();
            dur.reset();
            correlation_bad = false;
            correlation.reset();
        }
    };

    Frame top() const { return frames_.back(); }

    // Counts the elements of the event array and of deviceProperties as they begin.
    void beginValue() {
        if (frames_.empty()) return;
        if (top() == Frame::Events) ++event_index_;
        if (top() == Frame::Devices) ++device_index_;
    }

    // A value that is no number or string; null stands for a missing correlation id.
    bool other(bool is_null) {
        beginValue();
        if (!frames_.empty()) {
            if (top() == Frame::Event) badTypeOf(key_);
            if (top() == Frame::Args && key_ == "correlation" && !is_null) event_.correlation_bad = true;
            if (top() == Frame::Distributed && (key_ == "world_size" || key_ == "rank"))
                fail(distributedPath(), "expected a whole number");
        }
        return true;
    }

    void badTypeOf(const std::string& key) {
        if (key == "ts") event_.ts.reset();
        if (key == "dur") event_.dur.reset();
    }

    bool number(const Number& n) {
        beginValue();
        if (frames_.empty()) return true;
        switch (top()) {
            case Frame::Event:
                if (key_ == "ts") {
                    event_.ts = n.value;
                } else if (key_ == "dur") {
                    event_.dur = n.value;
                }
                break;
            case Frame::Args:
                if (key_ == "correlation") {
                    if (n.integral) {
                        event_.correlation = n.integer;
                        event_.correlation_bad = false;
                    } else {
                        event_.correlation_bad = true;
                    }
                }
                break;
            case Frame::Distributed:
                if (key_ == "world_size" || key_ == "rank") {
                    const long long min = key_ == "rank" ? 0 : 1;
                    if (!n.integral || n.integer < min || n.integer > 10'000'000)
                        fail(distributedPath(), key_ == "rank" ? "expected a whole number 0..10000000"
                                                               : "expected a whole number 1..10000000");
                    (key_ == "rank" ? out_.rank : out_.world_size) = static_cast<int>(n.integer);
                }
                break;
            default:
                break;
        }
        return true;
    }

    io::JsonPath eventPath() const {
        const io::JsonPath events = events_at_root_ ? io::JsonPath() : io::JsonPath() / "traceEvents";
        return events[event_index_ - 1];
    }
    io::JsonPath distributedPath() const { return io::JsonPath() / "distributedInfo" / key_; }

    [[noreturn]] void fail(const io::JsonPath& at, const std::string& message) const {
        throw BadValue{at, message};
    }

    double needTime(const char* field, const std::optional<double>& v, bool positive_duration,
                    const std::string& what) const {
        if (!v) fail(eventPath() / field, what + " needs '" + field + "', a number of microseconds");
        // Bounded so that start + duration and every difference stay finite: 1e18 us is
        // 31,000 years, beyond any clock a profiler reads.
        if (!(std::abs(*v) <= 1e18))
            fail(eventPath() / field, what + ": a time beyond 1e18 microseconds is not a profiler time");
        if (positive_duration && !(*v >= 0))
            fail(eventPath() / field, what + ": a duration cannot be negative, found " + std::to_string(*v));
        return *v;
    }

    void keepEvent() {
        const Event& e = event_;
        if (e.ph != "X") return;
        const bool gpu_side = e.cat == "kernel" || e.cat.rfind("gpu_", 0) == 0;
        if (e.correlation_bad && (e.cat == "kernel" || e.cat == "cuda_runtime" || e.cat == "cuda_driver"))
            fail(eventPath() / "args" / "correlation", "expected a whole number");
        if (e.cat == "kernel") {
            KinetoEvents::Kernel k;
            k.start_us = needTime("ts", e.ts, false, "a kernel");
            k.duration_us = needTime("dur", e.dur, true, "a kernel");
            k.nccl = containsNoCase(e.name, "nccl");
            k.has_correlation = e.correlation.has_value();
            k.correlation = e.correlation.value_or(0);
            out_.kernels.push_back(k);
        } else if (e.cat == "cuda_runtime" || e.cat == "cuda_driver") {
            if (!e.correlation) return;
            out_.launches.push_back({*e.correlation, needTime("ts", e.ts, false, "a " + e.cat + " call")});
        } else if (!gpu_side && e.name.rfind("ProfilerStep#", 0) == 0) {
            const std::string_view digits = std::string_view(e.name).substr(13);
            int number = 0;
            auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
            if (ec != std::errc() || end != digits.data() + digits.size() || number < 0)
                fail(eventPath() / "name",
                     "a step is named ProfilerStep#N with N a whole number, found '" + e.name + "'");
            KinetoEvents::Step s;
            s.number = number;
            s.start_us = needTime("ts", e.ts, false, e.name);
            s.duration_us = needTime("dur", e.dur, true, e.name);
            if (!(s.duration_us > 0)) fail(eventPath() / "dur", e.name + ": a step must last longer than 0");
            out_.steps.push_back(s);
        } else if (!gpu_side && e.name.find("DataLoader") != std::string::npos &&
                   e.name.find("__next__") != std::string::npos) {
            KinetoEvents::Span s;
            s.start_us = needTime("ts", e.ts, false, "a DataLoader span");
            s.duration_us = needTime("dur", e.dur, true, "a DataLoader span");
            out_.data_loader_spans.push_back(s);
        }
    }

    KinetoEvents& out_;
    std::vector<Frame> frames_;
    std::string key_;
    Event event_;
    std::size_t event_index_ = 0;
    std::size_t device_index_ = 0;
    bool events_at_root_ = false;
};

// The default profile name: "dir/rank0.pt.trace.json.gz" -> "rank0.pt.trace".
std::string traceStem(const std::string& path) {
    std::string name = io::fileName(path);
    for (const char* suffix : {".gz", ".json"})
        if (name.size() > std::string_view(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string_view(suffix).size());
    return name;
}

}  // namespace

KinetoEvents parseKinetoTrace(std::string_view bytes, const std::string& source) {
    std::string inflated;
    if (isGzip(bytes)) {
        inflated = gunzip(bytes, source);
        bytes = inflated;
    }
    KinetoEvents events;
    EventCollector collector(events);
    bool ok = false;
    try {
        ok = json::sax_parse(bytes.data(), bytes.data() + bytes.size(), &collector);
    } catch (const BadValue& bad) {
        io::JsonDoc::parse(std::string(bytes), source).fail(bad.at, bad.message);
    }
    if (!ok) {
        // The DOM parser words the syntax error and finds its line.
        io::JsonDoc::parse(std::string(bytes), source);
        throw ParseError(source, 0, "", "invalid JSON");
    }
    if (!collector.saw_events)
        throw ParseError(source, 0, "traceEvents",
                         "not a PyTorch profiler trace: no traceEvents array (Chrome trace JSON expected)");
    return events;
}

KinetoEvents readKinetoTrace(const std::string& path) {
    return parseKinetoTrace(readWholeFile(path), path);
}

KinetoRankProfile readKinetoRank(const std::string& path) {
    const KinetoEvents events = readKinetoTrace(path);
    if (events.steps.empty())
        throw ParseError(path, 0, "traceEvents",
                         "no ProfilerStep#N spans: record with torch.profiler.schedule and call prof.step()");
    if (events.steps.size() == 1)
        throw ParseError(path, 0, "traceEvents",
                         "only one ProfilerStep#N span (ProfilerStep#" +
                             std::to_string(events.steps[0].number) +
                             "); the first step is warm-up and left out, so record at least two (active=2 or "
                             "more in torch.profiler.schedule)");
    return kinetoRankProfile(events, path);
}

KinetoProfile kinetoProfile(const std::vector<std::string>& paths, const std::string& name) {
    if (paths.empty()) throw std::invalid_argument("a Kineto profile needs at least one trace file");
    std::vector<KinetoRankProfile> ranks;
    ranks.reserve(paths.size());
    for (const std::string& p : paths) ranks.push_back(readKinetoRank(p));
    return combineKinetoRanks(std::move(ranks), name.empty() ? traceStem(paths.front()) : name);
}

}  // namespace cl
