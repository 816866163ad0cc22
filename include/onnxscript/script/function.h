#pragma once
/// \file
/// script(): an ONNX function written as a C++ lambda. The lambda's parameter
/// types give the signature (Value or FLOAT<"N"> for inputs, Attr<T> for
/// attributes). Tracing it once gives a FunctionProto-equivalent ir::Function,
/// or a Model whose main graph is the body; calling the Function records a call
/// node when its inputs are traced, and runs the body eagerly when they are
/// concrete.

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"
#include "onnxscript/script/typed.h"

namespace onnxscript {

/// A parameter of a script: its name, and for attributes an optional default.
/// Written as "X" or {"dim", 0}.
struct Param {
  /// A parameter without a default.
  Param(const char* name) : name(name) {}  // NOLINT: a bare name is the common case
  /// A parameter without a default.
  Param(std::string name) : name(std::move(name)) {}  // NOLINT
  /// An attribute parameter with an integer default.
  Param(std::string name, int64_t v) : name(std::move(name)), default_value(v) {}
  /// An attribute parameter with an integer default.
  Param(std::string name, int v) : name(std::move(name)), default_value(int64_t{v}) {}
  /// An attribute parameter with a float default.
  Param(std::string name, double v) : name(std::move(name)), default_value(static_cast<float>(v)) {}
  /// An attribute parameter with a string default.
  Param(std::string name, const char* v) : name(std::move(name)), default_value(std::string(v)) {}
  /// An attribute parameter with an integer-list default.
  Param(std::string name, std::vector<int64_t> v)
      : name(std::move(name)), default_value(std::move(v)) {}
  /// An attribute parameter with a float-list default.
  Param(std::string name, std::vector<float> v)
      : name(std::move(name)), default_value(std::move(v)) {}

  std::string name;  ///< The parameter name.
  /// The default (attributes only).
  std::variant<std::monostate, int64_t, float, std::string, std::vector<int64_t>,
               std::vector<float>>
      default_value;
};

/// An attribute parameter of a script. While tracing it is a reference to
/// the function's attribute; when running eagerly it holds the value.
/// Using it as a Value gives a Constant that refers to the attribute.
template <typename T>
class Attr {
  static_assert(std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, std::string> || std::is_same_v<T, std::vector<int64_t>> ||
                    std::is_same_v<T, std::vector<float>>,
                "Attr<T> supports int64_t, float, std::string and their vectors");

 public:
  /// A concrete attribute value.
  Attr(T value) : value_(std::move(value)) {}  // NOLINT: plain values convert
  /// A reference to the enclosing function's attribute `name` (tracing).
  static Attr reference(std::string name) {
    Attr a{T{}};
    a.reference_ = std::move(name);
    return a;
  }
  /// True while tracing: the value is the function attribute reference().
  bool is_reference() const { return !reference_.empty(); }
  /// The referenced attribute name (tracing only).
  const std::string& reference_name() const { return reference_; }
  /// The value (eager only).
  const T& value() const { return value_; }

  /// As an operator input: a Constant referring to the attribute (tracing), or
  /// a tensor holding the value (eager).
  operator Value() const;  // NOLINT: attributes are used as values, as in ONNX Script

  /// This attribute as an ir::Attribute named `name`: a reference while tracing.
  ir::Attribute to_attribute(std::string name) const;

 private:
  T value_;
  std::string reference_;
};

/// What calling a Function returns: its outputs. Converts to a Value (one
/// output), a Tensor (one concrete tensor output), and supports structured
/// bindings and indexing for several outputs.
class Outputs {
 public:
  /// Wraps the outputs.
  explicit Outputs(std::vector<Value> values) : values_(std::move(values)) {}
  /// The only output; throws ScriptError when there are several.
  operator Value() const { return single(); }  // NOLINT
  /// The only output as a concrete tensor.
  operator Tensor() const { return single().tensor(); }  // NOLINT
  /// The only output as a concrete runtime value (a sequence, for example).
  operator eval::RuntimeValue() const { return single().concrete(); }  // NOLINT
  /// Output `i`.
  Value operator[](size_t i) const { return values_.at(i); }
  /// Number of outputs.
  size_t size() const { return values_.size(); }
  /// All outputs.
  const std::vector<Value>& values() const { return values_; }
  /// The outputs as an array of N, for structured bindings:
  /// `auto [y, mask] = Dropout(x, r, t).as<2>();`. Throws ScriptError when the
  /// count differs.
  template <size_t N>
  std::array<Value, N> as() const {
    check_count(N);
    std::array<Value, N> out;
    for (size_t i = 0; i < N; ++i) out[i] = values_[i];
    return out;
  }

