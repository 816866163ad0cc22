#pragma once
// Turns a C++ torchlib function into an OpCallable: each positional ATen
// argument converts to the C++ parameter type the function declares, with
// errors that name the operator and the parameter.
//
// Conversions (see convert_arg below):
//   Value                  Tensor; an int, float or bool becomes a literal
//                          (it takes the element type of the tensors it meets);
//                          an int list becomes a 1-D int64 constant
//   std::optional<Value>   as Value, None -> nullopt
//   std::vector<Value>     Tensor[]
//   int64_t, double, bool  a Python scalar known now (a concrete 0-D tensor too)
//   std::vector<int64_t>   int[]; a single int repeats N times for int[N]
//   std::optional<T>       None -> nullopt
//   std::string            str (and identifiers such as contiguous_format)

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::torch_lib::detail {

/// Where a conversion happens, for messages.
struct ArgSite {
  const Schema& schema;
  const SchemaParam& param;
};

[[noreturn]] void bad_argument(const ArgSite& site, const Arg& arg, std::string_view wanted);

/// The N of an `int[N]` type, or 0.
size_t fixed_list_length(const std::string& type);

Value to_value(const ArgSite& site, const Arg& arg);
std::vector<Value> to_values(const ArgSite& site, const Arg& arg);
int64_t to_int(const ArgSite& site, const Arg& arg);
double to_double(const ArgSite& site, const Arg& arg);
bool to_bool(const ArgSite& site, const Arg& arg);
std::vector<int64_t> to_ints(const ArgSite& site, const Arg& arg);
std::string to_string(const ArgSite& site, const Arg& arg);

template <typename T>
struct Converter;
template <>
struct Converter<Value> {
  static Value from(const ArgSite& s, const Arg& a) { return to_value(s, a); }
};
template <>
struct Converter<std::vector<Value>> {
  static std::vector<Value> from(const ArgSite& s, const Arg& a) { return to_values(s, a); }
};
template <>
struct Converter<int64_t> {
  static int64_t from(const ArgSite& s, const Arg& a) { return to_int(s, a); }
};
template <>
struct Converter<double> {
  static double from(const ArgSite& s, const Arg& a) { return to_double(s, a); }
};
template <>
struct Converter<bool> {
  static bool from(const ArgSite& s, const Arg& a) { return to_bool(s, a); }
};
template <>
struct Converter<std::vector<int64_t>> {
  static std::vector<int64_t> from(const ArgSite& s, const Arg& a) { return to_ints(s, a); }
};
template <>
struct Converter<std::string> {
  static std::string from(const ArgSite& s, const Arg& a) { return to_string(s, a); }
};
template <typename T>
struct Converter<std::optional<T>> {
  static std::optional<T> from(const ArgSite& s, const Arg& a) {
    if (a.is_none()) return std::nullopt;
    return Converter<T>::from(s, a);
  }
};

template <typename F>
struct FunctionTraits;
template <typename R, typename... P>
struct FunctionTraits<R (*)(P...)> {
  using Result = R;
  using Params = std::tuple<std::decay_t<P>...>;
  static constexpr size_t arity = sizeof...(P);
};

inline std::vector<Value> as_outputs(Value v) { return {std::move(v)}; }
inline std::vector<Value> as_outputs(std::vector<Value> v) { return v; }

/// The OpCallable of `Fn` under `schema`, whose parameters must match Fn's
/// in number.
template <auto Fn>
OpCallable bind(const Schema& schema) {
  using Traits = FunctionTraits<decltype(Fn)>;
  return [schema](std::span<const Arg> args) -> std::vector<Value> {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return as_outputs(Fn(Converter<std::tuple_element_t<I, typename Traits::Params>>::from(
          ArgSite{schema, schema.params[I]}, args[I])...));
    }
    (std::make_index_sequence<Traits::arity>{});
  };
}

/// Checks that Fn takes as many parameters as `schema` lists; throws a
/// library-bug error otherwise (the registry table is checked at start-up).
void check_arity(const Schema& schema, size_t arity);

/// `callable` made to keep the first argument's element type when `schema`
/// is an in-place operator (`Tensor(a!) self`, as `add_`): PyTorch writes
/// the result into `self`, so it has self's type whatever the computation's
/// promoted type was (a float `x.add_(y)` with a double `y` stays float).
/// Other schemas get `callable` back.
OpCallable keeping_self_dtype_when_in_place(const Schema& schema, OpCallable callable);

/// An overload of `Fn` for the schema text.
template <auto Fn>
OpOverload overload(std::string_view schema_text, Emission emission = Emission::kInlined,
                    DtypeClass dtypes = DtypeClass::kAny) {
  OpOverload o;
  o.schema = Schema::parse(schema_text);
  check_arity(o.schema, FunctionTraits<decltype(Fn)>::arity);
  o.callable = keeping_self_dtype_when_in_place(o.schema, bind<Fn>(o.schema));
  o.emission = emission;
  o.dtypes = dtypes;
  return o;
}

}  // namespace onnxscript::torch_lib::detail
