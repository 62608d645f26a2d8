#pragma once
// A small declarative command-line parser: every subcommand lists its options with help text,
// unknown options and missing values are errors with one clear line.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    OptionSpec(std::string n, std::string value, std::string h, bool repeat = false, std::string def = {})
        : name(std::move(n)),
          value_name(std::move(value)),
          help(std::move(h)),
          repeatable(repeat),
          default_value(std::move(def)) {}
    std::string name;        // without leading dashes
    std::string value_name;  // empty = flag
    std::string help;
    bool repeatable = false;
    std::string default_value;
};

class Args {
public:
    Args(std::string command, std::string summary, std::vector<OptionSpec> specs);
    // Throws UsageError. Returns false when --help was given (help already printed).
    bool parse(const std::vector<std::string>& argv);
    // Lets the command take between min and max plain arguments (named `usage` in --help).
    Args& positionals(std::string usage, std::size_t min, std::size_t max);
    const std::vector<std::string>& positional() const { return positional_; }
    std::string usage() const;

    bool has(const std::string& name) const;
    bool declares(const std::string& name) const { return find(name) != nullptr; }
    std::string get(const std::string& name) const;  // value or default
    std::vector<std::string> getAll(const std::string& name) const;
    double getDouble(const std::string& name) const;
    long long getInt(const std::string& name) const;
    std::string require(const std::string& name) const;

private:
    const OptionSpec* find(const std::string& name) const;
    std::string command_;
    std::string summary_;
    std::vector<OptionSpec> specs_;
    std::map<std::string, std::vector<std::string>> values_;
    std::string positional_usage_;
    std::size_t positional_min_ = 0, positional_max_ = 0;
    std::vector<std::string> positional_;
};

// The items of a comma-separated option value, "a,b,,c," -> {"a", "b", "c"}: a doubled or
// trailing comma adds no empty item, on every command.
std::vector<std::string> splitList(const std::string& text);
// The items of every occurrence of a (repeatable) list option, or of its default.
std::vector<std::string> listItems(const Args& args, const std::string& name);
// The seeds of a list option (whole numbers from 0 to 2^64 - 1); throws UsageError naming the
// option and the item that is not a seed. The one seed parser of plan, sweep and the experiments.
std::vector<std::uint64_t> seedList(const Args& args, const std::string& name);

}  // namespace cli
