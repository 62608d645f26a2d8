#pragma once
#include <ostream>
#include <string>

namespace cl {

// Writes to path + ".tmp" and renames, so that a failed write never leaves a half file.
class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();
    std::ostream& stream();
    void commit();  // throws std::runtime_error naming the file on I/O failure

private:
    struct Impl;
    Impl* impl_;
};

}  // namespace cl
