#pragma once
/// \file
/// Tensors in and out of files and text: numpy's `.npy` format, ONNX test
/// data (`input_0.pb`: TensorProto, SequenceProto, OptionalProto, MapProto),
/// and printing as numpy prints.

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/ir/type.h"

namespace onnxscript::ir {

/// Prints like numpy's str(): nested brackets, aligned columns, and "..."
/// for tensors of more than 1000 elements (3 items kept at each edge).
std::ostream& operator<<(std::ostream& out, const Tensor& tensor);

}  // namespace onnxscript::ir

namespace onnxscript::eval {

/// How to print tensors (numpy's print options).
struct PrintOptions {
  int64_t threshold = 1000;  ///< Summarize tensors with more elements than this.
  int64_t edgeitems = 3;     ///< Items kept at each edge of a summarized axis.
  int precision = 8;         ///< Significant digits after the point for floats.
};

/// The numpy-style text of a tensor.
std::string to_string(const Tensor& tensor, const PrintOptions& options = {});

/// A readable form of any runtime value: tensors as numpy prints them,
/// sequences as [a, b], optionals as the value or "None".
std::string to_string(const RuntimeValue& value, const PrintOptions& options = {});

/// The element at flat index `i` as a double (any numeric type, bool,
/// float16/bfloat16, float8, 4-bit types; the real part of complex numbers).
/// Throws TypeError for strings.
double element_as_double(const Tensor& tensor, int64_t i);

/// The largest |a[i] - b[i]| over two numeric tensors of one shape (NaN when
/// either holds a NaN at the same place as a number). Throws TypeError when
/// the shapes differ or the elements are not numbers.
double max_abs_diff(const Tensor& a, const Tensor& b);

// ---- .npy ----

/// Decodes `.npy` bytes (format versions 1-3). Supports bool, all integer and
/// float types including float16, complex, and the element types numpy lacks
/// in the form npy_to_bytes writes them; fortran_order must be False.
/// Throws ParseError naming `source_name` for anything malformed.
Tensor npy_from_bytes(std::string_view bytes, std::string_view source_name = "<memory>");

/// Encodes a tensor as `.npy` bytes (version 1.0, little-endian). String
/// tensors are written as numpy unicode ('<U'). Element types numpy has no
/// dtype for (bfloat16, the float8 types, int4/uint4, float4e2m1, int2/uint2)
/// are written as a structured dtype of one field named after the type, one
/// element (its bits, or its integer value) per item: `[('int2', '|i1')]`.
/// docs/evaluator.md has the details.
std::string npy_to_bytes(const Tensor& tensor);

/// Reads a `.npy` file; IoError when it cannot be read, ParseError when malformed.
Tensor load_npy(const std::filesystem::path& path);

/// Writes a `.npy` file (atomically: a temporary file, then renamed).
void save_npy(const Tensor& tensor, const std::filesystem::path& path);

// ---- ONNX test data ----

/// Decodes a value of the ONNX backend test data: a TensorProto, SequenceProto,
/// OptionalProto or MapProto. `hint` tells which ("tensor", "sequence",
/// "optional", "map"), or "" to tell from the bytes; `name` receives the
/// proto's name field when not null. Throws ParseError naming `source_name`.
RuntimeValue value_from_proto_bytes(std::string_view bytes, std::string_view hint = "",
                                    std::string* name = nullptr,
                                    std::string_view source_name = "<memory>");

/// The `hint` for value_from_proto_bytes() and load_value_pb() that a value's
/// declared type gives: "tensor", "sequence", "optional" or "map"; "" (tell
/// from the bytes) when the type is unknown or of another kind.
std::string_view proto_kind_hint(const std::optional<ir::Type>& type);

/// Reads an ONNX test data file (input_0.pb, output_0.pb, ...), guessing its
/// kind unless `hint` says it.
RuntimeValue load_value_pb(const std::filesystem::path& path, std::string_view hint = "",
                           std::string* name = nullptr);

/// Encodes a value as the matching proto: TensorProto for tensors,
/// SequenceProto, OptionalProto or MapProto otherwise.
std::string value_to_proto_bytes(const RuntimeValue& value, std::string_view name = "");

/// Writes a value as a `.pb` file (atomically).
void save_value_pb(const RuntimeValue& value, const std::filesystem::path& path,
                   std::string_view name = "");

/// Reads a tensor from `.npy` or `.pb` by the file's extension, or any test
/// data value from `.pb`.
RuntimeValue load_value(const std::filesystem::path& path);

}  // namespace onnxscript::eval
