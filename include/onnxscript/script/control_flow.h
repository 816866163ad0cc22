#pragma once
/// \file
/// Data-dependent control flow and nested graphs, with lambdas as bodies:
///
///     auto [output, mask] = If(training, [&] { ...; return std::tuple{a, b}; },
///                                        [&] { ...; return std::tuple{c, d}; });
///     auto [total, partial] = for_range(n, {0.0f}, [&](Value i, Value acc) {
///       Value next = acc + op::Gather(X, i);
///       return std::tuple{next, next};       // carried value, then a scan output
///     });
///     Value y = while_loop(x < 10, {x}, [](Value v) {
///       Value w = v * 2;
///       return std::tuple{continue_while(w < 10), w};
///     });
///     const Graph Sum = graph("Sum", {"a", "b"}, [](Value a, Value b) { return a + b; });
///
/// While tracing, each lambda is traced into a subgraph (an ONNX If or Loop
/// node, or a graph attribute). Lambdas read values of enclosing scopes
/// freely: a node of the subgraph refers to the outer value directly, as ONNX
/// allows. When the inputs are concrete (eager mode), If evaluates its
/// condition and calls one lambda, and the loops call their body once per
/// iteration, so a debugger can stop inside them.
///
/// Which mode: If follows its condition (a condition known while tracing, such
/// as a C++ bool, picks a branch at once, like Python's `if` on a constant);
/// a loop inside an active trace is always an ONNX Loop, and outside any trace
/// it runs eagerly.
///
/// Results: one value gives a Value; several give a std::tuple of Values (for
/// structured bindings); a body returning Outputs or std::vector<Value> (a
/// count known only at run time) gives Outputs.
///
/// Bodies communicate through what they return: a Value assigned to an outer
/// variable inside a body does not leave the body (in a trace it belongs to
/// the subgraph; in eager mode it may be freed after the iteration).

#include <cstddef>
#include <source_location>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxscript/script/function.h"
#include "onnxscript/script/graph.h"
#include "onnxscript/script/value.h"

namespace onnxscript {

/// What a loop body returns first to say whether the loop goes on; make one
/// with continue_while() or break_if().
class LoopCondition {
 public:
  /// A condition that is true while the loop should go on.
  explicit LoopCondition(Value keep_going) : keep_going_(keep_going) {}
  /// True (as a bool tensor) while the loop should go on.
  Value keep_going() const { return keep_going_; }

 private:
  Value keep_going_;
};

/// The loop goes on to another iteration while `cond` (a bool scalar) holds.
/// A while_loop body must return one first: `return std::tuple{continue_while(v < 10), v};`.
LoopCondition continue_while(Value cond);

/// The loop stops after this iteration when `cond` holds: ONNX Script's
/// `if cond: break` at the end of a for loop. The values this iteration
/// returns (carried and scan outputs) are kept.
LoopCondition break_if(Value cond);

namespace detail {

/// A non-owning reference to a callable, so that the templates below hand
/// lambdas to compiled code without allocating.
template <typename Signature>
class FunctionRef;
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  /// Refers to `f`, which must outlive this reference.
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef>)
      FunctionRef(F&& f)  // NOLINT: converts
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(args)...);
        }) {}
  /// Calls the callable.
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

/// What a branch or loop body returned, flattened.
struct BodyResult {
  std::vector<Value> values;   ///< The values, in order.
  Value condition;             ///< A loop body's keep-going condition.
  bool has_condition = false;  ///< True when the body returned a LoopCondition.
};

