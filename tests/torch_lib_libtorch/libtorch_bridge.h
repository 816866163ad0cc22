#pragma once
/// \file
/// The comparison suite's only door into LibTorch. Everything LibTorch is in
/// libtorch_bridge.cc (one translation unit: LibTorch's headers cost 15-20 s
/// each to compile); this header speaks torchlib's types only, so the sample
/// table and the tests compile without them.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/tensor.h"
#include "onnxscript/torch_lib/arg.h"

namespace onnxscript::torch_lib::libtorch {

/// A keyword argument of a sample call: the schema parameter's name and value.
struct KeywordArg {
  std::string name;  ///< As the ATen schema names the parameter.
  Arg value;         ///< Its value.
};

/// LibTorch's own schema text for a qualified name ("aten::add.Tensor"), as
/// LibTorch prints it: from the c10 dispatcher, or from the TorchScript
/// operator table for operators only TorchScript has (aten::Int.Tensor).
/// Empty when LibTorch has no operator of that name and overload.
std::optional<std::string> schema_text(std::string_view qualified_name);

/// Calls LibTorch's operator `qualified_name` through its boxed entry point:
/// the stack is built against LibTorch's schema, positional arguments first,
/// then keyword arguments by name, and LibTorch's own defaults for the rest.
/// Tensors are copied in (so in-place operators leave the caller's alone).
/// Returns the outputs: a tensor each (contiguous copies), a list of tensors
/// flattened, an int, float or bool as a 0-D int64, double or bool tensor.
/// Throws onnxscript::Error with LibTorch's message when LibTorch rejects
/// the call, or when an argument does not convert.
/// With `complex_tensors`, each tensor argument is a complex tensor given as
/// real pairs in a trailing dimension of 2 (view_as_complex); complex
/// outputs always come back as such pairs (view_as_real).
std::vector<Tensor> call(std::string_view qualified_name, std::span<const Arg> positional,
                         std::span<const KeywordArg> keywords, bool complex_tensors = false);

/// Converts `arg` to a LibTorch IValue for a parameter of schema type
/// `type` ("Tensor", "int[2]", "Scalar", "ScalarType?", "MemoryFormat"...)
/// and back, as the suite converts arguments; for the round-trip tests.
Arg round_trip(const Arg& arg, std::string_view type);

}  // namespace onnxscript::torch_lib::libtorch
