#include "core/store/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

namespace cl {

namespace {

// What happened in words, then SQLite's own detail: "the disk is full (SQLite: database or
// disk is full)". The words come from the primary result code of the failure.
std::string describe(sqlite3* db, int rc) {
    const int code = (db ? sqlite3_extended_errcode(db) : rc) & 0xff;
    const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    const char* words = nullptr;
    switch (code) {
        case SQLITE_FULL:
            words = "the disk is full (or the file reached its size limit); nothing of this step was written";
            break;
        case SQLITE_READONLY:
            words =
                "the workspace is read-only (the file or its folder is write-protected, or the disk is "
                "mounted read-only); nothing was changed";
            break;
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
            words = "the file is damaged or not a ClusterLoom workspace";
            break;
        case SQLITE_BUSY:
            words = "the workspace is locked by another process; try again when it has finished";
            break;
        case SQLITE_LOCKED:
            words = "the workspace is in use by another operation of this program; try again";
            break;
        case SQLITE_IOERR:
            words = "reading or writing the file failed (disk or file-system error)";
            break;
        case SQLITE_CANTOPEN:
            words = "the file cannot be opened (missing folder or no permission)";
            break;
        case SQLITE_PERM:
        case SQLITE_AUTH:
            words = "permission denied";
            break;
        default:
            break;
    }
    if (!words) return detail;
    return std::string(words) + " (SQLite: " + detail + ")";
}

}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql, const std::string& file) : db_(db), file_(&file) {
    const char* tail = nullptr;
    int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                &stmt_, &tail);
    if (rc != SQLITE_OK) fail("cannot prepare '" + std::string(sql.substr(0, 60)) + "'");
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)), file_(other.file_) {}

Statement::~Statement() {
    if (stmt_) sqlite3_finalize(stmt_);
}

void Statement::fail(const std::string& what) const {
    throw StoreError(*file_ + ": " + what + ": " + describe(db_, SQLITE_ERROR));
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
    return *this;
}

Statement& Statement::bind(int index, double value) {
    if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    if (sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) !=
        SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
    return *this;
}

Statement& Statement::bindBlob(int index, std::span<const unsigned char> bytes) {
    // A zero-length blob must still be a blob, not NULL: pass a valid pointer.
    static const unsigned char empty = 0;
    const void* data = bytes.empty() ? &empty : bytes.data();
    if (sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
    return *this;
}

Statement& Statement::bindNull(int index) {
    if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail("cannot bind parameter " + std::to_string(index));
    return *this;
}

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    std::string msg = *file_ + ": " + describe(db_, rc);
    sqlite3_reset(stmt_);
    throw StoreError(msg);
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::int64At(int column) const {
    return sqlite3_column_int64(stmt_, column);
}
double Statement::doubleAt(int column) const {
    return sqlite3_column_double(stmt_, column);
}
bool Statement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::string Statement::textAt(int column) const {
    const unsigned char* text = sqlite3_column_text(stmt_, column);
    if (!text) return {};
    return std::string(reinterpret_cast<const char*>(text),
                       static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::vector<unsigned char> Statement::blobAt(int column) const {
    const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(stmt_, column));
    const int size = sqlite3_column_bytes(stmt_, column);
    if (!data || size <= 0) return {};
    return std::vector<unsigned char>(data, data + size);
}

SqliteDb::SqliteDb(const std::string& path, Mode mode) : path_(path) {
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
        case Mode::ReadWriteCreate:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
            break;
        case Mode::ReadWrite:
            flags |= SQLITE_OPEN_READWRITE;
            break;
        case Mode::ReadOnly:
            flags |= SQLITE_OPEN_READONLY;
            break;
    }
    int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = path + ": cannot open the database: " + describe(db_, rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError(msg);
    }
    sqlite3_extended_result_codes(db_, 1);
    // Another process may be writing (a sweep next to the GUI): wait for its lock rather
    // than failing at once.
    sqlite3_busy_timeout(db_, 30000);
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

SqliteDb::~SqliteDb() {
    if (db_) sqlite3_close_v2(db_);
}

void SqliteDb::fail(const std::string& what) const {
    throw StoreError(path_ + ": " + what + ": " + describe(db_, 0));
}

void SqliteDb::exec(std::string_view sql) {
    std::string text(sql);
    char* err = nullptr;
    int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = path_ + ": " + describe(db_, rc);
        sqlite3_free(err);
        throw StoreError(msg);
    }
}

Statement SqliteDb::prepare(std::string_view sql) {
    return Statement(db_, sql, path_);
}
bool SqliteDb::isReadOnly() const {
    return sqlite3_db_readonly(db_, "main") == 1;
}

std::int64_t SqliteDb::lastInsertId() const {
    return sqlite3_last_insert_rowid(db_);
}
int SqliteDb::changes() const {
    return sqlite3_changes(db_);
}

ReadSnapshot::ReadSnapshot(SqliteDb& db) : db_(db), owns_(sqlite3_get_autocommit(db.handle()) != 0) {
    if (owns_) db_.exec("BEGIN DEFERRED");
}

ReadSnapshot::~ReadSnapshot() {
    if (!owns_) return;
    try {
        db_.exec("COMMIT");
    } catch (const StoreError&) {
    }
}

Transaction::Transaction(SqliteDb& db) : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
    db_.exec(nested_ ? "SAVEPOINT nested" : "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (done_) return;
    try {
        db_.exec(nested_ ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK");
    } catch (const StoreError&) {
        // The transaction may already have been rolled back by SQLite itself (e.g. on a full disk).
    }
}

void Transaction::commit() {
    db_.exec(nested_ ? "RELEASE nested" : "COMMIT");
    done_ = true;
}

}  // namespace cl