 private:
  Value single() const;
  void check_count(size_t n) const;
  std::vector<Value> values_;
};

/// How a lambda parameter enters the signature.
enum class ParamKind : uint8_t { kInput, kAttribute };

namespace detail {

/// The type-erased part of a script: what Function needs from the lambda.
class ScriptBody {
 public:
  virtual ~ScriptBody() = default;
  /// Binds the lambda parameters as inputs/attributes of `fn` and traces the
  /// body; returns its results, which the caller makes the body's outputs.
  virtual std::vector<Value> trace(ir::Function& fn, const std::vector<Param>& params) const = 0;
  /// Runs the body on concrete values. `attributes` holds one entry per
  /// attribute parameter, already defaulted.
  virtual std::vector<eval::RuntimeValue> run(std::span<const Value> inputs,
                                              std::span<const ir::Attribute> attributes) const = 0;
  /// The kind of each lambda parameter, in order.
  virtual std::vector<ParamKind> param_kinds() const = 0;
  /// The attribute type of each lambda parameter, in order (kUndefined for
  /// inputs).
  virtual std::vector<ir::AttributeType> attribute_types() const = 0;
  /// The type each input parameter declares (FLOAT<"N", 64>), in order; none
  /// for untyped inputs (Value) and attributes.
  virtual std::vector<std::optional<ir::Type>> input_types() const = 0;
  /// The output types the lambda declares, one per result: a typed return
  /// such as `-> FLOAT<"N">` declares one, `-> std::tuple<FLOAT<"N">,
  /// INT64<>>` one per element; none for results it leaves untyped (Value).
  virtual std::vector<std::optional<ir::Type>> declared_output_types() const = 0;
};

/// `value` as an attribute of type `expected`, for an attribute parameter of
/// the script `function`: the one conversion that calls (traced or eager)
/// and defaults go through. An int where a float is declared becomes that
/// float, and ints become floats, as operator attributes allow; anything
/// else is a ScriptError naming the function, `what` (say "attribute
/// 'alpha'") and `location`.
ir::Attribute convert_attribute(ir::Attribute value, ir::AttributeType expected,
                                std::string_view function, std::string_view what,
                                const std::source_location& location);

/// Converts a call-site argument for an attribute parameter.
ir::Attribute attribute_argument(std::string name, int64_t v);
ir::Attribute attribute_argument(std::string name, int v);
ir::Attribute attribute_argument(std::string name, float v);
ir::Attribute attribute_argument(std::string name, double v);
ir::Attribute attribute_argument(std::string name, const std::string& v);
ir::Attribute attribute_argument(std::string name, const char* v);
ir::Attribute attribute_argument(std::string name, const std::vector<int64_t>& v);
ir::Attribute attribute_argument(std::string name, const std::vector<float>& v);
template <typename T>
ir::Attribute attribute_argument(std::string name, const Attr<T>& v) {
  return v.to_attribute(std::move(name));
}

/// One call-site argument, classified as an input or an attribute value.
struct Argument {
  Value value;                                          ///< For input parameters.
  std::function<ir::Attribute(std::string)> attribute;  ///< For attribute parameters.
};

template <typename A>
Argument make_argument(A&& a) {
  Argument arg;
  // A string literal converts to Value through bool (pointer to bool): it is
  // never an input, only a string attribute.
  if constexpr (std::is_convertible_v<A, Value> && !std::is_pointer_v<std::decay_t<A>>)
    arg.value = Value(a);
  using D = std::decay_t<A>;
  if constexpr (requires(std::string n, const D& d) { attribute_argument(n, d); }) {
    arg.attribute = [copy = D(a)](std::string name) {
      return attribute_argument(std::move(name), copy);
    };
  }
  return arg;
}

/// The first argument of a call, together with where the call is. A source
/// location cannot follow a parameter pack, but the default argument of this
/// converting constructor is evaluated where the conversion happens: in the
/// user's call expression.
struct FirstArgument {
  template <typename A>
  requires(!std::is_same_v<std::decay_t<A>, FirstArgument>)
      FirstArgument(A&& a,  // NOLINT: converts, to capture the caller's line
                    std::source_location location = std::source_location::current())
      : argument(make_argument(std::forward<A>(a))), location(location) {}
  Argument argument;              ///< The argument.
  std::source_location location;  ///< The call's location.
};

}  // namespace detail

class Function;
namespace detail {
/// Records `callees` as called by the function (or graph) being traced on
/// this thread, if any; used when a prebuilt graph is placed into a trace.
void note_callees(const std::vector<Function>& callees);
}  // namespace detail

/// A script function: a cheap, shared handle. Trace results are cached.
class Function {
 public:
  /// Use script() to make one. `location` is where: the nodes that make the
  /// body's outputs (see script()) and errors about them name it.
  Function(std::string domain, std::string name, std::vector<Param> params,
           std::shared_ptr<const detail::ScriptBody> body, int64_t domain_version = 1,
           std::source_location location = std::source_location::current());

