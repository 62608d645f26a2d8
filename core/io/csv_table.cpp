#include "core/io/csv_table.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/parse_error.h"

namespace cl {

std::string readWholeFile(const std::string& path) {
    // A regular file in one read into a string of its size: a growing stream would hold a large
    // file's text up to three times at its peak (for a million-row Slurm history, 600 MB of the
    // 1 GB budget of docs/architecture.md 8.5). Anything else (a pipe) is read as a stream.
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (in) {
            const std::streamoff size = in.tellg();
            if (size > 0) {
                std::string text(static_cast<std::size_t>(size), '\0');
                in.seekg(0);
                in.read(text.data(), size);
                text.resize(static_cast<std::size_t>(in.gcount()));
                return text;
            }
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParseError(path, 0, "", std::string("cannot open file: ") + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

CsvTable CsvTable::readFile(const std::string& path, bool has_header) {
    return parse(readWholeFile(path), path, has_header);
}

CsvTable CsvTable::parse(std::string_view text, const std::string& file, bool has_header) {
    CsvTable t;
    t.file_ = file;
    std::size_t i = 0;
    int line = 1;
    if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
        static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF)
        i = 3;
    bool first = true;
    while (i < text.size()) {
        CsvRow row;
        row.line = line;
        std::string cell;
        bool in_quotes = false;
        // Quoted cells keep their spaces (so a writer can round-trip them); bare cells are trimmed.
        std::vector<bool> quoted;
        bool cell_quoted = false;
        bool row_done = false;
        while (i < text.size() && !row_done) {
            char c = text[i];
            if (in_quotes) {
                if (c == '"') {
                    if (i + 1 < text.size() && text[i + 1] == '"') {
                        cell.push_back('"');
                        ++i;
                    } else {
                        in_quotes = false;
                    }
                } else {
                    if (c == '\n') ++line;
                    cell.push_back(c);
                }
                ++i;
                continue;
            }
            switch (c) {
                case '"':
                    // Spaces before an opening quote are padding, not content.
                    if (cell.find_first_not_of(" \t") == std::string::npos) cell.clear();
                    in_quotes = true;
                    cell_quoted = true;
                    break;
                case ',':
                    row.cells.push_back(std::move(cell));
                    quoted.push_back(cell_quoted);
                    cell.clear();
                    cell_quoted = false;
                    break;
                case '\r':
                    break;
                case '\n':
                    ++line;
                    row_done = true;
                    break;
                default:
                    cell.push_back(c);
            }
            ++i;
        }
        if (in_quotes) throw ParseError(file, row.line, "", "unterminated quoted field");
        row.cells.push_back(std::move(cell));
        quoted.push_back(cell_quoted);
        bool blank =
            row.cells.size() == 1 && !quoted[0] && row.cells[0].find_first_not_of(" \t") == std::string::npos;
        if (blank) continue;
        for (std::size_t k = 0; k < row.cells.size(); ++k) {
            if (quoted[k]) continue;
            auto& c = row.cells[k];
            auto b = c.find_first_not_of(" \t");
            auto e = c.find_last_not_of(" \t");
            c = b == std::string::npos ? std::string() : c.substr(b, e - b + 1);
        }
        if (first && has_header) {
            t.header_ = std::move(row.cells);
            first = false;
            continue;
        }
        first = false;
        t.rows_.push_back(std::move(row));
    }
    if (has_header && t.header_.empty())
        throw ParseError(file, 0, "", "file is empty (expected a header line)");
    return t;
}

std::optional<int> CsvTable::column(const std::string& name) const {
    for (std::size_t c = 0; c < header_.size(); ++c)
        if (header_[c] == name) return static_cast<int>(c);
    return std::nullopt;
}

int CsvTable::requireColumn(const std::string& name) const {
    if (auto c = column(name)) return *c;
    std::string have;
    for (const auto& h : header_) have += (have.empty() ? "" : ",") + h;
    throw ParseError(file_, 1, name, "missing column (header has: " + have + ")");
}

void CsvTable::useHeader(const std::vector<std::string>& names) {
    // Published files (Synergy replay, Alibaba PAI) come without a header, but people often
    // add one; accept both by comparing the first row with the expected names.
    if (!rows_.empty() && rows_.front().cells == names) rows_.erase(rows_.begin());
    header_ = names;
}

void CsvTable::requireRowWidth(const CsvRow& row) const {
    if (row.cells.size() != header_.size())
        throw ParseError(file_, row.line, "",
                         "expected " + std::to_string(header_.size()) + " columns, found " +
                             std::to_string(row.cells.size()));
}

void CsvTable::requireWidth(std::size_t width) const {
    for (const auto& r : rows_)
        if (r.cells.size() != width)
            throw ParseError(
                file_, r.line, "",
                "expected " + std::to_string(width) + " columns, found " + std::to_string(r.cells.size()));
}

std::string CsvTable::fieldName(int col) const {
    if (col >= 0 && static_cast<std::size_t>(col) < header_.size()) return header_[col];
    return "column " + std::to_string(col + 1);
}

std::string CsvTable::text(const CsvRow& row, int col, bool allow_empty) const {
    if (col < 0 || static_cast<std::size_t>(col) >= row.cells.size())
        throw ParseError(file_, row.line, fieldName(col),
                         "missing value (row has only " + std::to_string(row.cells.size()) + " columns)");
    const std::string& v = row.cells[col];
    if (!allow_empty && v.empty()) throw ParseError(file_, row.line, fieldName(col), "empty value");
    return v;
}

double CsvTable::number(const CsvRow& row, int col) const {
    std::string v = text(row, col, false);
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(d))
        throw ParseError(file_, row.line, fieldName(col), "expected a number, found '" + v + "'");
    return d;
}

double CsvTable::nonNegative(const CsvRow& row, int col) const {
    double d = number(row, col);
    if (d < 0)
        throw ParseError(file_, row.line, fieldName(col), "must not be negative, found " + text(row, col));
    return d;
}

long long CsvTable::integer(const CsvRow& row, int col) const {
    double d = number(row, col);
    if (d != std::floor(d) || std::fabs(d) > 9.0e15)
        throw ParseError(file_, row.line, fieldName(col),
                         "expected a whole number, found '" + text(row, col) + "'");
    return static_cast<long long>(d);
}

int CsvTable::positiveInt(const CsvRow& row, int col) const {
    long long v = integer(row, col);
    if (v <= 0)
        throw ParseError(file_, row.line, fieldName(col),
                         "must be a positive whole number, found " + text(row, col));
    if (v > 1000000)
        throw ParseError(file_, row.line, fieldName(col), "implausibly large value " + text(row, col));
    return static_cast<int>(v);
}

}  // namespace cl
