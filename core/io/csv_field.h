#pragma once
// One CSV field as every CSV the product writes quotes it (RFC 4180): a field holding a comma, a
// quote or a line break (CR or LF) is enclosed in quotes, its quotes doubled; any other field is
// written as it is. The CSV readers (csv_table.h) read back exactly what this writes.
#include <string>

namespace cl {

std::string csvField(const std::string& text);

}  // namespace cl
