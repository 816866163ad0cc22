#pragma once
/// \file
/// The ONNX textual syntax: print models, graphs and functions from the IR,
/// and parse text back into the IR. For everything the IR holds except the
/// opaque byte fields listed below, print(parse(print(x))) == print(x), and
/// the parsed IR equals x.
///
/// The syntax is that of onnx.printer / onnx.parser (onnx/docs/Syntax.md),
/// extended where ONNX's syntax cannot say what the IR holds:
///
/// \code
/// <
///    ir_version: 10,
///    opset_import: ["" : 21, "local" : 1],
///    producer_name: "x",
///    doc_string: "model documentation",
///    metadata_props: ["key": "value"]
/// >
/// <doc_string: "graph documentation">
/// agraph (float[N,128] X, float[128,10] W) => (float[N,10] C)
///    <float[2] init = {1, 2},
///     float[N,10] T>
/// {
///    T = MatMul (X, W)
///    <doc_string: "node documentation", metadata_props: ["k": "v"]>
///    [node_name] C = local.Gelu:tanh <alpha: float = 0.5> (T)
/// }
/// <
///    domain: "local",
///    overload: "tanh",
///    opset_import: ["" : 21]
/// >
/// Gelu <alpha: float = 1, beta> (X) => (Y)
/// {
///    Y = Mul <scale: float = @alpha> (X, X)
/// }
/// \endcode
///
/// Decisions beyond onnx/docs/Syntax.md:
/// - **Annotations.** Doc strings and metadata of every entity are written as a
///   key/value block `<doc_string: "...", metadata_props: ["k": "v"]>` in front
///   of the entity, the form ONNX already uses for models and functions. It
///   may precede a graph (after the model header, or after `graph =` in an
///   attribute; a model's first `<...>` is always its header), a node, a value in an
///   input/output/value-info list, an initializer (it then describes the TensorProto), a tensor
///   constant and an attribute. Graphs also take `quantization_annotation: ["tensor":
///   ["key": "tensor name", ...], ...]`. A node's block is told apart from
///   attributes written after the previous node's inputs by its shape: a key,
///   `:`, then a string or `[` (an attribute has a type name or `=` there).
/// - **Overload.** `domain.op:overload` on a node (as onnx.parser reads it),
///   `overload: "..."` in a function header. A domain that is not a dotted
///   identifier is quoted as a whole: `"my-domain".Op`; an op type or overload
///   that is not an identifier is quoted too: `"my op":"v-2"`.
/// - **Attributes.** Always printed with their type: `name: type = value`.
///   References are `name: type = @ref`. A function attribute with a type but
///   no default is `name: type`; one without either is just `name`.
/// - **Types.** `?` is a TypeProto with nothing set (`seq(?)`); `undefined` an
///   element type of 0. A denotation follows its type or dimension after a
///   colon: `float[N:"DATA_BATCH",3]:"IMAGE"`.
/// - **Tensor data** is always written out in full, so that text is lossless:
///   floating point values in the shortest form that reads back to the same
///   bits (for float16, bfloat16, float8 and float4 too, as decimal numbers,
///   not bit patterns; whole numbers of those are written out exactly, 448
///   rather than 450); `nan`, `-nan`, `inf`, `-inf`; NaNs other than the
///   type's default NaN as `nan(0x7fc00001)` (the element's bits). Complex
///   numbers are (real, imaginary) pairs flattened into the list, as
///   onnx.parser reads them; bool is 0 or 1; int4/uint4 are integers.
///   PrintOptions::max_tensor_elements can shorten big tensors to `{...}`,
///   which the parser refuses.
/// - **Sparse tensors** are `sparse_tensor(float[3,4]) {values: float[2] {1, 2},
///   indices: int64[2] {1, 6}}` as initializers and attribute values.
/// - **Strings** escape `\\`, `"`, `\n`, `\r`, `\t` and other control bytes
///   and bytes that are not UTF-8 as `\xHH`.
/// - **Names** that are not plain identifiers, or that are keywords of the
///   syntax (type names, `seq`, `nan`, ...), are quoted.
/// - **Graph layout.** Initializers, sparse initializers and value_info form
///   the `<...>` block between a graph's outputs and its nodes, in that order;
///   an initializer named like a graph input is that input's initializer.
///   Names are resolved through scopes: a subgraph sees every value of the
///   graphs around it, and a node may use a value defined later in its graph.
/// - `#` starts a comment that runs to the end of the line.
/// - Values are referred to by name, and `""` is an omitted input, so the
///   printer refuses (ValidationError) a node input that is an unnamed value.
///
/// What text does not keep: the opaque byte fields of the IR, that is
/// Model::training_info, Model::configuration and Node::device_configurations
/// (the printer mentions them in a `#` comment) and every `unknown_fields`
/// (which the wire format also uses to remember which default-valued fields
/// were present, so it is not worth a comment); and how tensors were stored
/// (TensorProtoInfo's encoding, external_data, segment and name of
/// initializers): parsed tensors hold their data in memory. A graph output
/// and a value_info entry for the same value share that value's one type.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "onnxscript/ir/model.h"

namespace onnxscript::text {

/// How the printer lays text out.
struct PrintOptions {
  /// Tensors with more elements than this print their data as `{...}`: easier
  /// to read, but the parser rejects such text. Negative means no limit.
  int64_t max_tensor_elements = -1;
  /// Write `#` comments that say which opaque fields text leaves out.
  bool comment_dropped_fields = true;
};

/// The model in ONNX textual syntax, including its model-local functions.
/// Throws ValidationError for IR that no text can express: an attribute whose
/// value is not of its type, a null value in a graph's lists, a node input
/// that is a value without a name.
std::string print_model(const ir::Model& model, const PrintOptions& options = {});
/// A graph in ONNX textual syntax: `name (inputs) => (outputs) {...}`. Throws
/// as print_model.
std::string print_graph(const ir::Graph& graph, const PrintOptions& options = {});
/// A function in ONNX textual syntax, with its `<domain: ...>` header. Throws
/// as print_model.
std::string print_function(const ir::Function& function, const PrintOptions& options = {});
/// A type in ONNX textual syntax: `float[N,3]`, `seq(int64)`, `map(string, float)`.
std::string print_type(const ir::Type& type);

/// Parses a model: an optional `<...>` header, the main graph, then functions.
/// Throws ParseError naming `source_name`, line and column, and what was expected.
ir::Model parse_model(std::string_view text, std::string_view source_name = "<text>");
/// Parses one function with its optional header.
std::unique_ptr<ir::Function> parse_function(std::string_view text,
                                             std::string_view source_name = "<text>");
/// Parses one top-level graph. Every name it uses must be defined inside it.
std::unique_ptr<ir::Graph> parse_graph(std::string_view text,
                                       std::string_view source_name = "<text>");
/// Parses a type such as `float[N,3]` or `seq(optional(int64))`.
ir::Type parse_type(std::string_view text, std::string_view source_name = "<text>");

}  // namespace onnxscript::text
