#include "onnxscript/script/control_flow.h"

#include <algorithm>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "onnxscript/eval/eager.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/ir/graph.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/operators.h"
#include "onnxscript/script/trace.h"
#include "script/constant_node.h"
#include "script/graph_outputs.h"
#include "script/literal.h"
#include "script/subgraph.h"

namespace onnxscript {

LoopCondition continue_while(Value cond) { return LoopCondition(cond); }

LoopCondition break_if(Value cond) { return LoopCondition(!cond); }

namespace detail {

namespace {

// The concrete value `v` stands for, literals becoming tensors (of `dtype`
// unless it is kUndefined). Throws ScriptError for traced values.
eval::RuntimeValue concrete_of(const Value& v, DataType dtype, std::string_view construct,
                               std::string_view what, const std::source_location& location) {
  if (v.is_concrete()) return v.concrete();
  if (v.is_literal())
    return literal_tensor(v, dtype == DataType::kUndefined ? default_literal_type(v) : dtype);
  if (v.is_none()) fail_construct(construct, fmt::format("{} is missing", what), location);
  fail_construct(
      construct,
      fmt::format("{} is {} while the loop runs eagerly; a body run on concrete values must not "
                  "read traced "
                  "values",
                  what, v.describe()),
      location);
}

// A concrete one-element bool (or a bool literal) as a C++ bool.
bool condition_value(const Value& v, std::string_view construct, std::string_view what,
                     const std::source_location& location) {
  if (v.kind() == Value::Kind::kBoolLiteral) return v.literal_as_int() != 0;
  if (v.is_concrete() && v.concrete().is_tensor()) {
    const Tensor& t = v.tensor();
    if (t.dtype() == DataType::kBool && t.numel() == 1) return *t.data<bool>();
  }
  fail_construct(construct, fmt::format("{} must be a bool scalar, got {}", what, v.describe()),
                 location);
}

// A concrete one-element integer (or an integer literal) as an int64.
int64_t trip_count_value(const Value& v, std::string_view construct,
                         const std::source_location& location) {
  if (v.kind() == Value::Kind::kIntLiteral) return v.literal_as_int();
  if (v.is_concrete() && v.concrete().is_tensor()) {
    const Tensor& t = v.tensor();
    if (t.dtype() == DataType::kInt64 && t.numel() == 1) return *t.data<int64_t>();
  }
  fail_construct(construct,
                 fmt::format("the trip count must be an int64 scalar, got {}", v.describe()),
                 location);
}

void expect_dtype(const Value& v, DataType expected, std::string_view construct,
                  std::string_view what, const std::source_location& location) {
  if (auto d = v.dtype(); d && *d != expected) {
    fail_construct(construct,
                   fmt::format("{} must be {}, but it is {}", what, ir::data_type_name(expected),
                               ir::data_type_name(*d)),
                   location);
  }
}

// Traces `fn` into `graph` as a subgraph of the innermost trace.
BodyResult trace_branch(ir::Graph& graph, BranchRef fn, TraceScope& parent) {
  ir::OpsetImports opsets = parent.opsets();
  TraceScope scope(graph, opsets, TraceScope::Nesting::kSubgraph);
  BodyResult result;
  fn(result);
  return result;
}

std::string type_name(const std::optional<ir::Type>& t) {
  return t ? t->to_string() : "of unknown type";
}

// A carried value's type inside the body: what it starts as, with the
// dimensions left open, since iterations may change them.
std::optional<ir::Type> carried_input_type(const std::optional<ir::Type>& initial) {
  if (!initial) return std::nullopt;
  if (!initial->is_tensor()) return initial;
  if (!initial->shape) return ir::Type::tensor(initial->elem_type);
  return ir::Type::tensor(initial->elem_type,
                          ir::Shape(std::vector<ir::Dim>(initial->shape->size())));
}

}  // namespace

// ---------------------------------------------------------------- If

std::vector<Value> if_impl(const Value& cond, BranchRef then_branch, BranchRef else_branch,
                           size_t arity, std::source_location location) {
  constexpr std::string_view kIf = "If";
  if (!cond.is_traced()) {
    // Known now: choose the branch, as Python's `if` on a constant does.
    BodyResult result;
    (condition_value(cond, kIf, "the condition", location) ? then_branch : else_branch)(result);
    // A literal result becomes a tensor (of its default type; the other
    // branch, which would tell its type when tracing, does not run).
    for (Value& v : result.values) {
      if (v.is_literal()) v = Value(literal_tensor(v, default_literal_type(v)));
    }
    return std::move(result.values);
  }
  TraceScope* scope = TraceScope::current();
  if (!scope)
    fail_construct(kIf, "the condition is a traced value but no trace is active", location);
  expect_dtype(cond, DataType::kBool, kIf, "the condition", location);

  auto then_graph = std::make_shared<ir::Graph>("then_branch");
  auto else_graph = std::make_shared<ir::Graph>("else_branch");
  const BodyResult then_result = trace_branch(*then_graph, then_branch, *scope);
  const BodyResult else_result = trace_branch(*else_graph, else_branch, *scope);
  const size_t n = then_result.values.size();
  if (else_result.values.size() != n) {
    fail_construct(kIf,
                   fmt::format("then_branch returns {} values but else_branch returns {}", n,
                               else_result.values.size()),
                   location);
  }
  if (n == 0) fail_construct(kIf, "the branches return no values", location);
  ONNXSCRIPT_CHECK(arity == 0 || arity == n, "If: {} results where {} were expected", n, arity);

  // A literal in one branch takes the element type of the other's value.
  std::vector<DataType> then_literals(n, DataType::kUndefined),
      else_literals(n, DataType::kUndefined);
  for (size_t i = 0; i < n; ++i) {
    then_literals[i] = else_result.values[i].dtype().value_or(DataType::kUndefined);
    else_literals[i] = then_result.values[i].dtype().value_or(DataType::kUndefined);
  }
  {
    ir::OpsetImports opsets = scope->opsets();
    TraceScope sub(*then_graph, opsets, TraceScope::Nesting::kSubgraph);
    set_graph_outputs(sub, then_result.values, then_literals, kIf, location);
  }
  {
    ir::OpsetImports opsets = scope->opsets();
    TraceScope sub(*else_graph, opsets, TraceScope::Nesting::kSubgraph);
    set_graph_outputs(sub, else_result.values, else_literals, kIf, location);
  }
  for (size_t i = 0; i < n; ++i) {
    bool conflict = false;
    const auto& t = then_graph->outputs()[i]->type();
    const auto& e = else_graph->outputs()[i]->type();
    infer::merge_types(t, e, &conflict);
    if (conflict) {
      fail_construct(kIf,
                     fmt::format("result {} is {} in then_branch but {} in else_branch", i,
                                 type_name(t), type_name(e)),
                     location);
    }
  }

  ir::Node* node = append_traced_node(*scope, "If", {cond.ir_value()}, n, location);
  node->set_attribute(ir::Attribute::make_graph("then_branch", std::move(then_graph)));
  node->set_attribute(ir::Attribute::make_graph("else_branch", std::move(else_graph)));
  infer::type_from_subgraphs(*node);
  std::vector<Value> outs;
  outs.reserve(n);
  for (ir::Value* out : node->outputs()) outs.push_back(Value::traced(out));
  return outs;
}

// ---------------------------------------------------------------- loops

namespace {

// The scan outputs of a loop that ran no iteration: empty tensors of the
// element type the body gives them. The body never ran, so it is traced
// once, on inputs typed like the carried values, which is where the Session
// finds the same types (in the Loop body's graph). A body that cannot be
// traced (C++ control flow on its values, say) leaves the type unknown, and
// the outputs are float, the one case where the two modes may differ.
std::vector<Tensor> empty_scan_outputs(const std::vector<eval::RuntimeValue>& state,
                                       bool with_iteration, std::optional<size_t> num_scans,
                                       BodyRef body) {
  ir::Graph probe("loop_body");
  ir::OpsetImports opsets;
  std::vector<std::optional<ir::Type>> types;
  try {
    TraceScope scope(probe, opsets);
    std::vector<Value> args;
    if (with_iteration)
      args.push_back(
          Value::traced(probe.add_input("iter", ir::Type::tensor(DataType::kInt64, ir::Shape{}))));
    for (size_t c = 0; c < state.size(); ++c) {
      std::optional<ir::Type> type;
      if (state[c].is_tensor()) type = detail::tensor_value_type(state[c].tensor());
      args.push_back(Value::traced(probe.add_input(fmt::format("v{}", c), std::move(type))));
    }
    BodyResult result;
    body(args, result);
    for (size_t q = state.size(); q < result.values.size(); ++q) {
      const ir::Value* v = result.values[q].ir_value();
      types.push_back(v && v->type() && v->type()->is_tensor() ? v->type()
                                                               : std::optional<ir::Type>());
    }
  } catch (const Error&) {
    types.clear();
  }
  std::vector<Tensor> outs;
  for (size_t q = 0; q < num_scans.value_or(types.size()); ++q) {
    const std::optional<ir::Type> type = q < types.size() ? types[q] : std::nullopt;
    // Stacked over no iteration: a leading 0, then the element's shape when
    // every dimension of it is known.
    std::vector<int64_t> dims{0};
    if (type && type->shape &&
        std::all_of(type->shape->begin(), type->shape->end(),
                    [](const ir::Dim& d) { return d.is_static(); }))
      for (const ir::Dim& d : *type->shape) dims.push_back(d.value());
    outs.emplace_back(type ? type->elem_type : DataType::kFloat, dims);
  }
  return outs;
}

std::vector<Value> run_loop_eagerly(const Value& trip_count, const Value& cond,
                                    const std::vector<Value>& carried, bool with_iteration,
                                    size_t num_results, BodyRef body, std::string_view construct,
                                    const std::source_location& location) {
  int64_t trips = std::numeric_limits<int64_t>::max();
  if (!trip_count.is_none()) trips = trip_count_value(trip_count, construct, location);
  bool keep_going = cond.is_none() || condition_value(cond, construct, "the condition", location);

  std::vector<eval::RuntimeValue> state;
  state.reserve(carried.size());
  for (size_t i = 0; i < carried.size(); ++i) {
    state.push_back(concrete_of(carried[i], DataType::kUndefined, construct,
                                fmt::format("carried value {}", i), location));
  }
  // Without iterations the body never says how many scan outputs it has;
  // the static result count does, when there is one.
  std::optional<size_t> num_scans;
  if (num_results != kDynamicCount && num_results >= state.size())
    num_scans = num_results - state.size();
  std::vector<std::vector<eval::RuntimeValue>> scans(num_scans.value_or(0));
  bool ran_once = false;
  for (int64_t i = 0; i < trips && keep_going; ++i) {
    ran_once = true;
    std::vector<Value> args;
    args.reserve(state.size() + 1);
    if (with_iteration) args.emplace_back(Tensor::scalar<int64_t>(i));
    for (const eval::RuntimeValue& s : state) args.emplace_back(s);
    BodyResult result;
    body(args, result);
    if (result.values.size() < state.size()) {
      fail_construct(construct,
                     fmt::format("the body returns {} values but the loop carries {}",
                                 result.values.size(), state.size()),
                     location);
    }
    const size_t k = result.values.size() - state.size();
    if (num_scans && *num_scans != k) {
      fail_construct(construct,
                     fmt::format("the body returned {} scan outputs, then {}", *num_scans, k),
                     location);
    }
    num_scans = k;
    scans.resize(k);
    if (result.has_condition) {
      keep_going = condition_value(result.condition, construct, "the loop condition", location);
    } else if (!with_iteration) {
      fail_construct(construct, "the body must return continue_while(...) or break_if(...) first",
                     location);
    }
    for (size_t c = 0; c < state.size(); ++c) {
      const DataType dtype =
          state[c].is_tensor() ? state[c].tensor().dtype() : DataType::kUndefined;
      state[c] = concrete_of(result.values[c], dtype, construct, fmt::format("carried value {}", c),
                             location);
    }
    for (size_t q = 0; q < k; ++q) {
      scans[q].push_back(concrete_of(result.values[state.size() + q], DataType::kUndefined,
                                     construct, fmt::format("scan output {}", q), location));
    }
  }

  std::vector<Value> outs;
  outs.reserve(state.size() + scans.size());
  for (const eval::RuntimeValue& s : state) outs.emplace_back(s);
  if (!ran_once) {
    for (Tensor& t : empty_scan_outputs(state, with_iteration, num_scans, body))
      outs.emplace_back(std::move(t));
    return outs;
  }
  for (const auto& items : scans) {
    // Stacked along a new first axis, as the ONNX Loop does.
    const ir::Attribute attrs[] = {ir::Attribute::make_int("axis", 0),
                                   ir::Attribute::make_int("new_axis", 1)};
    const eval::RuntimeValue seq = eval::run_op("SequenceConstruct", items).at(0);
    outs.emplace_back(
        eval::run_op("ConcatFromSequence", std::span<const eval::RuntimeValue>(&seq, 1), attrs)
            .at(0));
  }
  return outs;
}

}  // namespace

std::vector<Value> loop_impl(const Value& trip_count, const Value& cond, std::vector<Value> carried,
                             bool with_iteration, size_t num_params, size_t num_results,
                             BodyRef body, std::source_location location) {
  const std::string_view construct = with_iteration ? "for_range" : "while_loop";
  const size_t num_carried = carried.size();
  if (num_params != num_carried + (with_iteration ? 1 : 0)) {
    fail_construct(
        construct,
        fmt::format("the body takes {} parameters, but the loop carries {} values{}", num_params,
                    num_carried, with_iteration ? " (plus the iteration number)" : ""),
        location);
  }
  TraceScope* scope = TraceScope::current();
  if (!scope) {
    for (const Value* v : {&trip_count, &cond}) {
      if (v->is_traced())
        fail_construct(construct, "a traced value is used outside the script that traces it",
                       location);
    }
    return run_loop_eagerly(trip_count, cond, carried, with_iteration, num_results, body, construct,
                            location);
  }

  // Traced: an ONNX Loop node. Its inputs live in the enclosing graph.
  expect_dtype(trip_count, DataType::kInt64, construct, "the trip count", location);
  expect_dtype(cond, DataType::kBool, construct, "the condition", location);
  ir::Value* max_trips =
      traced_of(trip_count, DataType::kInt64, *scope, construct, "the trip count", location);
  ir::Value* initial_cond =
      traced_of(cond, DataType::kBool, *scope, construct, "the condition", location);
  std::vector<ir::Value*> initial(num_carried);
  for (size_t i = 0; i < num_carried; ++i) {
    initial[i] = traced_of(carried[i], DataType::kUndefined, *scope, construct,
                           fmt::format("carried value {}", i), location);
  }

  auto body_graph = std::make_shared<ir::Graph>("loop_body");
  bool has_condition = false;
  size_t num_scans = 0;
  {
    ir::OpsetImports opsets = scope->opsets();
    TraceScope sub(*body_graph, opsets, TraceScope::Nesting::kSubgraph);
    ir::Value* iteration = body_graph->add_input(sub.fresh_name("iter"),
                                                 ir::Type::tensor(DataType::kInt64, ir::Shape{}));
    ir::Value* cond_in = body_graph->add_input(sub.fresh_name("cond"),
                                               ir::Type::tensor(DataType::kBool, ir::Shape{}));
    std::vector<Value> args;
    if (with_iteration) args.push_back(Value::traced(iteration));
    for (size_t i = 0; i < num_carried; ++i) {
      args.push_back(Value::traced(
          body_graph->add_input(sub.fresh_name("v"), carried_input_type(initial[i]->type()))));
    }
    BodyResult result;
    body(args, result);
    if (result.values.size() < num_carried) {
      fail_construct(construct,
                     fmt::format("the body returns {} values but the loop carries {}",
                                 result.values.size(), num_carried),
                     location);
    }
    if (!with_iteration && !result.has_condition) {
      fail_construct(construct, "the body must return continue_while(...) or break_if(...) first",
                     location);
    }
    has_condition = result.has_condition;
    num_scans = result.values.size() - num_carried;
    std::vector<Value> outputs;
    outputs.reserve(result.values.size() + 1);
    if (has_condition)
      expect_dtype(result.condition, DataType::kBool, construct, "the loop condition", location);
    outputs.push_back(has_condition ? result.condition : Value::traced(cond_in));
    outputs.insert(outputs.end(), result.values.begin(), result.values.end());
    std::vector<DataType> literal_types(outputs.size(), DataType::kUndefined);
    literal_types[0] = DataType::kBool;
    for (size_t i = 0; i < num_carried; ++i) {
      const auto& t = initial[i]->type();
      if (t && t->is_tensor()) literal_types[1 + i] = t->elem_type;
    }
    set_graph_outputs(sub, outputs, literal_types, construct, location);
  }
  // A carried value keeps its type across iterations.
  for (size_t i = 0; i < num_carried; ++i) {
    bool conflict = false;
    const auto& start = initial[i]->type();
    const auto& next = body_graph->outputs()[1 + i]->type();
    infer::merge_types(start, next, &conflict);
    if (conflict) {
      fail_construct(construct,
                     fmt::format("carried value {} starts as {} but the body returns {}", i,
                                 type_name(start), type_name(next)),
                     location);
    }
    ir::Value* input = body_graph->inputs()[2 + i];
    if (next && next->is_tensor() && input->type() && input->type()->shape &&
        (!next->shape || next->shape->size() != input->type()->shape->size())) {
      input->set_type(ir::Type::tensor(next->elem_type));  // its rank changes across iterations
    }
  }
  // With a trip count, ONNX ignores the body's condition unless the loop has
  // one too: give it `true` when the body can stop early.
  if (with_iteration && has_condition && !initial_cond) {
    initial_cond =
        traced_of(Value(true), DataType::kBool, *scope, construct, "the condition", location);
  }

  std::vector<ir::Value*> inputs{max_trips, initial_cond};
  inputs.insert(inputs.end(), initial.begin(), initial.end());
  ir::Node* node =
      append_traced_node(*scope, "Loop", std::move(inputs), num_carried + num_scans, location);
  node->set_attribute(ir::Attribute::make_graph("body", std::move(body_graph)));
  infer::type_from_subgraphs(*node);
  std::vector<Value> outs;
  outs.reserve(node->outputs().size());
  for (ir::Value* out : node->outputs()) outs.push_back(Value::traced(out));
  return outs;
}

// ---------------------------------------------------------------- graph()

Graph graph_impl(std::string name, std::vector<std::string> input_names,
                 std::vector<std::optional<ir::Type>> input_types, BodyRef body,
                 std::source_location location) {
  constexpr std::string_view kGraph = "graph";
  if (input_names.size() != input_types.size()) {
    fail_construct(kGraph,
                   fmt::format("'{}' names {} inputs but its lambda takes {}", name,
                               input_names.size(), input_types.size()),
                   location);
  }
  TraceScope* parent = TraceScope::current();
  std::shared_ptr<DetachedGraphInfo> info;
  std::shared_ptr<ir::Graph> g;
  ir::OpsetImports local;
  if (parent) {
    // Inside a trace: a subgraph of it, which may read its values.
    g = std::make_shared<ir::Graph>(name);
    local = parent->opsets();
  } else {
    info = std::make_shared<DetachedGraphInfo>();
    g = make_detached_graph(name, info);
  }
  {
    std::optional<CalleeCollector> collector;
    if (info) collector.emplace(info->callees);
    TraceScope scope(*g, info ? info->opsets : local,
                     parent ? TraceScope::Nesting::kSubgraph : TraceScope::Nesting::kRoot);
    std::vector<Value> args;
    args.reserve(input_names.size());
    for (size_t i = 0; i < input_names.size(); ++i) {
      args.push_back(Value::traced(g->add_input(input_names[i], std::move(input_types[i]))));
    }
    BodyResult result;
    body(args, result);
    if (result.has_condition)
      fail_construct(kGraph,
                     fmt::format("'{}' returns a loop condition; a graph returns values", name),
                     location);
    if (result.values.empty())
      fail_construct(kGraph, fmt::format("'{}' returns no values", name), location);
    set_graph_outputs(scope, result.values, {}, kGraph, location);
  }
  return Graph(std::move(g));
}

}  // namespace detail
}  // namespace onnxscript
