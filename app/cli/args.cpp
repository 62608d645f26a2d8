#include "cli/args.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <sstream>

namespace cli {

Args::Args(std::string command, std::string summary, std::vector<OptionSpec> specs)
    : command_(std::move(command)), summary_(std::move(summary)), specs_(std::move(specs)) {}

const OptionSpec* Args::find(const std::string& name) const {
    for (const auto& s : specs_)
        if (s.name == name) return &s;
    return nullptr;
}

bool Args::parse(const std::vector<std::string>& argv) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << usage();
            return false;
        }
        if (a.rfind("--", 0) != 0) {
            if (positional_.size() >= positional_max_)
                throw UsageError(command_ + ": unexpected argument '" + a + "' (see --help)");
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::string value;
        bool inline_value = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inline_value = true;
        }
        const OptionSpec* spec = find(name);
        if (!spec) throw UsageError(command_ + ": unknown option '--" + name + "' (see --help)");
        if (spec->value_name.empty()) {
            if (inline_value) throw UsageError(command_ + ": option '--" + name + "' takes no value");
            value = "1";
        } else if (!inline_value) {
            if (i + 1 >= argv.size())
                throw UsageError(command_ + ": option '--" + name + "' needs a value " + spec->value_name);
            value = argv[++i];
        }
        auto& vals = values_[name];
        if (!vals.empty() && !spec->repeatable)
            throw UsageError(command_ + ": option '--" + name + "' given more than once");
        vals.push_back(value);
    }
    if (positional_.size() < positional_min_)
        throw UsageError(command_ + ": expected " + positional_usage_ + " (see --help)");
    return true;
}

Args& Args::positionals(std::string usage, std::size_t min, std::size_t max) {
    positional_usage_ = std::move(usage);
    positional_min_ = min;
    positional_max_ = max;
    return *this;
}

std::string Args::usage() const {
    std::ostringstream s;
    s << "usage: clusterloom-cli " << command_ << (positional_usage_.empty() ? "" : " " + positional_usage_)
      << " [options]\n\n"
      << summary_ << "\n\noptions:\n";
    for (const auto& o : specs_) {
        std::string left = "  --" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
        s << left;
        if (left.size() < 30)
            s << std::string(30 - left.size(), ' ');
        else
            s << "\n" << std::string(30, ' ');
        s << o.help;
        if (!o.default_value.empty()) s << " (default " << o.default_value << ")";
        if (o.repeatable) s << " [repeatable]";
        s << "\n";
    }
    s << "  --help                      show this help\n";
    return s.str();
}

bool Args::has(const std::string& name) const {
    return values_.count(name) > 0;
}

std::string Args::get(const std::string& name) const {
    auto it = values_.find(name);
    if (it != values_.end()) return it->second.back();
    const OptionSpec* spec = find(name);
    return spec ? spec->default_value : std::string();
}

std::vector<std::string> Args::getAll(const std::string& name) const {
    auto it = values_.find(name);
    if (it != values_.end()) return it->second;
    const OptionSpec* spec = find(name);
    if (spec && !spec->default_value.empty()) return {spec->default_value};
    return {};
}

std::string Args::require(const std::string& name) const {
    std::string v = get(name);
    if (v.empty()) throw UsageError(command_ + ": missing required option --" + name + " (see --help)");
    return v;
}

double Args::getDouble(const std::string& name) const {
    std::string v = get(name);
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || p != v.data() + v.size())
        throw UsageError(command_ + ": --" + name + " expects a number, got '" + v + "'");
    return d;
}

long long Args::getInt(const std::string& name) const {
    std::string v = get(name);
    long long d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || p != v.data() + v.size())
        throw UsageError(command_ + ": --" + name + " expects a whole number, got '" + v + "'");
    return d;
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        if (comma > pos) out.push_back(text.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

std::vector<std::string> listItems(const Args& args, const std::string& name) {
    std::vector<std::string> out;
    for (const auto& value : args.getAll(name))
        for (auto& item : splitList(value)) out.push_back(std::move(item));
    return out;
}

std::vector<std::uint64_t> seedList(const Args& args, const std::string& name) {
    std::vector<std::uint64_t> seeds;
    for (const auto& item : listItems(args, name)) {
        std::uint64_t seed = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), seed);
        if (ec != std::errc() || end != item.data() + item.size())
            throw UsageError("--" + name + ": '" + item + "' is not a seed (a whole number, 0 or more)");
        seeds.push_back(seed);
    }
    return seeds;
}

}  // namespace cli