  /// The function's name.
  const std::string& name() const;
  /// The function's domain ("this" unless chosen otherwise).
  const std::string& domain() const;

  /// The traced function (traced on first use).
  const ir::Function& to_function() const;
  /// A model whose main graph is the traced body, with every function it
  /// calls, transitively, as a model-local function.
  ir::Model to_model() const;
  /// The model in ONNX textual syntax, for reading: the data of a tensor with
  /// more than `max_tensor_elements` elements prints as `{...}`, so a model
  /// with real weights stays short. Negative prints every element, which the
  /// parser needs (it rejects `{...}`); save() to a .txt path does that.
  std::string to_text(int64_t max_tensor_elements = kTextTensorElements) const;
  /// The default of to_text(): tensors up to this size print in full.
  static constexpr int64_t kTextTensorElements = 64;
  /// Saves to_model() to `path` (binary ONNX; .txt writes text).
  void save(const std::filesystem::path& path) const;

  /// Calls the function: positional arguments follow the lambda's parameters.
  /// With traced inputs this records a call node; with concrete inputs the
  /// body runs eagerly.
  /// The call records (and its errors name) the caller's line.
  template <typename... Rest>
  Outputs operator()(detail::FirstArgument first, Rest&&... rest) const {
    std::vector<detail::Argument> arguments;
    arguments.reserve(1 + sizeof...(Rest));
    arguments.push_back(std::move(first.argument));
    (arguments.push_back(detail::make_argument(std::forward<Rest>(rest))), ...);
    return call(std::move(arguments), first.location);
  }
  /// Calls a function that takes no arguments.
  Outputs operator()(std::source_location location = std::source_location::current()) const {
    return call({}, location);
  }
  /// Calls the function with arguments assembled at run time, one per
  /// parameter in order (see detail::make_argument): what registries that
  /// dispatch by name (torchlib's) use.
  Outputs call_arguments(std::vector<detail::Argument> arguments,
                         std::source_location location = std::source_location::current()) const {
    return call(std::move(arguments), location);
  }

  /// Every script function this one calls, transitively, in call order.
  std::vector<Function> callees() const;

  /// Adds each of `called`, and every function they call transitively, to
  /// `model` as model-local functions (each once), with their opset imports:
  /// what a model whose graph was built outside script() (the PyTorch
  /// exporter's, say) needs for the script functions its graph calls.
  static void add_model_local_functions(ir::Model& model, const std::vector<Function>& called);

