#pragma once
// The one way the product runs independent pieces of work at once (docs/architecture.md 1.2):
// `run`, `sweep` and `plan` on the command line, the paper experiments and the desktop's run
// batches all go through ParallelRunner, so a thread count, a Ctrl-C or a Stop button means
// the same everywhere.
//
// The caller's thread prepares each piece of work and receives each outcome, in completion
// order; only the work itself runs on worker threads. Whatever the caller touches in prepare
// and finished (a SQLite connection, an output stream) is therefore used from one thread.
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>

namespace cl {

class ParallelRunner {
public:
    // A piece of work for a worker thread; an empty function means "nothing to run" for that
    // index (finished is not called for it).
    using Work = std::function<void()>;
    using Prepare = std::function<Work(std::size_t index)>;
    // error is null when the work returned, else what it threw.
    using Finished = std::function<void(std::size_t index, std::exception_ptr error)>;
    // Called for every piece of work that was running when prepare or finished threw, after
    // it returned (its outcome is dropped), before the exception reaches the caller of run.
    using Abandoned = std::function<void(std::size_t index)>;

    // threads <= 0: one per core.
    explicit ParallelRunner(int threads = 0);

    // For each index in [0, count), in order: prepare(index) on this thread, then its work on
    // a worker thread (at most `threads` at a time); finished(index, error) on this thread as
    // each piece of work ends. Stops preparing once cancel() was called. If prepare or
    // finished throws, the runner cancels, waits for the running work, calls abandoned for
    // each and rethrows.
    void run(std::size_t count, const Prepare& prepare, const Finished& finished,
             const Abandoned& abandoned = {});

    // No further work is prepared; running work learns it from cancelled() (a simulation's
    // progress callback returns !cancelled()). Callable from any thread.
    void cancel() { cancelled_.store(true); }
    bool cancelled() const { return cancelled_.load(); }
    const std::atomic<bool>& cancelledFlag() const { return cancelled_; }

    int threads() const { return threads_; }

    // The thread count for `requested`: <= 0 is one per core; at most four per core.
    static int threadCount(int requested);

private:
    int threads_;
    std::atomic<bool> cancelled_{false};
};

// Runs body(i) for every i in [0, count) on at most `threads` threads (<= 0: one per core)
// and rethrows the first exception once every call has ended.
void parallelFor(std::size_t count, int threads, const std::function<void(std::size_t)>& body);

}  // namespace cl
