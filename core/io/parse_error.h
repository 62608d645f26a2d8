#pragma once
// Errors from readers name the file, the line (1-based, 0 = whole file) and the field.
#include <stdexcept>
#include <string>

namespace cl {

class ParseError : public std::runtime_error {
public:
    ParseError(std::string file, int line, std::string field, const std::string& message);
    const std::string& file() const { return file_; }
    int line() const { return line_; }
    const std::string& field() const { return field_; }
    const std::string& message() const { return message_; }

private:
    std::string file_;
    int line_;
    std::string field_;
    std::string message_;
};

}  // namespace cl
