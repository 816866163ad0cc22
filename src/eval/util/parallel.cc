#include "eval/util/parallel.h"

#include <algorithm>
#include <atomic>
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

// A fixed set of workers that take tasks from one queue. Created on first
// use with one worker fewer than the machine has hardware threads (the
// calling thread is the other), and never destroyed: workers idle on a
// condition variable, and tearing them down at exit would race with static
// destructors of whatever they might still touch.
class WorkerPool {
 public:
  explicit WorkerPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
    for (std::thread& t : threads_) t.detach();
  }
  int workers() const { return static_cast<int>(threads_.size()); }
  void submit(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    ready_.notify_one();
  }

 private:
  void work() {
    current_threads = 1;  // nested parallel_for calls run inline
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !tasks_.empty(); });
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
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
  std::mutex mutex;
  std::condition_variable all_done;
  int64_t finished = 0;  // guarded by mutex
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
      std::lock_guard<std::mutex> lock(mutex);
      if (failure && !error) error = failure;
      if (++finished == chunks) all_done.notify_all();
    }
  }
};

}  // namespace

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(1, grain);
  int64_t chunks = std::min<int64_t>(current_threads, (n + grain - 1) / grain);
  if (chunks > 1) chunks = std::min<int64_t>(chunks, pool().workers() + 1);
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->n = n;
  job->chunks = chunks;
  for (int64_t c = 1; c < chunks; ++c) pool().submit([job] { job->work(); });
  job->work();
  std::unique_lock<std::mutex> lock(job->mutex);
  job->all_done.wait(lock, [&] { return job->finished == job->chunks; });
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace onnxscript::eval
