#pragma once
/// \file
/// The torchlib registry: ATen operator overloads by qualified name
/// ("aten::add.Tensor"), each an ONNX function written with the eDSL against
/// opset 18. The exporter looks nodes up here; users query it, call its
/// overloads with ATen-style arguments, and extend it with their own
/// functions (register_op), including for custom TorchScript operators.

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/script/function.h"
#include "onnxscript/torch_lib/arg.h"

namespace onnxscript::torch_lib {

/// One formal parameter of an ATen schema: `Tensor self`, `Scalar alpha=1`,
/// `int[2] stride=1`, `Tensor? bias`.
struct SchemaParam {
  std::string type;                  ///< As the schema spells it: "Tensor?", "int[2]", "Scalar".
  std::string name;                  ///< "self".
  std::optional<Arg> default_value;  ///< The default, when the schema gives one.
  bool keyword_only = false;         ///< After `*` in the schema.
  /// The operator writes into this argument (`Tensor(a!)`: in-place forms
  /// such as `add_`, and `out=` parameters).
  bool written = false;
  /// True for `T?` types: None is accepted.
  bool optional() const { return !type.empty() && type.back() == '?'; }
};

/// An ATen operator schema, parsed from its text:
/// "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor".
struct Schema {
  std::string qualified_name;  ///< "aten::add.Tensor" (namespace, base name, overload).
  std::vector<SchemaParam> params;
  std::vector<std::string> returns;  ///< Return types, e.g. {"Tensor"}.

  /// Parses a schema; throws ValueError naming the text on a syntax error.
  static Schema parse(std::string_view text);
  /// "aten::add" without the overload name.
  std::string base_name() const;
  /// The overload name ("Tensor"), or "" for the default overload.
  std::string overload_name() const;
};

/// How an overload's ONNX reaches the model.
enum class Emission {
  /// Traced at call time and inlined: the function may branch on the rank
  /// and element type that inference gives its inputs (most of torchlib).
  kInlined,
  /// Called as an ONNX function (a FunctionProto in domain
  /// pkg.onnxscript.torch_lib) that the model carries.
  kFunction,
};

/// Which element types an overload handles, where an operator's ONNX
/// differs between them (most ONNX operators do not take complex tensors,
/// so an operator's complex overload emits different ONNX).
enum class DtypeClass {
  kAny,      ///< Every element type.
  kComplex,  ///< Complex inputs only.
};

/// The callable form of an overload: positional arguments, with defaults
/// already filled in from the schema, to the outputs.
using OpCallable = std::function<std::vector<Value>(std::span<const Arg>)>;

/// One registered overload.
struct OpOverload {
  Schema schema;        ///< Its ATen schema.
  OpCallable callable;  ///< The ONNX it emits (or computes eagerly).
  Emission emission = Emission::kInlined;
  DtypeClass dtypes = DtypeClass::kAny;
  bool custom = false;  ///< Registered by the user rather than by torchlib.

  /// Calls the overload: checks the argument count against the schema,
  /// fills trailing defaults, and runs the function. Errors name the
  /// operator and the argument.
  std::vector<Value> operator()(std::span<const Arg> args) const;
  /// Calls it with a braced list: `overload({x, y, 1})`.
  std::vector<Value> operator()(std::initializer_list<Arg> args) const {
    return (*this)(std::span<const Arg>(args.begin(), args.size()));
  }
};

/// Overloads by qualified name. Copyable: an exporter's registry starts as
/// a copy of torchlib's and may be extended without touching it.
class Registry {
 public:
  /// An empty registry.
  Registry() = default;

  /// Adds an overload under its schema's qualified name (after any the name
  /// already has, so that an earlier one wins when both accept the inputs;
  /// pass `replace` to drop those first).
  void add(OpOverload overload, bool replace = false);

  /// Registers a user's script Function for `qualified_name` (namespace::op
  /// or namespace::op.overload), replacing what the registry had for that
  /// name. The Function's parameters take the call's arguments in order:
  /// tensors as its inputs, Python scalars, lists and strings as its
  /// attributes. `schema` gives the ATen schema (for defaults and argument
  /// checks); without it, calls pass every argument.
  void register_op(const Function& function, std::string_view qualified_name,
                   std::string_view schema = "");

  /// True when `name` has an overload: "aten::add.Tensor" exactly, or
  /// "aten::add" for its default overload ("aten::add" with no overload name).
  bool is_registered_op(std::string_view name) const;

  /// The overloads registered for `name` (exact qualified name), first-choice
  /// first; empty when there are none.
  std::span<const OpOverload> get_op_functions(std::string_view name) const;

  /// The overload to use for a call of `name` with `args`: among the exact
  /// name's overloads, the first whose dtype class accepts the first tensor
  /// argument. Null when none does.
  const OpOverload* choose(std::string_view name, std::span<const Arg> args) const;

  /// Every registered qualified name, sorted.
  std::vector<std::string> names() const;

  /// Number of qualified names.
  size_t size() const { return overloads_.size(); }

 private:
  std::map<std::string, std::vector<OpOverload>, std::less<>> overloads_;
};

/// torchlib's own registry: every function of this library under the ATen
/// names upstream registers, plus TorchScript's spellings (`_convolution`,
/// `batch_norm`, in-place forms such as `add_`). Built once, on first use.
const Registry& torchlib_registry();

}  // namespace onnxscript::torch_lib
