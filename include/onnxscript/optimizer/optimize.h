#pragma once
/// \file
/// optimize(): the default pass list, run to a fixed point.

#include <cstddef>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/optimizer/pass.h"
#include "onnxscript/optimizer/passes.h"

namespace onnxscript::optimizer {

/// How optimize() runs.
struct OptimizeOptions {
  /// The passes to run, by name (pass_names()); empty: every pass, in the
  /// default order.
  std::vector<std::string> passes;
  /// Options of constant folding (its size limit).
  FoldOptions fold;
  /// Rounds over the pass list at most.
  int max_iterations = 8;
};

/// Optimizes `model` in place and reports what each pass did.
PassManagerResult optimize(ir::Model& model, const OptimizeOptions& options = {});

/// Optimizes `model`, then optimizes the result once more and throws Error
/// when that second run changes anything (a pass reports a change, or the
/// printed model differs): optimize() must leave a model at its fixed point.
/// For the property tests and `onnxscript conformance --optimize`.
PassManagerResult optimize_checked(ir::Model& model, const OptimizeOptions& options = {});

}  // namespace onnxscript::optimizer
