#include "core/util/parallel_runner.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace cl {

namespace {

// Ends of work, handed from the worker threads to the caller's thread.
struct Outcomes {
    std::mutex mutex;
    std::condition_variable ended;
    std::deque<std::pair<std::size_t, std::exception_ptr>> queue;

    void push(std::size_t index, std::exception_ptr error) {
        {
            std::lock_guard lock(mutex);
            queue.emplace_back(index, std::move(error));
        }
        ended.notify_one();
    }
    std::pair<std::size_t, std::exception_ptr> pop() {
        std::unique_lock lock(mutex);
        ended.wait(lock, [&] { return !queue.empty(); });
        auto front = std::move(queue.front());
        queue.pop_front();
        return front;
    }
};

}  // namespace

int ParallelRunner::threadCount(int requested) {
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    // More than four simulations per core only add memory.
    return requested > 0 ? std::min(requested, 4 * cores) : cores;
}

ParallelRunner::ParallelRunner(int threads) : threads_(threadCount(threads)) {}

void ParallelRunner::run(std::size_t count, const Prepare& prepare, const Finished& finished,
                         const Abandoned& abandoned) {
    Outcomes outcomes;
    // One thread per running piece of work, joined as soon as its outcome is taken, so no
    // thread outlives run() and `outcomes`.
    std::vector<std::thread> workers(count);
    std::vector<std::size_t> running;
    auto join = [&](std::size_t index) {
        if (workers[index].joinable()) workers[index].join();
        running.erase(std::find(running.begin(), running.end(), index));
    };
    std::size_t next = 0;
    try {
        while (true) {
            while (!cancelled() && next < count && static_cast<int>(running.size()) < threads_) {
                const std::size_t index = next++;
                Work work = prepare(index);
                if (!work) continue;
                running.push_back(index);
                workers[index] = std::thread([&outcomes, index, work = std::move(work)] {
                    std::exception_ptr error;
                    try {
                        work();
                    } catch (...) {
                        error = std::current_exception();
                    }
                    outcomes.push(index, std::move(error));
                });
            }
            if (running.empty()) break;
            auto [index, error] = outcomes.pop();
            join(index);
            finished(index, std::move(error));
        }
    } catch (...) {
        cancel();
        while (!running.empty()) {
            const std::size_t index = outcomes.pop().first;
            join(index);
            if (abandoned) abandoned(index);
        }
        throw;
    }
}

void parallelFor(std::size_t count, int threads, const std::function<void(std::size_t)>& body) {
    ParallelRunner runner(threads);
    std::exception_ptr first_error;
    runner.run(
        count, [&](std::size_t index) -> ParallelRunner::Work { return [&body, index] { body(index); }; },
        [&](std::size_t, std::exception_ptr error) {
            if (error && !first_error) first_error = std::move(error);
        });
    if (first_error) std::rethrow_exception(first_error);
}

}  // namespace cl
