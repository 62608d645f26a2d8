#include "core/policies/slurm_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"
#include "core/io/slurm_sacct.h"

namespace cl {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

double number(std::string_view key, std::string_view value) {
    const std::string text(io::trim(value));
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !(v >= 0))
        throw std::invalid_argument(std::string(key) + ": expected a number >= 0, not '" + text + "'");
    return v;
}

int count(std::string_view key, std::string_view value) {
    const double v = number(key, value);
    if (v != static_cast<int>(v) || v < 1)
        throw std::invalid_argument(std::string(key) + ": expected a whole number >= 1, not '" +
                                    std::string(value) + "'");
    return static_cast<int>(v);
}

// Slurm's time forms for PriorityMaxAge and PriorityDecayHalfLife: [D-]HH:MM:SS, MM:SS or minutes.
double duration(std::string_view key, std::string_view value) {
    const std::string text(io::trim(value));
    if (text.find(':') == std::string::npos && text.find('-') == std::string::npos)
        return number(key, text) * 60.0;
    try {
        const double s = parseSlurmElapsed(text);
        if (std::isfinite(s)) return s;
    } catch (const std::invalid_argument&) {
    }
    throw std::invalid_argument(std::string(key) + ": expected [D-]HH:MM:SS, not '" + text + "'");
}

bool yesNo(std::string_view key, std::string_view value) {
    const std::string v = lower(io::trim(value));
    if (v == "yes" || v == "1" || v == "true") return true;
    if (v == "no" || v == "0" || v == "false") return false;
    throw std::invalid_argument(std::string(key) + ": expected Yes or No, not '" + std::string(value) + "'");
}

void setSchedulerParameters(SlurmConfig& c, std::string_view list) {
    std::size_t from = 0;
    while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        const std::string_view item = io::trim(list.substr(from, comma - from));
        from = comma + 1;
        if (item.empty() || item == "(null)") continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) {
            if (lower(item) == "bf_continue") c.bf_continue = true;
            continue;  // flags the scheduler does not model
        }
        setSlurmParameter(c, item.substr(0, eq), item.substr(eq + 1));
    }
}

}  // namespace

void setSlurmParameter(SlurmConfig& c, std::string_view key_text, std::string_view value_text) {
    const std::string key = lower(io::trim(key_text));
    const std::string_view value = io::trim(value_text);
    if (key == "schedulerparameters") return setSchedulerParameters(c, value);
    if (key == "schedulertype") {
        const std::string v = lower(value);
        if (v != "sched/backfill" && v != "sched/builtin")
            throw std::invalid_argument("SchedulerType: expected sched/backfill or sched/builtin, not '" +
                                        std::string(value) + "'");
        c.backfill = v == "sched/backfill";
    } else if (key == "prioritytype") {
        const std::string v = lower(value);
        if (v != "priority/basic" && v != "priority/multifactor")
            throw std::invalid_argument(
                "PriorityType: expected priority/basic or priority/multifactor, not '" + std::string(value) +
                "'");
        c.multifactor = v == "priority/multifactor";
    } else if (key == "event_latency") {
        c.event_latency = number(key_text, value);
    } else if (key == "sched_interval") {
        // -1 turns the main scheduler off, event-triggered passes included; 0 only its
        // periodic pass.
        const std::string v(io::trim(value));
        c.main_scheduler = v != "-1";
        // Any value <= 0 (0, 0.0) means no periodic pass: a zero interval would tick at once forever.
        const double interval = v == "-1" ? 0.0 : number(key_text, value);
        c.sched_interval = interval > 0 ? interval : std::numeric_limits<double>::infinity();
    } else if (key == "default_queue_depth") {
        c.default_queue_depth = count(key_text, value);
    } else if (key == "bf_interval") {
        c.bf_interval = std::max(1.0, number(key_text, value));
    } else if (key == "bf_window") {
        c.bf_window = number(key_text, value) * 60.0;  // minutes
    } else if (key == "bf_resolution") {
        c.bf_resolution = std::max(1.0, number(key_text, value));
    } else if (key == "bf_max_job_test") {
        c.bf_max_job_test = count(key_text, value);
    } else if (key == "bf_continue") {
        c.bf_continue = value.empty() || yesNo(key_text, value);
    } else if (key == "priorityweightage") {
        c.weight_age = number(key_text, value);
    } else if (key == "priorityweightjobsize") {
        c.weight_job_size = number(key_text, value);
    } else if (key == "priorityweightpartition") {
        c.weight_partition = number(key_text, value);
    } else if (key == "priorityweightqos") {
        c.weight_qos = number(key_text, value);
    } else if (key == "priorityweightfairshare") {
        c.weight_fairshare = number(key_text, value);
    } else if (key == "prioritymaxage") {
        c.max_age = duration(key_text, value);
    } else if (key == "prioritydecayhalflife") {
        c.decay_half_life = duration(key_text, value);
    } else if (key == "prioritycalcperiod") {
        c.priority_calc_period = std::max(1.0, duration(key_text, value));
    } else if (key == "priorityfavorsmall") {
        c.favor_small = yesNo(key_text, value);
    }
    // Any other key is Slurm's but not modelled (docs/architecture.md 4.8 lists what is).
}

