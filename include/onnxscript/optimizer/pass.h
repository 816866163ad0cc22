#pragma once
/// \file
/// Passes over a model and the PassManager that runs them to a fixed point.
///
/// A pass is a small named unit: run(model) changes the model in place and
/// says whether it changed anything, and counts what it did (nodes removed,
/// folded, rewritten; initializers, functions and opset imports removed).
/// Writing one: derive from Pass, give it a name, implement run_once(), and
/// count through counts(). A pass must be idempotent at its fixed point: a run
/// that changes nothing returns false, or the manager would never stop.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::optimizer {

/// What a pass did, summed over its runs.
struct PassCounts {
  size_t nodes_removed = 0;    ///< Nodes erased (dead, no-op, duplicate, inlined calls).
  size_t nodes_folded = 0;     ///< Nodes replaced by constants.
  size_t nodes_rewritten = 0;  ///< Nodes replaced by other nodes (inlined bodies, If branches).
  size_t initializers_removed = 0;  ///< Initializers dropped (unused or duplicate).
  size_t functions_removed = 0;     ///< Model-local functions dropped.
  size_t opsets_removed = 0;        ///< Opset imports dropped.

  /// Adds `other`'s counts to these.
  PassCounts& operator+=(const PassCounts& other);
  /// True when every count is zero.
  bool empty() const;
};

/// A transformation of a model. Subclasses implement run_once().
class Pass {
 public:
  virtual ~Pass() = default;
  /// The pass's name, as `onnxscript optimize --passes` takes it: "dce", "fold", ...
  virtual std::string_view name() const = 0;
  /// Runs the pass once over `model`; true when it changed anything. The
  /// counts of this run are added to counts().
  bool run(ir::Model& model) { return run_once(model); }
  /// What the pass has done over all its runs.
  const PassCounts& counts() const { return counts_; }
  /// Sets the counts back to zero.
  void reset_counts() { counts_ = {}; }

 protected:
  /// One run over the model; true when it changed anything.
  virtual bool run_once(ir::Model& model) = 0;
  /// The counts, for the pass to add to.
  PassCounts& mutable_counts() { return counts_; }

 private:
  PassCounts counts_;
};

/// What one pass did within a PassManager run.
struct PassStats {
  std::string name;         ///< The pass's name.
  size_t runs = 0;          ///< How often it ran.
  size_t changed_runs = 0;  ///< How many of those runs changed the model.
  PassCounts counts;        ///< What it did over all runs.
  double seconds = 0;       ///< Time spent in it.
};

/// The outcome of PassManager::run.
struct PassManagerResult {
  int iterations = 0;             ///< Rounds over the whole list.
  bool changed = false;           ///< Some pass changed the model.
  bool fixed_point = false;       ///< The last round changed nothing (false: the cap stopped it).
  std::vector<PassStats> passes;  ///< Per pass, in list order.
  double seconds = 0;             ///< Total time.
};

/// Runs a list of passes, in order, round after round, until a round changes
/// nothing or `max_iterations` rounds have run.
class PassManager {
 public:
  /// A manager over `passes`; at most `max_iterations` rounds (at least 1).
  explicit PassManager(std::vector<std::unique_ptr<Pass>> passes, int max_iterations = 8);
  /// Runs the passes over `model` to a fixed point (or the cap).
  PassManagerResult run(ir::Model& model);
  /// The passes, in order.
  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
  int max_iterations_;
};

}  // namespace onnxscript::optimizer
