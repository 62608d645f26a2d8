#pragma once
// Internal helper for the JSON readers (our trace, layout and profile formats, Philly logs).
// nlohmann::json keeps no source positions, so on error we re-scan the text for the
// offending value to report its line; that scan only runs when something is wrong.
#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace cl::io {

// Where a value sits in a document, printed like "jobs[12].gpus".
class JsonPath {
public:
    JsonPath operator/(const std::string& key) const;
    JsonPath operator[](std::size_t index) const;
    std::string str() const;
    const std::vector<std::variant<std::string, std::size_t>>& parts() const { return parts_; }

private:
    std::vector<std::variant<std::string, std::size_t>> parts_;
};

class JsonDoc {
public:
    // Reads and parses; a syntax error (e.g. a truncated file) becomes a ParseError with
    // the line where parsing stopped.
    static JsonDoc read(const std::string& path);
    static JsonDoc parse(std::string text, const std::string& file);

    const std::string& file() const { return file_; }
    const nlohmann::json& root() const { return root_; }

    // Line of the value at `at` (of its deepest existing ancestor when it is missing).
    int lineOf(const JsonPath& at) const;
    [[noreturn]] void fail(const JsonPath& at, const std::string& message) const;

    // Typed access; every failure names the path and its line.
    const nlohmann::json& object(const nlohmann::json& v, const JsonPath& at) const;
    const nlohmann::json& array(const nlohmann::json& v, const JsonPath& at) const;
    const nlohmann::json* member(const nlohmann::json& obj, const JsonPath& at, const std::string& key) const;
    const nlohmann::json& require(const nlohmann::json& obj, const JsonPath& at,
                                  const std::string& key) const;
    std::string string(const nlohmann::json& v, const JsonPath& at, bool allow_empty = true) const;
    double number(const nlohmann::json& v, const JsonPath& at) const;
    double nonNegative(const nlohmann::json& v, const JsonPath& at) const;
    double positive(const nlohmann::json& v, const JsonPath& at) const;
    long long integer(const nlohmann::json& v, const JsonPath& at, long long min, long long max) const;
    // Records (jobs, servers, models) reject unknown keys so that a typo such as "gpu"
    // does not silently fall back to a default.
    void rejectUnknownKeys(const nlohmann::json& obj, const JsonPath& at,
                           std::initializer_list<const char*> known) const;
    // Checks "format" and "version" (a newer version than we know gets a clear error).
    void checkHeader(const std::string& format, int supported_version) const;
    // The source text of the non-integer number at `at` (nullopt for integers and
    // non-numbers), for unit conversions that must be exact on the decimal digits.
    std::optional<std::string> numberText(const JsonPath& at) const;

private:
    std::string file_;
    std::string text_;
    nlohmann::json root_;
    // Path string -> text of every non-integer number; filled by a SAX pass on first use.
    // Keyed by the path's parts, not its text: a key may itself contain "." or "[0]".
    mutable std::optional<std::map<std::vector<std::variant<std::string, std::size_t>>, std::string>>
        number_texts_;
};

// Integral values are written as JSON integers ("submit_time": 0 rather than 0.0);
// others as nlohmann's shortest round-trip form. Both read back to the same double.
nlohmann::ordered_json jsonNumber(double value);
// Writes `text` to `path`, throwing std::runtime_error if the file cannot be written.
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace cl::io
