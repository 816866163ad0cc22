// Tests for the intra-op thread pool (src/eval/util/parallel.h): ranges,
// errors, nesting, many back-to-back calls across the pool's poll-then-sleep
// wait, and an idle pool that uses no CPU.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "eval/util/parallel.h"

namespace onnxscript::eval {
namespace {

// Each index of [0, n) is visited exactly once, in ranges of at least
// `grain` items (or one range of all n when n < grain).
TEST(ParallelFor, RangesCoverEveryIndexOnce) {
  for (int threads : {1, 2, 3, 8}) {
    IntraOpThreads scope(threads);
    for (int64_t n : {1, 2, 7, 64, 1000, 4097})
      for (int64_t grain : {1, 3, 100}) {
        std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
        parallel_for(n, grain, [&](int64_t begin, int64_t end) {
          ASSERT_LT(begin, end);
          ASSERT_GE(end - begin, std::min(grain, n));
          for (int64_t i = begin; i < end; ++i) ++seen[i];
        });
        for (int64_t i = 0; i < n; ++i)
          ASSERT_EQ(seen[i].load(), 1) << "threads " << threads << " n " << n << " i " << i;
      }
  }
}

TEST(ParallelFor, RethrowsAnErrorAfterEveryRangeFinished) {
  IntraOpThreads scope(2);
  std::atomic<int64_t> visited{0};
  EXPECT_THROW(parallel_for(1000, 1,
                            [&](int64_t begin, int64_t end) {
                              visited += end - begin;
                              if (begin == 0) throw std::runtime_error("range 0");
                            }),
               std::runtime_error);
  EXPECT_EQ(visited.load(), 1000);
}

// A parallel_for inside a range runs on that thread (workers run with one
// thread), and finishes.
TEST(ParallelFor, NestedCallsFinish) {
  IntraOpThreads scope(2);
  std::atomic<int64_t> total{0};
  parallel_for(8, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      parallel_for(100, 1, [&](int64_t b, int64_t e) { total += e - b; });
  });
  EXPECT_EQ(total.load(), 800);
}

// Calls in quick succession (workers still polling) and after pauses longer
// than the polling window (workers asleep, woken by the next call) both
// complete with every index done.
TEST(ParallelFor, BackToBackAndAfterSleeping) {
  IntraOpThreads scope(2);
  for (int round = 0; round < 300; ++round) {
    std::atomic<int64_t> sum{0};
    parallel_for(64, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) sum += i;
    });
    ASSERT_EQ(sum.load(), 64 * 63 / 2) << "round " << round;
    if (round % 50 == 49) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// After the polling window the pool's workers sleep: the process uses
// (almost) no CPU while it idles.
TEST(ParallelFor, AnIdlePoolUsesNoCpu) {
  {
    IntraOpThreads scope(2);
    parallel_for(1000, 1, [](int64_t, int64_t) {});
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double before = process_cpu_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_LT(process_cpu_ms() - before, 20.0);
}

}  // namespace
}  // namespace onnxscript::eval
