#include "eval/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace onnxscript::eval {
namespace {

thread_local int current_threads = 1;

// How an idle thread of the pool (or a caller waiting for the rest of its
// job) waits: it polls for kSpin, executing `pause` between polls, then
// blocks on a condition variable, so an idle Session burns no CPU after
// kSpin. A CNN in a Session makes one or two parallel_for calls per node,
// ~100 per run for mobilenet_v2, with serial work of microseconds to tens of
// microseconds between them; a worker that blocked after each job paid a
// futex wake-up and a context switch (several microseconds, more on a VM)
// on the critical path of the next one, and the lead's perf at 2 threads on
// a quiet machine showed much of the kernels' time there.
//
// Why 20 us and no longer, measured on the project's 2-core VM with load
// average ~7 from other builds (mobilenet_v2 / resnet18 at 2 threads,
// median ms of 30 runs, 3 rounds, bench/README.md): no polling 6.7-7.0 /
// 31.6-33.5, 20 us 7.3-7.4 / 30.4-40.1, 50 us with sched_yield after 5 us
// 10.8-11.1 / 31.8-33.7 (a yielding thread loses its time slice to the
// other processes). On a loaded machine a polling thread competes with the
// ones it waits for, so the window is kept short; the gain on a quiet
// machine (no futex round trip per call) could not be measured here.
constexpr std::chrono::microseconds kSpin{20};

// One step of a busy poll: a hint to the CPU that this is a spin-wait.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Polls `done` for up to kSpin; true when it became true.
template <typename Done>
bool spin_until(Done&& done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (done()) return true;
    spin_pause();
    if ((i & 15) == 15 && std::chrono::steady_clock::now() > deadline) return false;
  }
}

// Chunks per thread of a parallel_for. One chunk per thread made the slowest
// thread set the pace: a worker that starts late (woken late, or preempted
// on a busy machine) held the caller up for its whole chunk, and at 2
// threads perf showed the caller doing most of the work alone. With a few
// chunks each, claimed from a counter, whoever is running takes the next.
constexpr int64_t kChunksPerThread = 4;

// A fixed set of workers that take tasks from one queue. Created on first
// use with one worker fewer than the machine has hardware threads (the
// calling thread is the other), and never destroyed: workers idle on a
// condition variable, and tearing them down at exit would race with static
// destructors of whatever they might still touch. An idle worker first
// polls `pending_` for kSpin, then sleeps; submit() signals the condition
// variable only when a worker sleeps.
class WorkerPool {
 public:
  explicit WorkerPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
    for (std::thread& t : threads_) t.detach();
  }
  int workers() const { return static_cast<int>(threads_.size()); }
  void submit(std::function<void()> task) {
    bool wake = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks_.push_back(std::move(task));
      pending_.fetch_add(1, std::memory_order_release);
      wake = sleepers_ > 0;
    }
    if (wake) ready_.notify_one();
  }

 private:
  void work() {
    current_threads = 1;  // nested parallel_for calls run inline
    for (;;) {
      spin_until([this] { return pending_.load(std::memory_order_acquire) > 0; });
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (tasks_.empty()) {
          // sleepers_ changes under the mutex that submit() holds while it
          // pushes, so a task pushed after this check finds the sleeper.
          ++sleepers_;
          ready_.wait(lock, [this] { return !tasks_.empty(); });
          --sleepers_;
        }
        task = std::move(tasks_.front());
        tasks_.pop_front();
        pending_.fetch_sub(1, std::memory_order_relaxed);
      }
      task();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;  // guarded by mutex_
  int sleepers_ = 0;                         // guarded by mutex_
  std::atomic<int64_t> pending_{0};          // tasks_.size(), readable without the mutex
};

WorkerPool& pool() {
  static WorkerPool* p = new WorkerPool(std::max(1, hardware_threads() - 1));
  return *p;
}

}  // namespace

int intra_op_threads() { return current_threads; }

int hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

IntraOpThreads::IntraOpThreads(int threads) : previous_(current_threads) {
  current_threads = std::max(1, threads);
}

IntraOpThreads::~IntraOpThreads() { current_threads = previous_; }

namespace {

// One parallel_for call. Chunks are claimed from a counter, by the caller
// and by whichever workers get to the job, so a worker that the scheduler
// starts late (on a busy machine) finds the work already done instead of
// holding the caller up. Workers hold the job by shared_ptr: one may look at
// it after the caller has returned.
struct Job {
  const std::function<void(int64_t, int64_t)>* fn = nullptr;
  int64_t n = 0;
  int64_t chunks = 0;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> finished{0};
  std::mutex mutex;  // guards error, and the wait on all_done
  std::condition_variable all_done;
  std::exception_ptr error;

  // Runs chunks until none is left unclaimed.
  void work() {
    for (int64_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) {
      std::exception_ptr failure;
      try {
        (*fn)(n * c / chunks, n * (c + 1) / chunks);
      } catch (...) {
        failure = std::current_exception();
      }
      if (failure) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error) error = failure;
      }
      if (finished.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks) {
        // Under the mutex, so a caller between its check and its wait
        // cannot miss the signal.
        std::lock_guard<std::mutex> lock(mutex);
        all_done.notify_all();
      }
    }
  }
  bool done() const { return finished.load(std::memory_order_acquire) == chunks; }
};

}  // namespace

namespace {

void run_split(int64_t n, int64_t grain, int64_t chunks_per_thread,
               const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(1, grain);
  const int64_t most = n / grain;  // chunks of at least `grain` items
  if (current_threads <= 1 || most <= 1) {
    fn(0, n);
    return;
  }
  const int64_t threads = std::min<int64_t>(current_threads, pool().workers() + 1);
  const int64_t chunks = std::min<int64_t>(most, threads * chunks_per_thread);
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->n = n;
  job->chunks = chunks;
  const int64_t helpers = std::min<int64_t>(threads - 1, chunks - 1);
  for (int64_t h = 0; h < helpers; ++h) pool().submit([job] { job->work(); });
  job->work();
  // The other chunks usually finish within microseconds of the caller's;
  // poll before sleeping (kSpin).
  if (!spin_until([&] { return job->done(); })) {
    std::unique_lock<std::mutex> lock(job->mutex);
    job->all_done.wait(lock, [&] { return job->done(); });
  }
  // Every chunk's fetch_add on `finished` (release) came after its write of
  // `error`, and done() read it (acquire): no lock needed.
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  run_split(n, grain, kChunksPerThread, fn);
}

void parallel_split(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  run_split(n, grain, 1, fn);
}

}  // namespace onnxscript::eval
