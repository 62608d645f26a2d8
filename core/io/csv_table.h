#pragma once
// A small CSV reader shared by the trace readers: quoted fields, CRLF, blank lines skipped,
// every row remembers its line number so that errors can point at it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cl {

struct CsvRow {
    int line = 0;
    std::vector<std::string> cells;
};

class CsvTable {
public:
    // Parses text; `file` is used in error messages only.
    static CsvTable parse(std::string_view text, const std::string& file, bool has_header = true);
    static CsvTable readFile(const std::string& path, bool has_header = true);

    const std::string& file() const { return file_; }
    const std::vector<std::string>& header() const { return header_; }
    const std::vector<CsvRow>& rows() const { return rows_; }

    // Column index by name; throws ParseError naming the missing column and what exists.
    int requireColumn(const std::string& name) const;
    std::optional<int> column(const std::string& name) const;
    // Throws unless every row has exactly the header's column count.
    void requireWidth(std::size_t width) const;
    // Throws unless this row has as many cells as the header has names.
    void requireRowWidth(const CsvRow& row) const;
    // For files parsed with has_header = false: names the columns (for lookups and error
    // messages); a first row equal to `names` is taken as a header line and dropped.
    void useHeader(const std::vector<std::string>& names);

    // Typed access with errors that name file, line and field.
    std::string text(const CsvRow& row, int col, bool allow_empty = true) const;
    double number(const CsvRow& row, int col) const;
    double nonNegative(const CsvRow& row, int col) const;
    long long integer(const CsvRow& row, int col) const;
    int positiveInt(const CsvRow& row, int col) const;

    std::string fieldName(int col) const;

private:
    std::string file_;
    std::vector<std::string> header_;
    std::vector<CsvRow> rows_;
};

// Reads a whole file; throws ParseError(file, 0, "", "cannot open ...") when it cannot.
std::string readWholeFile(const std::string& path);

}  // namespace cl