 private:
  struct Impl;
  friend void detail::note_callees(const std::vector<Function>& callees);
  std::vector<Function> transitive_callees(const std::vector<Function>& direct) const;
  static void add_functions(ir::Model& model, const std::vector<Function>& functions);
  Outputs call(std::vector<detail::Argument> arguments, std::source_location location) const;
  std::shared_ptr<Impl> impl_;
};

namespace detail {

/// Collects, while alive, the script functions called by code traced on this
/// thread outside any function (graph() at namespace scope), so that a model
/// using the graph can keep them. Scopes nest; the innermost collects.
class CalleeCollector {
 public:
  /// Starts collecting into `callees`.
  explicit CalleeCollector(std::vector<Function>& callees);
  ~CalleeCollector();
  CalleeCollector(const CalleeCollector&) = delete;
  CalleeCollector& operator=(const CalleeCollector&) = delete;
};

template <typename T>
struct ParamTraits {
  static constexpr bool is_input = std::is_convertible_v<T, Value> && std::is_base_of_v<Value, T>;
  static constexpr bool is_attribute = false;
};
template <typename T>
struct ParamTraits<Attr<T>> {
  static constexpr bool is_input = false;
  static constexpr bool is_attribute = true;
  using type = T;
};

template <typename T>
std::optional<ir::Type> declared_type() {
  if constexpr (requires { T::declared_type(); }) {
    return T::declared_type();
  } else {
    return std::nullopt;
  }
}

/// Adds an input to a traced function body and returns its handle.
Value add_traced_input(ir::Function& fn, const std::string& name, std::optional<ir::Type> type);
/// Registers an attribute parameter (with its default) on a traced function.
void add_traced_attribute(ir::Function& fn, const Param& param, ir::AttributeType type);
/// Reads an attribute value for eager runs.
template <typename T>
T attribute_value(const ir::Attribute& a);
template <>
int64_t attribute_value<int64_t>(const ir::Attribute& a);
template <>
float attribute_value<float>(const ir::Attribute& a);
template <>
std::string attribute_value<std::string>(const ir::Attribute& a);
template <>
std::vector<int64_t> attribute_value<std::vector<int64_t>>(const ir::Attribute& a);
template <>
std::vector<float> attribute_value<std::vector<float>>(const ir::Attribute& a);

template <typename T>
constexpr ir::AttributeType attribute_type_of() {
  if constexpr (std::is_same_v<T, int64_t>) return ir::AttributeType::kInt;
  if constexpr (std::is_same_v<T, float>) return ir::AttributeType::kFloat;
  if constexpr (std::is_same_v<T, std::string>) return ir::AttributeType::kString;
  if constexpr (std::is_same_v<T, std::vector<int64_t>>) return ir::AttributeType::kInts;
  if constexpr (std::is_same_v<T, std::vector<float>>) return ir::AttributeType::kFloats;
  return ir::AttributeType::kUndefined;
}

/// The attribute type of a lambda parameter type (kUndefined for an input).
template <typename P>
constexpr ir::AttributeType attribute_type_of_param() {
  if constexpr (ParamTraits<P>::is_attribute) {
    return attribute_type_of<typename ParamTraits<P>::type>();
  } else {
    return ir::AttributeType::kUndefined;
  }
}

/// The types a lambda's return type declares, one per result.
template <typename R>
struct DeclaredResultTypes {
  static std::vector<std::optional<ir::Type>> get() { return {declared_type<R>()}; }
};
template <typename... Ts>
struct DeclaredResultTypes<std::tuple<Ts...>> {
  static std::vector<std::optional<ir::Type>> get() { return {declared_type<Ts>()...}; }
};

/// The type an input parameter type declares; none for an attribute.
template <typename P>
std::optional<ir::Type> input_type_of_param() {
  if constexpr (ParamTraits<P>::is_attribute) {
    return std::nullopt;
  } else {
    return declared_type<P>();
  }
}

/// Flattens a lambda result (Value, TypedValue, Outputs, tuple of them) into values.
inline void flatten_result(const Value& v, std::vector<Value>& out) { out.push_back(v); }
inline void flatten_result(const Outputs& o, std::vector<Value>& out) {
  for (const Value& v : o.values()) out.push_back(v);
}
template <typename... Ts>
void flatten_result(const std::tuple<Ts...>& t, std::vector<Value>& out) {
  std::apply([&](const auto&... parts) { (flatten_result(Value(parts), out), ...); }, t);
}

template <typename F, typename R, typename... Params>
class LambdaBody final : public ScriptBody {
 public:
  explicit LambdaBody(F f) : f_(std::move(f)) {}

