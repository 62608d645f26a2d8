// GPU placements of the policies (core/policies/placement.h, docs/architecture.md section 4.4) on
// fragmented pools, where best fit, first fit and placement by count choose different GPUs.
// (tests/core/test_placement.cpp is the topology placement simulator, section 6.)
#include <QtTest>

#include <random>
#include <vector>

#include "core/policies/free_counts.h"
#include "core/policies/gpu_pool.h"
#include "core/policies/placement.h"

using namespace cl;

namespace {

Cluster serversOf(const std::vector<int>& gpus) {
    Cluster c;
    c.name = "pool";
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        Server s;
        s.name = "s" + std::to_string(i);
        s.gpus = gpus[i];
        c.servers.push_back(s);
    }
    return c;
}

std::vector<int> place(const Placement& p, int gpus, GpuPool& pool) {
    std::vector<int> out;
    if (!p.place(gpus, pool, out)) return {-1};
    return out;
}

// Three 4-GPU servers (GPUs 0-3, 4-7, 8-11) with 3, 1 and 2 GPUs free.
GpuPool fragmented(const Cluster& c) {
    GpuPool pool(c);
    pool.take(0);                          // server 0: 1, 2, 3 free
    for (int g : {4, 5, 6}) pool.take(g);  // server 1: 7 free
    for (int g : {8, 9}) pool.take(g);     // server 2: 10, 11 free
    return pool;
}

}  // namespace

class TestGpuPlacement : public QObject {
    Q_OBJECT

private slots:
    // One GPU: best fit takes the server with the fewest free GPUs (server 1, GPU 7); first fit
    // the first server with room (server 0, GPU 1).
    void oneGpuOnAFragmentedPool() {
        const Cluster c = serversOf({4, 4, 4});
        GpuPool a = fragmented(c), b = fragmented(c), d = fragmented(c);
        QCOMPARE(place(*makeConsolidatedPlacement(false), 1, a), (std::vector<int>{7}));
        QCOMPARE(place(*makeConsolidatedPlacement(true), 1, b), (std::vector<int>{1}));
        QCOMPARE(place(*makeFirstFitPlacement(), 1, d), (std::vector<int>{1}));
        QCOMPARE(a.serverFree(1), 0);
        QCOMPARE(a.serverFree(0), 3);
        QCOMPARE(a.totalFree(), 5);
    }

    // Two GPUs: best fit takes server 2 (2 free, an exact fit) over server 0 (3 free).
    void twoGpusTakeTheTightestServer() {
        const Cluster c = serversOf({4, 4, 4});
        GpuPool a = fragmented(c), b = fragmented(c);
        QCOMPARE(place(*makeConsolidatedPlacement(false), 2, a), (std::vector<int>{10, 11}));
        QCOMPARE(place(*makeConsolidatedPlacement(true), 2, b), (std::vector<int>{1, 2}));
        // Then a job of 3 finds server 0's three free GPUs under best fit; under first fit
        // only one GPU is left on each server: refused, and the pool is left as it was.
        QCOMPARE(place(*makeConsolidatedPlacement(false), 3, a), (std::vector<int>{1, 2, 3}));
        QCOMPARE(place(*makeConsolidatedPlacement(true), 3, b), (std::vector<int>{-1}));
        QCOMPARE(b.totalFree(), 4);
    }

    // Ties in free GPUs go to the lowest index; a different capacity does not matter, only
    // what is free.
    void bestFitTiesGoToTheLowestIndex() {
        const Cluster c = serversOf({8, 2, 4, 2});
        GpuPool pool(c);  // free: 8, 2, 4, 2
        QCOMPARE(place(*makeConsolidatedPlacement(false), 2, pool), (std::vector<int>{8, 9}));    // server 1
        QCOMPARE(place(*makeConsolidatedPlacement(false), 2, pool), (std::vector<int>{14, 15}));  // server 3
        QCOMPARE(place(*makeConsolidatedPlacement(false), 3, pool),
                 (std::vector<int>{10, 11, 12}));  // server 2
        QCOMPARE(place(*makeConsolidatedPlacement(false), 1, pool),
                 (std::vector<int>{13}));  // server 2's last
        QCOMPARE(place(*makeConsolidatedPlacement(false), 1, pool), (std::vector<int>{0}));  // server 0
    }

    // Servers of 4 and 3 GPUs, jobs of 3, 2 and 2 GPUs. Best fit puts the 3-GPU job on the
    // 3-GPU server and both 2-GPU jobs fit on the 4-GPU one. First fit puts the 3-GPU job on the
    // 4-GPU server, the first 2-GPU job on the other, and the last one finds one free GPU on each
    // server: refused (it does not fit on one server and no server is whole).
    void bestFitLeavesRoomWhereFirstFitFragments() {
        const Cluster c = serversOf({4, 3});
        GpuPool best(c), first(c);
        const auto bestFit = makeConsolidatedPlacement(false), firstFit = makeConsolidatedPlacement(true);
        QCOMPARE(place(*bestFit, 3, best), (std::vector<int>{4, 5, 6}));
        QCOMPARE(place(*bestFit, 2, best), (std::vector<int>{0, 1}));
        QCOMPARE(place(*bestFit, 2, best), (std::vector<int>{2, 3}));
        QCOMPARE(best.totalFree(), 0);
        QCOMPARE(place(*firstFit, 3, first), (std::vector<int>{0, 1, 2}));
        QCOMPARE(place(*firstFit, 2, first), (std::vector<int>{4, 5}));
        QCOMPARE(place(*firstFit, 2, first), (std::vector<int>{-1}));
        QCOMPARE(first.totalFree(), 2);
        QVERIFY(first.isFree(3) && first.isFree(6));
        // firstfit falls back to free GPUs in index order; count never looks at servers.
        GpuPool ff(c);
        QCOMPARE(place(*makeFirstFitPlacement(), 3, ff), (std::vector<int>{0, 1, 2}));
        QCOMPARE(place(*makeFirstFitPlacement(), 2, ff), (std::vector<int>{4, 5}));
        QCOMPARE(place(*makeFirstFitPlacement(), 2, ff), (std::vector<int>{3, 6}));
    }

