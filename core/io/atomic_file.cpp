#include "core/io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace cl {

struct AtomicFile::Impl {
    std::string path;
    std::string tmp;
    std::ofstream out;
    bool committed = false;
};

AtomicFile::AtomicFile(std::string path) : impl_(new Impl) {
    impl_->path = std::move(path);
    impl_->tmp = impl_->path + ".tmp";
    impl_->out.open(impl_->tmp, std::ios::binary | std::ios::trunc);
    if (!impl_->out) {
        // The destructor does not run when the constructor throws.
        const int error = errno;
        const std::string message = "cannot write " + impl_->path + ": " + std::strerror(error);
        delete impl_;
        throw std::runtime_error(message);
    }
    impl_->out << std::setprecision(17);
}

AtomicFile::~AtomicFile() {
    if (!impl_->committed) {
        impl_->out.close();
        std::remove(impl_->tmp.c_str());
    }
    delete impl_;
}

std::ostream& AtomicFile::stream() {
    return impl_->out;
}

void AtomicFile::commit() {
    impl_->out.flush();
    bool ok = static_cast<bool>(impl_->out);
    impl_->out.close();
    if (!ok) throw std::runtime_error("cannot write " + impl_->path + " (disk full or read-only?)");
    std::error_code ec;
    std::filesystem::rename(impl_->tmp, impl_->path, ec);
    if (ec) throw std::runtime_error("cannot write " + impl_->path + ": " + ec.message());
    impl_->committed = true;
}

}  // namespace cl