  std::vector<Value> trace(ir::Function& fn, const std::vector<Param>& params) const override {
    size_t index = 0;
    auto bind = [&]<typename P>() -> P {
      const Param& param = params.at(index++);
      if constexpr (ParamTraits<P>::is_attribute) {
        using T = typename ParamTraits<P>::type;
        add_traced_attribute(fn, param, attribute_type_of<T>());
        return P::reference(param.name);
      } else {
        return P(add_traced_input(fn, param.name, declared_type<P>()));
      }
    };
    // Braced initialization evaluates the bindings left to right.
    std::tuple<Params...> args{bind.template operator()<Params>()...};
    std::vector<Value> results;
    flatten_result(std::apply(f_, args), results);
    return results;
  }

  std::vector<eval::RuntimeValue> run(std::span<const Value> inputs,
                                      std::span<const ir::Attribute> attributes) const override {
    size_t input_index = 0, attribute_index = 0;
    auto bind = [&]<typename P>() -> P {
      if constexpr (ParamTraits<P>::is_attribute) {
        using T = typename ParamTraits<P>::type;
        return P(attribute_value<T>(attributes[attribute_index++]));
      } else {
        return P(inputs[input_index++]);
      }
    };
    std::vector<Value> results;
    {
      std::tuple<Params...> args{bind.template operator()<Params>()...};
      flatten_result(std::apply(f_, args), results);
    }
    std::vector<eval::RuntimeValue> out;
    out.reserve(results.size());
    for (const Value& v : results) out.push_back(v.concrete());
    return out;
  }

  std::vector<std::optional<ir::Type>> declared_output_types() const override {
    return DeclaredResultTypes<R>::get();
  }

  std::vector<ParamKind> param_kinds() const override {
    return {(ParamTraits<Params>::is_attribute ? ParamKind::kAttribute : ParamKind::kInput)...};
  }

  std::vector<ir::AttributeType> attribute_types() const override {
    return {attribute_type_of_param<Params>()...};
  }

  std::vector<std::optional<ir::Type>> input_types() const override {
    return {input_type_of_param<Params>()...};
  }

 private:
  F f_;
};

template <typename F, typename R, typename C, typename... Params>
std::shared_ptr<const ScriptBody> make_body(F f, R (C::*)(Params...) const) {
  static_assert(((ParamTraits<std::decay_t<Params>>::is_input ||
                  ParamTraits<std::decay_t<Params>>::is_attribute) &&
                 ...),
                "script parameters must be Value, a typed value such as FLOAT<\"N\">, or Attr<T>");
  return std::make_shared<LambdaBody<F, std::decay_t<R>, std::decay_t<Params>...>>(std::move(f));
}

}  // namespace detail

/// Makes a script function in domain "this" from a lambda. `params` names
/// the lambda's parameters in order; attribute parameters may carry defaults.
/// The lambda's results become the body's outputs as an If branch's do: an
/// input, a captured or repeated value passes through an Identity, and a
/// literal or tensor becomes a Constant (a literal of the declared element
/// type, when the lambda declares one, as in `-> FLOAT<"N">`). Those nodes
/// record the line of the script() call.
template <typename F>
Function script(std::string name, std::vector<Param> params, F lambda,
                std::source_location location = std::source_location::current()) {
  auto body = detail::make_body(std::move(lambda), &F::operator());
  return Function("this", std::move(name), std::move(params), std::move(body), 1, location);
}

/// Like script(), in a chosen domain and domain version.
template <typename F>
Function script(std::string domain, int64_t domain_version, std::string name,
                std::vector<Param> params, F lambda,
                std::source_location location = std::source_location::current()) {
  auto body = detail::make_body(std::move(lambda), &F::operator());
  return Function(std::move(domain), std::move(name), std::move(params), std::move(body),
                  domain_version, location);
}

}  // namespace onnxscript