    // A job larger than one server: whole free servers, then the rest on one server.
    // Servers {4, 2}: after a 2-GPU job, best fit has server 0 whole for a 4-GPU job; first
    // fit has put the 2-GPU job there and spreads the 4-GPU job over server 1 (whole) and
    // server 0's last two.
    void spillingOverWholeServers() {
        const Cluster c = serversOf({4, 2});
        GpuPool best(c), first(c);
        QCOMPARE(place(*makeConsolidatedPlacement(false), 2, best), (std::vector<int>{4, 5}));
        QCOMPARE(place(*makeConsolidatedPlacement(false), 4, best), (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(place(*makeConsolidatedPlacement(true), 2, first), (std::vector<int>{0, 1}));
        QCOMPARE(place(*makeConsolidatedPlacement(true), 4, first), (std::vector<int>{4, 5, 2, 3}));
    }

    // Larger than any server's free room: whole free servers, largest first, then the
    // best-fitting server for the remainder.
    void largeJobsTakeWholeServersThenTheBestFit() {
        const Cluster c = serversOf({4, 8, 4, 4});
        GpuPool pool(c);
        pool.take(0);  // server 0: 3 free
        pool.take(16);
        pool.take(17);  // server 3: 2 free (GPUs 18, 19)
        // 10 GPUs: server 1 whole (8), then 2 from the tightest server with 2 free: server 3.
        QCOMPARE(place(*makeConsolidatedPlacement(false), 10, pool),
                 (std::vector<int>{4, 5, 6, 7, 8, 9, 10, 11, 18, 19}));
        QCOMPARE(pool.totalFree(), 3 + 4);
    }

    void countIgnoresServers() {
        const Cluster c = serversOf({4, 4, 4});
        GpuPool pool = fragmented(c);
        QCOMPARE(place(*makeCountPlacement(), 4, pool), (std::vector<int>{1, 2, 3, 7}));
        QCOMPARE(place(*makeCountPlacement(), 3, pool), (std::vector<int>{-1}));
        QCOMPARE(pool.totalFree(), 2);
    }

    // Admission by free counts (Placement::admit, used by the exclusive mechanism's admission
    // walk) answers as placing on a pool does, job after job, and leaves the same number of
    // servers with each number of free GPUs: random demands up to three servers' worth, on
    // clusters of equal servers of several sizes.
    void admissionByCountsAgreesWithPlacing() {
        const auto bestFit = makeConsolidatedPlacement(false);
        QVERIFY(bestFit->decidesByFreeCounts());
        std::mt19937 rng(7);
        for (const auto& [servers, capacity] :
             std::vector<std::pair<int, int>>{{1, 4}, {3, 4}, {5, 8}, {70, 8}, {4, 2}}) {
            const Cluster c = serversOf(std::vector<int>(servers, capacity));
            std::uniform_int_distribution<int> demand(1, 3 * capacity);
            for (int round = 0; round < 40; ++round) {
                GpuPool pool(c);
                FreeCounts counts;
                QVERIFY(counts.assign(c));
                for (int job = 0; job < 4 * servers; ++job) {
                    // Mostly small jobs, as in the traces, so that pools fragment.
                    const int gpus = job % 3 == 0 ? demand(rng) : 1 + demand(rng) % capacity;
                    std::vector<int> out;
                    QCOMPARE(bestFit->admit(gpus, counts), bestFit->place(gpus, pool, out));
                    QCOMPARE(counts.total_free, pool.totalFree());
                    std::vector<int> with(capacity + 1, 0);
                    for (int s = 0; s < pool.servers(); ++s) ++with[pool.serverFree(s)];
                    QCOMPARE(counts.servers_with, with);
                }
            }
        }
    }

    // Counts do not decide for first fit (the first server by index) nor for servers of
    // different sizes.
    void countsDecideOnlyForBestFitOnEqualServers() {
        QVERIFY(!makeConsolidatedPlacement(true)->decidesByFreeCounts());
        QVERIFY(!makeFirstFitPlacement()->decidesByFreeCounts());
        QVERIFY(!makeCountPlacement()->decidesByFreeCounts());
        FreeCounts counts;
        QVERIFY(!counts.assign(serversOf({4, 8})));
        QVERIFY(counts.assign(serversOf({8, 8})));
        QCOMPARE(counts.total_free, 16);
        QCOMPARE(counts.servers_with, (std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0, 2}));
    }
};

QTEST_APPLESS_MAIN(TestGpuPlacement)
#include "test_gpu_placement.moc"