/// The static shape of a body's return type R: how many values, whether a
/// LoopCondition comes first, and whether the count is only known at run time.
template <typename R>
struct ResultShape {
  static_assert(
      std::is_convertible_v<const R&, Value>,
      "a branch or body must return a Value, a typed value, a std::tuple of them, Outputs, "
      "or std::vector<Value>");
  static constexpr bool dynamic = false;        ///< Count known only at run time.
  static constexpr bool has_condition = false;  ///< A LoopCondition comes first.
  static constexpr size_t count = 1;            ///< Number of values (without the condition).
};
template <>
struct ResultShape<LoopCondition> {
  static constexpr bool dynamic = false;
  static constexpr bool has_condition = true;
  static constexpr size_t count = 0;
};
template <>
struct ResultShape<Outputs> {
  static constexpr bool dynamic = true;
  static constexpr bool has_condition = false;
  static constexpr size_t count = 0;
};
template <>
struct ResultShape<std::vector<Value>> {
  static constexpr bool dynamic = true;
  static constexpr bool has_condition = false;
  static constexpr size_t count = 0;
};
template <typename First, typename... Rest>
struct ResultShape<std::tuple<First, Rest...>> {
  static_assert(!(std::is_same_v<std::decay_t<Rest>, LoopCondition> || ...),
                "continue_while()/break_if() must come first in what a loop body returns");
  static_assert(((std::is_convertible_v<const Rest&, Value>)&&...),
                "every element a body returns must be a Value or a typed value");
  static constexpr bool dynamic = false;
  static constexpr bool has_condition = std::is_same_v<std::decay_t<First>, LoopCondition>;
  static constexpr size_t count = sizeof...(Rest) + (has_condition ? 0 : 1);
};
template <typename A, typename B>
struct ResultShape<std::pair<A, B>> : ResultShape<std::tuple<A, B>> {};

/// Flattens one returned part into `out`.
inline void collect_part(const LoopCondition& c, BodyResult& out) {
  out.condition = c.keep_going();
  out.has_condition = true;
}
template <typename T>
void collect_part(const T& part, BodyResult& out) {
  out.values.push_back(static_cast<Value>(part));
}
/// Flattens what a body returned into `out`.
template <typename R>
void collect(const R& result, BodyResult& out) {
  collect_part(result, out);
}
inline void collect(const Outputs& result, BodyResult& out) {
  out.values.insert(out.values.end(), result.values().begin(), result.values().end());
}
inline void collect(const std::vector<Value>& result, BodyResult& out) {
  out.values.insert(out.values.end(), result.begin(), result.end());
}
template <typename... Ts>
void collect(const std::tuple<Ts...>& result, BodyResult& out) {
  std::apply([&](const auto&... parts) { (collect_part(parts, out), ...); }, result);
}
template <typename A, typename B>
void collect(const std::pair<A, B>& result, BodyResult& out) {
  collect_part(result.first, out);
  collect_part(result.second, out);
}

/// std::tuple<Value, ..., Value> with N elements.
template <size_t... I>
auto value_tuple(std::index_sequence<I...>) -> std::tuple<decltype((void)I, Value())...>;

/// What If and the loops return: Value for one result, a tuple of N Values for
/// several, Outputs when the count is known only at run time.
template <bool Dynamic, size_t N>
auto package(std::vector<Value> values) {
  if constexpr (Dynamic) {
    return Outputs(std::move(values));
  } else if constexpr (N == 1) {
    return values.at(0);
  } else {
    using Tuple = decltype(value_tuple(std::make_index_sequence<N>{}));
    return [&]<size_t... I>(std::index_sequence<I...>) { return Tuple{values.at(I)...}; }
    (std::make_index_sequence<N>{});
  }
}

/// The parameter types of a (non-generic) lambda.
template <typename F>
struct LambdaParams : LambdaParams<decltype(&std::remove_cvref_t<F>::operator())> {};
template <typename R, typename C, typename... Ps>
struct LambdaParams<R (C::*)(Ps...) const> {
  using types = std::tuple<std::decay_t<Ps>...>;  ///< Parameter types.
  using result = std::decay_t<R>;                 ///< Return type.
  static constexpr size_t count = sizeof...(Ps);  ///< Number of parameters.
};
template <typename R, typename C, typename... Ps>
struct LambdaParams<R (C::*)(Ps...)> : LambdaParams<R (C::*)(Ps...) const> {};

