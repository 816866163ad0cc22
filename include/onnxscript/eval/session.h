#pragma once
/// \file
/// Session: runs a whole model many times after planning it once.
///
/// Planning (in the constructor) orders the nodes topologically, resolves each
/// node to a kernel, a model-local function or an ONNX schema function body,
/// assigns every value a slot in a frame, and works out after which step each
/// slot can be released. A run then only moves values between slots and calls
/// kernels: no proto, no lookups by name, no maps.
///
/// Subgraphs (If, Loop, Scan, SequenceMap bodies) are planned too, with their
/// outer-scope references bound to the enclosing frame. Function calls are
/// planned per call site, with their attributes (references and defaults)
/// resolved at that site.

#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/model.h"

namespace onnxscript::eval {

namespace detail {
struct Plan;
struct PlanContext;
}  // namespace detail

/// Options of a Session.
struct SessionOptions {
  /// Check inputs against the declared types and static dimensions of the
  /// graph inputs before running. Symbolic and unknown dimensions match anything.
  bool check_inputs = true;
  /// With check_inputs, also check ranks and static dimensions (not only
  /// kinds and element types). The conformance runner turns this off: some
  /// ONNX test data disagree with the shapes their models declare.
  bool check_input_shapes = true;
  /// How deeply function calls may nest before planning gives up (guards
  /// against recursive functions).
  int max_function_depth = 64;
  /// Threads a run may use inside an operator (Conv, GEMM, pooling,
  /// Softmax, large element-wise loops), the calling thread included, from
  /// one process-wide pool. 0: as many as the machine has hardware threads.
  /// GEMMs are split over these threads, each block one single-threaded BLAS
  /// call: for the length of a run the session sets OpenBLAS (a process-wide
  /// setting) to one thread, and restores its count afterwards.
  int intra_op_threads = 0;
  /// Keep the buffers that a run's tensors give back, by size, and serve the
  /// next allocations of those sizes from them: repeated runs then reuse
  /// memory instead of faulting fresh pages in. Idle buffers stay with the
  /// session (at most 1 GiB of them) until it is destroyed.
  bool reuse_buffers = true;
  /// Prepare the graph for speed, as ONNX Runtime's graph optimizations do,
  /// without changing the model or any result beyond rounding:
  /// - a node whose inputs are all constants (initializers that are not
  ///   graph inputs, or outputs of such nodes) runs once, when the session is
  ///   planned, unless its operator is random;
  /// - BatchNormalization after a Conv with constant weights is folded into
  ///   those weights;
  /// - a Conv's Relu, Clip, LeakyRelu or Sigmoid is applied as the Conv
  ///   writes its output;
  /// - the Erf form of Gelu (x * 0.5 * (1 + erf(x / sqrt 2))) runs as one Gelu;
  /// - MatMul by a constant matrix followed by Add of a constant row bias
  ///   runs as one GEMM over rows that start as the bias;
  /// - Relu of an Add runs as one pass.
  /// Off, every node runs as written, on every run.
  bool optimize = true;
};

/// A planned model, ready to run.
///
/// run() may be called concurrently from several threads: each run owns its
/// frames, and the only state shared between runs (bodies of context-dependent
/// schema functions, expanded on first use) is guarded by a mutex.
class Session {
 public:
  /// Plans `model`, which the session keeps. Throws ValidationError for a
  /// malformed graph (a cycle, an undefined value, an unimported domain).
  explicit Session(ir::Model model, SessionOptions options = {});
  /// Plans a model shared with the caller, who must not modify it while the
  /// session lives.
  explicit Session(std::shared_ptr<const ir::Model> model, SessionOptions options = {});
  /// Loads the model file (external data included) and plans it.
  static Session load(const std::filesystem::path& path, SessionOptions options = {});

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();

  /// Runs the model with inputs given in the order of the graph inputs. Graph
  /// inputs that have an initializer (IR < 4 style) may be left out from the end.
  /// Returns the graph outputs in order.
  std::vector<RuntimeValue> run(std::span<const RuntimeValue> inputs) const;
  /// Runs the model with inputs given in order: `session.run({x, y})`.
  std::vector<RuntimeValue> run(std::initializer_list<RuntimeValue> inputs) const {
    return run(std::span<const RuntimeValue>(inputs.begin(), inputs.size()));
  }
  /// Runs the model with inputs given by name.
  std::vector<RuntimeValue> run(
      const std::map<std::string, RuntimeValue, std::less<>>& inputs) const;

  /// Names of the graph inputs, in order (including those with initializers).
  std::vector<std::string> input_names() const;
  /// Names of the graph outputs, in order.
  std::vector<std::string> output_names() const;
  /// The model being run.
  const ir::Model& model() const { return *model_; }

  /// Operators that have neither a kernel nor a function body, each as
  /// "<domain.>Op-version". Running a path through one of them throws; this
  /// lets tools report them before running.
  std::vector<std::string> missing_kernels() const;

  /// The operators the main graph's plan runs, in order, each as "Op" for
  /// ONNX operators and "domain.Op" otherwise ("onnxscript.internal.FusedConv").
  /// Shows what SessionOptions::optimize folded away and fused.
  std::vector<std::string> planned_operators() const;

 private:
  void plan();
  std::vector<RuntimeValue> run_checked(std::vector<RuntimeValue> inputs,
                                        std::vector<bool> given) const;

  std::shared_ptr<const ir::Model> model_;
  SessionOptions options_;
  std::unique_ptr<detail::PlanContext> context_;
  std::unique_ptr<detail::Plan> main_;
};

}  // namespace onnxscript::eval
