#pragma once
// A small RAII layer over the sqlite3 C API: a connection, prepared statements and
// transactions. Every failure throws StoreError naming the database file.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace cl {

class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Statement {
public:
    Statement(sqlite3* db, std::string_view sql, const std::string& file);
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;
    Statement(const Statement&) = delete;
    ~Statement();

    // Parameters are 1-based, as in SQL's ?1, ?2, ...
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }
    Statement& bindBlob(int index, std::span<const unsigned char> bytes);
    Statement& bindNull(int index);

    // Advances; true while a row is available.
    bool step();
    // Runs a statement that returns no rows (or ignores them).
    void run();
    // Ready for new bindings and another run.
    void reset();

    std::int64_t int64At(int column) const;
    int intAt(int column) const { return static_cast<int>(int64At(column)); }
    double doubleAt(int column) const;
    std::string textAt(int column) const;
    std::vector<unsigned char> blobAt(int column) const;
    bool isNull(int column) const;

private:
    [[noreturn]] void fail(const std::string& what) const;
    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
    const std::string* file_ = nullptr;
};

class SqliteDb {
public:
    enum class Mode { ReadWriteCreate, ReadWrite, ReadOnly };
    SqliteDb(const std::string& path, Mode mode);
    SqliteDb(SqliteDb&& other) noexcept;
    SqliteDb& operator=(SqliteDb&&) = delete;
    SqliteDb(const SqliteDb&) = delete;
    ~SqliteDb();

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql);
    std::int64_t lastInsertId() const;
    int changes() const;
    const std::string& path() const { return path_; }
    sqlite3* handle() const { return db_; }
    // True when SQLite opened the file read-only (a write-protected file or directory).
    bool isReadOnly() const;
    [[noreturn]] void fail(const std::string& what) const;

private:
    sqlite3* db_ = nullptr;
    std::string path_;
};

// A consistent view for several reads while another process may commit in between (BEGIN
// DEFERRED ... COMMIT); nothing inside another transaction, which already is one.
class ReadSnapshot {
public:
    explicit ReadSnapshot(SqliteDb& db);
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;
    ~ReadSnapshot();

private:
    SqliteDb& db_;
    bool owns_ = false;
};

// BEGIN IMMEDIATE (takes the write lock up front, so a busy database waits at the start
// rather than failing half-way); rolls back unless commit() was called. Inside another
// transaction it is a savepoint, so that operations that are atomic on their own can also be
// combined into one atomic step.
class Transaction {
public:
    explicit Transaction(SqliteDb& db);
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();
    void commit();

private:
    SqliteDb& db_;
    bool nested_ = false;
    bool done_ = false;
};

}  // namespace cl