SlurmConfig parseSlurmConfig(std::string_view text, const std::string& file) {
    SlurmConfig c;
    int line_no = 0;
    std::size_t from = 0;
    while (from < text.size()) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        const std::string_view line = text.substr(from, end - from);
        from = end + 1;
        ++line_no;
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos) continue;  // headings ("Configuration data as of ...")
        const std::string_view key = io::trim(line.substr(0, eq));
        if (key.empty() || key.find(' ') != std::string_view::npos) continue;
        try {
            setSlurmParameter(c, key, line.substr(eq + 1));
        } catch (const std::invalid_argument& e) {
            throw ParseError(file, line_no, std::string(key), e.what());
        }
    }
    return c;
}

SlurmConfig readSlurmConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParseError(path, 0, "", "cannot open the file");
    std::ostringstream all;
    all << in.rdbuf();
    return parseSlurmConfig(all.str(), path);
}

void applySlurmParameters(SlurmConfig& config, const std::vector<std::string>& assignments) {
    for (const std::string& a : assignments) {
        const std::size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("a Slurm parameter is KEY=VALUE (e.g. bf_interval=30), not '" + a +
                                        "'");
        setSlurmParameter(config, std::string_view(a).substr(0, eq), std::string_view(a).substr(eq + 1));
    }
}

namespace {

// The shortest text that reads back as the same double.
std::string exact(double v) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return ec == std::errc() ? std::string(buffer, end) : std::to_string(v);
}

// Seconds as Slurm writes PriorityMaxAge: D-HH:MM:SS when whole, else minutes.
std::string slurmDuration(double seconds) {
    if (seconds != std::floor(seconds) || seconds > 1e12) return exact(seconds / 60.0);
    const auto s = static_cast<long long>(seconds);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%lld-%02lld:%02lld:%02lld", s / 86400, s % 86400 / 3600,
                  s % 3600 / 60, s % 60);
    return buffer;
}

}  // namespace

std::vector<std::string> slurmParameters(const SlurmConfig& c) {
    const SlurmConfig d;
    std::vector<std::string> out;
    const auto add = [&](bool differs, const std::string& key, const std::string& value) {
        if (differs) out.push_back(key + "=" + value);
    };
    add(c.backfill != d.backfill, "SchedulerType", c.backfill ? "sched/backfill" : "sched/builtin");
    add(c.event_latency != d.event_latency, "event_latency", exact(c.event_latency));
    if (!c.main_scheduler)
        out.push_back("sched_interval=-1");
    else
        add(c.sched_interval != d.sched_interval, "sched_interval",
            std::isfinite(c.sched_interval) ? exact(c.sched_interval) : "0");
    add(c.default_queue_depth != d.default_queue_depth, "default_queue_depth",
        std::to_string(c.default_queue_depth));
    add(c.bf_interval != d.bf_interval, "bf_interval", exact(c.bf_interval));
    add(c.bf_window != d.bf_window, "bf_window", exact(c.bf_window / 60.0));
    add(c.bf_resolution != d.bf_resolution, "bf_resolution", exact(c.bf_resolution));
    add(c.bf_max_job_test != d.bf_max_job_test, "bf_max_job_test", std::to_string(c.bf_max_job_test));
    add(c.bf_continue != d.bf_continue, "bf_continue", c.bf_continue ? "yes" : "no");
    add(c.multifactor != d.multifactor, "PriorityType",
        c.multifactor ? "priority/multifactor" : "priority/basic");
    add(c.weight_age != d.weight_age, "PriorityWeightAge", exact(c.weight_age));
    add(c.weight_job_size != d.weight_job_size, "PriorityWeightJobSize", exact(c.weight_job_size));
    add(c.weight_partition != d.weight_partition, "PriorityWeightPartition", exact(c.weight_partition));
    add(c.weight_qos != d.weight_qos, "PriorityWeightQOS", exact(c.weight_qos));
    add(c.weight_fairshare != d.weight_fairshare, "PriorityWeightFairshare", exact(c.weight_fairshare));
    add(c.max_age != d.max_age, "PriorityMaxAge", slurmDuration(c.max_age));
    add(c.decay_half_life != d.decay_half_life, "PriorityDecayHalfLife", slurmDuration(c.decay_half_life));
    add(c.priority_calc_period != d.priority_calc_period, "PriorityCalcPeriod",
        slurmDuration(c.priority_calc_period));
    add(c.favor_small != d.favor_small, "PriorityFavorSmall", c.favor_small ? "yes" : "no");
    return out;
}

}  // namespace cl