/// Calls `f` with `args` converted to its parameter types (Value or typed values).
template <typename F, typename... Ps>
decltype(auto) call_with_values(F& f, std::span<const Value> args, std::tuple<Ps...>*) {
  static_assert(((std::is_base_of_v<Value, Ps> && std::is_constructible_v<Ps, Value>)&&...),
                "body parameters must be Value or typed values such as FLOAT<\"N\">");
  return [&]<size_t... I>(std::index_sequence<I...>)->decltype(auto) { return f(Ps(args[I])...); }
  (std::index_sequence_for<Ps...>{});
}

/// Runs a branch: no arguments, results into the BodyResult.
using BranchRef = FunctionRef<void(BodyResult&)>;
/// Runs a loop or graph body on its arguments, results into the BodyResult.
using BodyRef = FunctionRef<void(std::span<const Value>, BodyResult&)>;

/// If: traces both branches into subgraphs, or (concrete condition) runs one.
/// `arity` is the static result count, 0 when it is known only at run time.
std::vector<Value> if_impl(const Value& cond, BranchRef then_branch, BranchRef else_branch,
                           size_t arity, std::source_location location);

/// A result count known only at run time.
inline constexpr size_t kDynamicCount = static_cast<size_t>(-1);

/// The loops. `trip_count` and `cond` may be Value() (absent). `with_iteration`
/// passes the iteration number first. `num_params` is the body's parameter
/// count; `num_results` the static result count, or kDynamicCount.
std::vector<Value> loop_impl(const Value& trip_count, const Value& cond, std::vector<Value> carried,
                             bool with_iteration, size_t num_params, size_t num_results,
                             BodyRef body, std::source_location location);

/// graph(): traces `body` into a graph with the given inputs.
Graph graph_impl(std::string name, std::vector<std::string> input_names,
                 std::vector<std::optional<ir::Type>> input_types, BodyRef body,
                 std::source_location location);

}  // namespace detail

/// A data-dependent conditional. `cond` is a bool scalar; each branch is a
/// lambda without parameters returning a value or a std::tuple of values,
/// the same number from both (a compile-time error otherwise, or a
/// ScriptError naming the line when the count is known only at run time).
/// Where both branches' element types are known they must agree.
///
/// Traced: an ONNX If node whose branches are the traced lambdas; its output
/// types are the union of the branches'. Concrete `cond`: runs one lambda.
template <typename Then, typename Else>
auto If(const Value& cond, Then&& then_branch, Else&& else_branch,
        std::source_location location = std::source_location::current()) {
  using TS = detail::ResultShape<std::decay_t<std::invoke_result_t<Then&>>>;
  using ES = detail::ResultShape<std::decay_t<std::invoke_result_t<Else&>>>;
  static_assert(!TS::has_condition && !ES::has_condition,
                "If branches return values, not a LoopCondition");
  static_assert(TS::dynamic || ES::dynamic || TS::count == ES::count,
                "If: then_branch and else_branch return different numbers of values");
  constexpr bool dynamic = TS::dynamic || ES::dynamic;
  constexpr size_t count = TS::dynamic ? ES::count : TS::count;
  auto run_then = [&](detail::BodyResult& out) { detail::collect(then_branch(), out); };
  auto run_else = [&](detail::BodyResult& out) { detail::collect(else_branch(), out); };
  return detail::package<dynamic, count>(
      detail::if_impl(cond, run_then, run_else, dynamic ? 0 : count, location));
}

