#include "core/io/json_doc.h"

#include "core/io/atomic_file.h"
#include "core/io/json_scanner.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "core/io/csv_table.h"
#include "core/io/parse_error.h"

namespace cl::io {

using nlohmann::json;

JsonPath JsonPath::operator/(const std::string& key) const {
    JsonPath p = *this;
    p.parts_.emplace_back(key);
    return p;
}

JsonPath JsonPath::operator[](std::size_t index) const {
    JsonPath p = *this;
    p.parts_.emplace_back(index);
    return p;
}

std::string JsonPath::str() const {
    std::string s;
    for (const auto& part : parts_) {
        if (const auto* key = std::get_if<std::string>(&part))
            s += (s.empty() ? "" : ".") + *key;
        else
            s += "[" + std::to_string(std::get<std::size_t>(part)) + "]";
    }
    return s;
}

namespace {

int lineAt(std::string_view text, std::size_t pos) {
    pos = std::min(pos, text.size());
    int line = 1;
    for (std::size_t k = 0; k < pos; ++k)
        if (text[k] == '\n') ++line;
    return line;
}

// Walks an already validated document to a path.
struct Scanner : io::JsonScanner {
    // Positions on the value of member `key` of the object at i; returns the key's offset.
    std::optional<std::size_t> enterMember(const std::string& key) {
        ws();
        if (!at('{')) return std::nullopt;
        ++i;
        while (true) {
            ws();
            if (!at('"')) return std::nullopt;
            std::size_t start = i;
            if (!skipString()) return std::nullopt;
            std::string_view name = s.substr(start + 1, i - start - 2);
            ws();
            if (!at(':')) return std::nullopt;
            ++i;
            ws();
            if (name == key) return start;
            if (!skipValue()) return std::nullopt;
            ws();
            if (!at(',')) return std::nullopt;
            ++i;
        }
    }
    std::optional<std::size_t> enterElement(std::size_t index) {
        ws();
        if (!at('[')) return std::nullopt;
        ++i;
        for (std::size_t k = 0;; ++k) {
            ws();
            if (at(']')) return std::nullopt;
            if (k == index) return i;
            if (!skipValue()) return std::nullopt;
            ws();
            if (!at(',')) return std::nullopt;
            ++i;
        }
    }
};

std::string brief(const json& v) {
    std::string s = v.dump();
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

}  // namespace

JsonDoc JsonDoc::read(const std::string& path) {
    return parse(readWholeFile(path), path);
}

JsonDoc JsonDoc::parse(std::string text, const std::string& file) {
    JsonDoc doc;
    doc.file_ = file;
    doc.text_ = std::move(text);
    try {
        doc.root_ = json::parse(doc.text_);
    } catch (const json::parse_error& e) {
        // e.byte is 1-based and points just past the last character read; at the end of a
        // truncated file that is after the final newline, so step back to the last content.
        std::size_t pos = e.byte > 0 ? e.byte - 1 : 0;
        if (pos >= doc.text_.size()) {
            pos = doc.text_.size();
            while (pos > 0 && std::strchr(" \t\r\n", doc.text_[pos - 1])) --pos;
            if (pos > 0) --pos;
        }
        // Drop nlohmann's "[json.exception...] parse error at line L, column C: " prefix.
        std::string what = e.what();
        auto colon = what.find(": ");
        if (what.find("parse error") != std::string::npos && colon != std::string::npos)
            what = what.substr(colon + 2);
        throw ParseError(file, lineAt(doc.text_, pos), "", "invalid JSON: " + what);
    } catch (const json::exception& e) {
        // Valid syntax nlohmann still refuses: a number beyond double ("number overflow parsing
        // '1e400'"). The message quotes the text, which points at the line.
        std::string what = e.what();
        if (auto bracket = what.find("] "); what.front() == '[' && bracket != std::string::npos)
            what = what.substr(bracket + 2);
        int line = 0;
        const auto open = what.find('\'');
        const auto close = what.rfind('\'');
        if (open != std::string::npos && close > open + 1)
            if (auto at = doc.text_.find(what.substr(open + 1, close - open - 1)); at != std::string::npos)
                line = lineAt(doc.text_, at);
        throw ParseError(file, line, "", "invalid JSON: " + what);
    }
    return doc;
}

int JsonDoc::lineOf(const JsonPath& at) const {
    Scanner sc{text_};
    sc.ws();
    std::size_t best = sc.i;
    for (const auto& part : at.parts()) {
        std::optional<std::size_t> found;
        if (const auto* key = std::get_if<std::string>(&part))
            found = sc.enterMember(*key);
        else
            found = sc.enterElement(std::get<std::size_t>(part));
        if (!found) break;
        best = *found;
    }
    return lineAt(text_, best);
}

void JsonDoc::fail(const JsonPath& at, const std::string& message) const {
    throw ParseError(file_, lineOf(at), at.str(), message);
}

const json& JsonDoc::object(const json& v, const JsonPath& at) const {
    if (!v.is_object()) fail(at, "expected an object, found " + brief(v));
    return v;
}

const json& JsonDoc::array(const json& v, const JsonPath& at) const {
    if (!v.is_array()) fail(at, "expected an array, found " + brief(v));
    return v;
}

const json* JsonDoc::member(const json& obj, const JsonPath&, const std::string& key) const {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const json& JsonDoc::require(const json& obj, const JsonPath& at, const std::string& key) const {
    if (const json* v = member(obj, at, key)) return *v;
    fail(at / key, "missing required field");
}

std::string JsonDoc::string(const json& v, const JsonPath& at, bool allow_empty) const {
    if (!v.is_string()) fail(at, "expected a string, found " + brief(v));
    std::string s = v.get<std::string>();
    if (!allow_empty && s.empty()) fail(at, "must not be empty");
    return s;
}

double JsonDoc::number(const json& v, const JsonPath& at) const {
    if (!v.is_number()) fail(at, "expected a number, found " + brief(v));
    return v.get<double>();
}

double JsonDoc::nonNegative(const json& v, const JsonPath& at) const {
    double d = number(v, at);
    if (d < 0) fail(at, "must not be negative, found " + brief(v));
    return d;
}

double JsonDoc::positive(const json& v, const JsonPath& at) const {
    double d = number(v, at);
    if (d <= 0) fail(at, "must be positive, found " + brief(v));
    return d;
}

long long JsonDoc::integer(const json& v, const JsonPath& at, long long min, long long max) const {
    double d = number(v, at);
    if (d != std::floor(d) || std::fabs(d) > 9.0e15) fail(at, "expected a whole number, found " + brief(v));
    long long n = v.is_number_integer() ? v.get<long long>() : static_cast<long long>(d);
    if (n < min || n > max)
        fail(at, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", found " +
                     brief(v));
    return n;
}

void JsonDoc::rejectUnknownKeys(const json& obj, const JsonPath& at,
                                std::initializer_list<const char*> known) const {
    for (const auto& [key, _] : obj.items()) {
        bool ok = false;
        for (const char* k : known) ok = ok || key == k;
        if (ok) continue;
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(at / key, "unknown field (expected one of: " + list + ")");
    }
}

void JsonDoc::checkHeader(const std::string& format, int supported_version) const {
    const JsonPath top;
    object(root_, top);
    const json& f = require(root_, top, "format");
    if (string(f, top / "format") != format)
        fail(top / "format",
             "expected \"" + format + "\", found " + brief(f) + " (not a " + format + " file)");
    const json& v = require(root_, top, "version");
    long long version = integer(v, top / "version", 1, 1000000);
    if (version > supported_version)
        fail(top / "version", "version " + std::to_string(version) +
                                  " is newer than this build of ClusterLoom reads (up to " +
                                  std::to_string(supported_version) + "); please update ClusterLoom");
}

namespace {

// SAX handler that records the text of non-integer numbers under their path (JsonPath's
// parts). nlohmann's DOM keeps only the parsed double. With a key given twice the DOM keeps
// the last value, so any later value replaces (or removes) an earlier text.
struct NumberTextRecorder {
    using Parts = std::vector<std::variant<std::string, std::size_t>>;
    struct Frame {
        bool array = false;
        std::size_t index = 0;
        std::string key;
    };
    std::map<Parts, std::string>& out;
    std::vector<Frame> stack;

    Parts path() const {
        Parts p;
        for (const Frame& f : stack) {
            if (f.array)
                p.emplace_back(f.index);
            else
                p.emplace_back(f.key);
        }
        return p;
    }
    bool value() {
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        return true;
    }
    bool other() {
        out.erase(path());
        return value();
    }
    bool null() { return other(); }
    bool boolean(bool) { return other(); }
    bool number_integer(json::number_integer_t) { return other(); }
    bool number_unsigned(json::number_unsigned_t) { return other(); }
    bool number_float(json::number_float_t, const std::string& text) {
        out[path()] = text;
        return value();
    }
    bool string(std::string&) { return other(); }
    bool binary(json::binary_t&) { return other(); }
    bool start_object(std::size_t) {
        out.erase(path());
        stack.push_back({false, 0, {}});
        return true;
    }
    bool key(std::string& k) {
        stack.back().key = k;
        return true;
    }
    bool end_object() {
        stack.pop_back();
        return value();
    }
    bool start_array(std::size_t) {
        out.erase(path());
        stack.push_back({true, 0, {}});
        return true;
    }
    bool end_array() {
        stack.pop_back();
        return value();
    }
    bool parse_error(std::size_t, const std::string&, const json::exception&) { return false; }
};

}  // namespace

std::optional<std::string> JsonDoc::numberText(const JsonPath& at) const {
    if (!number_texts_) {
        number_texts_.emplace();
        NumberTextRecorder recorder{*number_texts_, {}};
        json::sax_parse(text_, &recorder);  // the text already parsed once, so this succeeds
    }
    auto it = number_texts_->find(at.parts());
    if (it == number_texts_->end()) return std::nullopt;
    return it->second;
}

nlohmann::ordered_json jsonNumber(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15)
        return static_cast<long long>(value);
    return value;
}

void writeTextFile(const std::string& path, const std::string& text) {
    // Written beside the target and renamed over it, so a failed write leaves the old file.
    AtomicFile file(path);
    file.stream() << text;
    file.commit();
}

}  // namespace cl::io
