#pragma once
/// \file
/// The built-in passes. Each is created by a factory here and lives in its
/// own file under src/optimizer/passes/. All of them keep the names of graph
/// outputs: where a graph output would become another value, an Identity
/// node is inserted under the output's name.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/optimizer/pass.h"

namespace onnxscript::optimizer {

/// "dce": removes nodes none of whose outputs is used (by a node, a
/// subgraph or a graph output), in the main graph, in function bodies and in
/// every subgraph. Nodes that the evaluator would not run without an effect
/// are all dead once unused: ONNX operators have no side effects.
std::unique_ptr<Pass> make_dead_code_elimination();

/// "unused-initializers": removes initializers that nothing reads and that
/// are not graph inputs (an initializer that is also an input is a default
/// a caller may override, so it stays), in the main graph and subgraphs.
std::unique_ptr<Pass> make_remove_unused_initializers();

/// "unused-functions": removes model-local functions that no node of the
/// main graph calls, directly or through other functions or subgraphs.
std::unique_ptr<Pass> make_remove_unused_functions();

/// "unused-opsets": removes opset imports of the model (and of its
/// functions) whose domain no node uses. The default domain stays.
std::unique_ptr<Pass> make_remove_unused_opsets();

/// Options of constant folding.
struct FoldOptions {
  /// Outputs larger than this many bytes (Tensor::nbytes) are not folded:
  /// a folded output becomes an initializer, and folding Expand or Tile on a
  /// small constant could otherwise grow the model without bound.
  size_t max_output_bytes = 1 << 20;
};

/// "fold": runs nodes whose inputs are all constants (initializers that are
/// not graph inputs, and Constant nodes) through the evaluator's kernels and
/// replaces their outputs with constants: initializers in the main graph of
/// an IR 4+ model, Constant nodes elsewhere and for graph outputs. Never
/// folds random operators (RandomUniform, RandomNormal, their *Like forms,
/// Bernoulli, Multinomial), nodes with subgraphs, calls of functions, or
/// outputs above the size limit. Shape and Size of values whose shape is
/// static fold without constant inputs. Works in the main graph, subgraphs
/// and function bodies (except nodes that read function attributes).
std::unique_ptr<Pass> make_constant_folding(FoldOptions options = {});

/// "identity": removes nodes that return their input unchanged: Identity,
/// Dropout at inference (no training_mode input that is true, no mask
/// output used), Cast to the input's own type, Transpose with the identity
/// permutation, Reshape to the input's own static shape, Add/Sub of a
/// constant zero and Mul/Div by a constant one when the result has the
/// input's type and shape.
std::unique_ptr<Pass> make_identity_elimination();

/// "constant-if": replaces an If whose condition is a constant by the
/// nodes of the branch it would take.
std::unique_ptr<Pass> make_constant_if();

/// "cse": common-subexpression elimination: of two nodes with the same
/// operator, inputs and attributes (graph attributes excluded), the later
/// one is removed and its outputs replaced by the earlier one's. Random
/// operators are never merged.
std::unique_ptr<Pass> make_common_subexpression_elimination();

/// "dedup-initializers": initializers of one graph with the same element
/// type, shape and bytes become one (the first); graph inputs are kept.
std::unique_ptr<Pass> make_initializer_deduplication();

/// Which calls to inline: (the called function, the calling node).
using InlinePredicate = std::function<bool(const ir::Function&, const ir::Node&)>;

/// "inline": replaces calls of model-local functions (all, or those the
/// predicate accepts) by copies of their bodies, with attribute references
/// resolved from the call (or the function's defaults) and fresh value
/// names. Nested calls are inlined in later rounds.
std::unique_ptr<Pass> make_function_inlining(InlinePredicate predicate = {});

/// The names make_pass takes, in the default order.
std::vector<std::string> pass_names();

/// The pass called `name` (see pass_names()); `fold` configures "fold".
/// Throws Error for an unknown name, listing the known ones.
std::unique_ptr<Pass> make_pass(std::string_view name, const FoldOptions& fold = {});

}  // namespace onnxscript::optimizer