/// A counted loop, Python's `for i in range(trip_count)`, as an ONNX Loop.
///
/// `carried` holds the initial loop-carried values. `body` takes the
/// iteration number (an int64 scalar) and the current carried values, and
/// returns the next carried values followed by any scan outputs (values
/// stacked over the iterations along a new first axis). To stop early it may
/// return break_if(cond) or continue_while(cond) first.
///
/// Returns the final carried values, then the scan outputs.
///
///     auto [sum, partial_sums] = for_range(4, {0.0f}, [&](Value i, Value acc) {
///       Value next = acc + op::Cast(i, {.to = DataType::kFloat});
///       return std::tuple{break_if(next > 5.0f), next, next};
///     });
template <typename Body>
auto for_range(const Value& trip_count, std::vector<Value> carried, Body&& body,
               std::source_location location = std::source_location::current()) {
  using Params = detail::LambdaParams<Body>;
  static_assert(Params::count >= 1,
                "a for_range body takes the iteration number, then the carried values");
  using RS = detail::ResultShape<typename Params::result>;
  static_assert(
      RS::dynamic || RS::count >= Params::count - 1,
      "a for_range body returns its carried values (one per parameter after the iteration "
      "number), then any scan outputs");
  auto run = [&](std::span<const Value> args, detail::BodyResult& out) {
    detail::collect(
        detail::call_with_values(body, args, static_cast<typename Params::types*>(nullptr)), out);
  };
  return detail::package<RS::dynamic, RS::count>(
      detail::loop_impl(trip_count, Value(), std::move(carried), true, Params::count,
                        RS::dynamic ? detail::kDynamicCount : RS::count, run, location));
}

/// A conditional loop, Python's `while cond:`, as an ONNX Loop without a trip
/// count. `body` takes the current carried values and returns
/// continue_while(next_cond) (or break_if(stop)) first, then the next carried
/// values, then any scan outputs.
///
/// Returns the final carried values, then the scan outputs.
template <typename Body>
auto while_loop(const Value& cond, std::vector<Value> carried, Body&& body,
                std::source_location location = std::source_location::current()) {
  using Params = detail::LambdaParams<Body>;
  using RS = detail::ResultShape<typename Params::result>;
  static_assert(RS::dynamic || RS::has_condition,
                "a while_loop body returns continue_while(cond) or break_if(cond) first");
  static_assert(
      RS::dynamic || RS::count >= Params::count,
      "a while_loop body returns its carried values (one per parameter), then any scan outputs");
  auto run = [&](std::span<const Value> args, detail::BodyResult& out) {
    detail::collect(
        detail::call_with_values(body, args, static_cast<typename Params::types*>(nullptr)), out);
  };
  return detail::package<RS::dynamic, RS::count>(
      detail::loop_impl(Value(), cond, std::move(carried), false, Params::count,
                        RS::dynamic ? detail::kDynamicCount : RS::count, run, location));
}

/// A graph to pass as a graph attribute (the body of op::Scan, op::Loop,
/// op::SequenceMap, a branch of op::If). `input_names` name the lambda's
/// parameters, whose types (Value, or a typed value such as FLOAT<"N">) type
/// the graph's inputs; the lambda returns the outputs, so Graph::num_outputs()
/// tells the operator how many results it has:
///
///     const Graph Sum = graph("Sum", {"sum_in", "next"}, [](Value sum_in, Value next) {
///       Value sum_out = sum_in + next;
///       return std::tuple{sum_out, op::Identity(sum_out)};
///     });
///     auto [total, cumulative] = unpack<2>(op::Scan({Value(0.0f), X}, {.body = Sum,
///     .num_scan_inputs = 1}));
///
/// Built inside a trace, the graph may read the trace's values. Built outside
/// any (at namespace scope, or in eager mode), it stands alone: it is copied
/// with fresh names into each graph that uses it, and brings along the
/// opsets and script functions it uses.
template <typename F>
Graph graph(std::string name, std::vector<std::string> input_names, F&& lambda,
            std::source_location location = std::source_location::current()) {
  using Params = detail::LambdaParams<F>;
  std::vector<std::optional<ir::Type>> types;
  [&]<typename... Ps>(std::tuple<Ps...>*) {
    (types.push_back(detail::declared_type<Ps>()), ...);
  }(static_cast<typename Params::types*>(nullptr));
  auto run = [&](std::span<const Value> args, detail::BodyResult& out) {
    detail::collect(
        detail::call_with_values(lambda, args, static_cast<typename Params::types*>(nullptr)), out);
  };
  return detail::graph_impl(std::move(name), std::move(input_names), std::move(types), run,
                            location);
}

}  // namespace onnxscript
