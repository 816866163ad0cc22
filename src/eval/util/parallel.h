#pragma once
// Intra-operator parallelism: one process-wide pool of worker threads, and
// the number of threads the operator running on this thread may use. A
// Session sets that number for the length of a run (IntraOpThreads); eager
// calls leave it at 1, so tiny eager operators never pay for a hand-off.
#include <cstdint>
#include <functional>

namespace onnxscript::eval {

/// Threads the operator running on this thread may use, itself included
/// (1 outside a Session run, and inside a worker of the pool).
int intra_op_threads();

/// The machine's hardware threads (at least 1).
int hardware_threads();

/// Sets intra_op_threads() on this thread until the scope ends.
class IntraOpThreads {
 public:
  /// `threads` < 1 means 1.
  explicit IntraOpThreads(int threads);
  IntraOpThreads(const IntraOpThreads&) = delete;
  IntraOpThreads& operator=(const IntraOpThreads&) = delete;
  ~IntraOpThreads();

 private:
  int previous_;
};

/// Calls fn(begin, end) on disjoint ranges covering [0, n), on up to
/// intra_op_threads() threads (the caller among them), and returns when all
/// are done. There are a few ranges per thread, taken by whichever thread
/// is free, so one thread starting late does not hold the others up. Ranges
/// hold at least `grain` items, so small loops stay on the calling thread. An exception thrown by
/// fn is rethrown here (the first one, after every range has finished).
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

/// parallel_for with one range per thread, for work whose every range pays a
/// fixed cost of its own: each block of a GEMM packs its own copy of the
/// shared operand, so four blocks per thread packed B four times as often
/// (vit_s_16 at 2 threads: bench/README.md).
void parallel_split(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace onnxscript::eval
