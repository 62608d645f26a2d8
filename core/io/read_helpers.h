#pragma once
// Internal helpers shared by the trace readers, so that every format applies the same
// validation rules, error wording, warning policy and provenance. Not part of the io API.
#include <optional>
#include <string>
#include <string_view>

#include "core/io/csv_table.h"
#include "core/io/parse_error.h"
#include "core/io/trace_readers.h"

namespace cl::io {

// A job asking for more GPUs than this is a unit or data error, not a plausible request.
constexpr int kMaxJobGpus = 100000;

// Without leading and trailing white space (the C locale's).
std::string_view trim(std::string_view s);
// A whole number, surrounding white space allowed; nullopt for anything else.
std::optional<long long> wholeNumber(std::string_view s);

std::string fileName(const std::string& path);     // "dir/trace1.csv" -> "trace1.csv"
std::string fileStem(const std::string& path);     // "dir/trace1.csv" -> "trace1"
std::string directoryOf(const std::string& path);  // "dir/trace1.csv" -> "dir" ("." if none)

void warn(const TraceReadOptions& opts, std::string message);

// "YYYY-MM-DD HH:MM:SS" (a 'T' instead of the space and a fraction of a second are also
// accepted) -> seconds since 1970-01-01. No time zone is applied: traces only need
// differences between timestamps of the same file.
std::optional<double> parseDateTime(std::string_view text);

// GPU count of a job: a whole number in 1..kMaxJobGpus; errors name file, line and field.
void checkJobGpus(long long gpus, const std::string& file, int line, const std::string& field);
int jobGpus(const CsvTable& table, const CsvRow& row, int col);
int nonNegativeInt(const CsvTable& table, const CsvRow& row, int col);

// With opts.profiles set, a non-empty model must be known to it; the error lists a few names.
// unknownModel returns that error message (nullopt when the model is fine).
std::optional<std::string> unknownModel(const TraceReadOptions& opts, const std::string& model);
void checkModel(const TraceReadOptions& opts, const std::string& model, const std::string& file, int line,
                const std::string& field);

// Applies the skip_invalid_rows policy around one row (or record): a ParseError either
// propagates or becomes a warning. Returns false when the row was dropped.
template <class Fn>
bool guardRow(const TraceReadOptions& opts, int& skipped, Fn&& fn) {
    if (!opts.skip_invalid_rows) {
        fn();
        return true;
    }
    try {
        fn();
        return true;
    } catch (const ParseError& e) {
        ++skipped;
        warn(opts, std::string(e.what()) + " (row skipped)");
        return false;
    }
}

// The row loop of every CSV trace reader: each row of `table`, checked to have the header's
// width, handed to fn under guardRow's skip_invalid_rows policy.
template <class Fn>
void forEachRow(const CsvTable& table, const TraceReadOptions& opts, int& skipped, Fn&& fn) {
    for (const CsvRow& row : table.rows())
        guardRow(opts, skipped, [&] {
            table.requireRowWidth(row);
            fn(row);
        });
}

// Name (file stem) and provenance line of an imported trace.
void finishImport(Trace& trace, const std::string& path, const std::string& format, int skipped_rows);

// Files state milliseconds, the model keeps seconds. Conversion works on the decimal text
// (moving the decimal point) rather than dividing a parsed double by 1000: the result is
// the exactly rounded value of text / 1000, and a writer can always produce a text that
// reads back to the same seconds (through a double of milliseconds ~2% of values cannot).
// msTextToSeconds expects a text that already parsed as a finite number.
double msTextToSeconds(std::string_view ms_text);
std::string secondsToMsText(double seconds);

}  // namespace cl::io
