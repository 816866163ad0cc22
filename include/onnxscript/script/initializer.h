#pragma once
/// \file
/// initializer(): weights that a model stores as graph initializers.

#include <source_location>
#include <string>

#include "onnxscript/script/value.h"

namespace onnxscript {

/// A weight that the model stores rather than computes, as onnx.helper's
/// graph initializers and Spox's `initializer` do. A Tensor passed straight to
/// an operator becomes a Constant node instead (as in ONNX Script); an
/// initializer costs no node, and consumers such as ONNX Runtime and graph
/// optimizers treat it as a weight.
///  - While tracing a model's graph (or a graph() attribute), `tensor`
///    becomes an initializer of that graph, typed from the tensor and named
///    `name` or, when that is empty, a fresh "init_<n>".
///  - A function body cannot hold initializers (FunctionProto has no such
///    field): when the script is exported as a function (to_function(), or a
///    callee of a model), each one becomes a Constant node with the same name
///    and value, at the start of the body.
///  - Inside a subgraph being traced (If, Loop and Scan bodies) it is a
///    Constant node, recorded at `location`.
///  - Outside any trace it is the concrete tensor.
/// Throws ScriptError for an undefined tensor.
Value initializer(const Tensor& tensor, std::string name = {},
                  std::source_location location = std::source_location::current());

}  // namespace onnxscript
