#pragma once
// Data propagation for shapes computed in the graph. An exporter writes
// `x.view(x.size(0), 2, -1)` as Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape; with a named batch the shape input is not a constant, and
// libonnx 1.12's rules (which this project offers no symbolic input) give
// the Reshape no dimensions. Walking the shape input's producers back to the
// Shape node recovers its entries as dimensions ("batch", 2, -1), from which
// the output's shape follows (ONNX's own data propagation does the same).

#include <optional>
#include <vector>

#include "onnxscript/ir/graph.h"

namespace onnxscript::infer {

// The elements of `v`, an int64 tensor of rank 0 or 1, as dimensions, when
// the graph tells them without running it: a constant, or sizes read by
// Shape and carried through Gather, Slice, Concat, Unsqueeze, Squeeze,
// Reshape, Cast and Identity. An element that is not known is an unknown
// Dim. Nullopt when not even the number of elements is known.
std::optional<std::vector<ir::Dim>> symbolic_value(const ir::Value* v);

// The output shape of Reshape(data: `input`, shape: `target`) with
// `allowzero`, as far as the target's symbolic value tells: static and named
// entries as they are, 0 copying the input's dimension (allowzero 0), and a
// -1 solved when the input's and the target's named dimensions cancel.
// Nullopt when the target's length is unknown.
std::optional<ir::Shape> reshape_output_shape(const ir::Shape* input, const ir::Value* target,
                                              bool allowzero);

}  // namespace onnxscript::infer
