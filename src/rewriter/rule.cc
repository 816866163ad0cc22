// Rule: tracing the pattern once and indexing it for the matcher; Match:
// what conditions and replacements read about a match.

#include "onnxscript/rewriter/rule.h"

#include <fmt/format.h>

#include <unordered_set>

#include "onnxscript/infer/infer.h"
#include "onnxscript/script/trace.h"
#include "onnxscript/support/error.h"
#include "optimizer/graph_util.h"
#include "rewriter/rule_impl.h"

namespace onnxscript::rewriter {

namespace detail {

size_t RuleImpl::input(std::string_view n) const {
  for (size_t i = 0; i < input_names.size(); ++i)
    if (input_names[i] == n) return i;
  throw Error(fmt::format("rule '{}': no pattern input '{}'", name, n));
}

}  // namespace detail

namespace {

// Traces `pattern` into `impl.pattern` and indexes what the matcher needs.
void trace_pattern(detail::RuleImpl& impl, const PatternFn& pattern) {
  impl.pattern = std::make_unique<ir::Graph>(impl.name);
  std::vector<Value> args;
  for (size_t i = 0; i < impl.input_names.size(); ++i) {
    ir::Value* v = impl.pattern->add_input(impl.input_names[i]);
    impl.input_index.emplace(v, i);
    args.push_back(Value::traced(v));
  }
  ir::OpsetImports opsets;
  std::vector<Value> results;
  try {
    // Pattern inputs have no types, and attribute variables are references
    // that no inference rule could read: trace without inference.
    TraceOptions options = trace_options();
    options.infer_types = false;
    ScopedTraceOptions scoped(options);
    TraceScope scope(*impl.pattern, opsets);
    results = pattern(args);
  } catch (const std::exception& e) {
    throw Error(fmt::format("rule '{}': tracing the pattern failed: {}", impl.name, e.what()));
  }
  if (results.empty()) throw Error(fmt::format("rule '{}': the pattern has no output", impl.name));
  for (const Value& r : results) {
    const ir::Value* v = r.ir_value();
    if (!v || v->graph() != impl.pattern.get() || !v->producer())
      throw Error(fmt::format(
          "rule '{}': each pattern output must be computed by an operator of the pattern "
          "(not an input, a literal or a tensor)",
          impl.name));
    impl.outputs.push_back(v);
  }
  // The nodes the outputs depend on; anything else the lambda traced is not
  // part of the pattern.
  std::unordered_set<const ir::Node*> reachable;
  std::vector<const ir::Node*> stack;
  for (const ir::Value* v : impl.outputs) stack.push_back(v->producer());
  while (!stack.empty()) {
    const ir::Node* n = stack.back();
    stack.pop_back();
    if (!reachable.insert(n).second) continue;
    for (const ir::Value* in : n->inputs())
      if (in && in->producer()) stack.push_back(in->producer());
  }
  for (const ir::Node* n : impl.pattern->nodes()) {
    if (!reachable.count(n)) continue;
    if (!n->subgraphs().empty())
      throw Error(fmt::format("rule '{}': pattern nodes with subgraphs ({}) are not supported",
                              impl.name, n->op_type()));
    const size_t index = impl.nodes.size();
    impl.node_index.emplace(n, index);
    impl.nodes.push_back(n);
    for (const ir::Value* out : n->outputs())
      if (!out->name().empty()) impl.named_nodes.emplace(out->name(), index);
    for (const ir::Attribute& a : n->attributes()) {
      if (!a.is_reference() || impl.attr_index.count(a.ref_attr_name)) continue;
      impl.attr_index.emplace(a.ref_attr_name, impl.attr_vars.size());
      impl.attr_vars.push_back(a.ref_attr_name);
    }
  }
}

}  // namespace

Rule::Rule(std::string name, std::vector<std::string> inputs, size_t arity, PatternFn pattern,
           ReplacementFn replacement, Condition condition, RuleOptions options) {
  auto impl = std::make_shared<detail::RuleImpl>();
  impl->name = std::move(name);
  if (inputs.size() != arity)
    throw Error(fmt::format("rule '{}': {} input names for a pattern of {} parameters", impl->name,
                            inputs.size(), arity));
  impl->input_names = std::move(inputs);
  impl->arity = arity;
  impl->replacement = std::move(replacement);
  impl->condition = std::move(condition);
  impl->options = options;
  trace_pattern(*impl, pattern);
  impl_ = std::move(impl);
}

const std::string& Rule::name() const { return impl_->name; }

const ir::Graph& Rule::pattern() const { return *impl_->pattern; }

Match::Match(const detail::RuleImpl& rule, const detail::MatchState& state, const ir::Model& model,
             ir::Graph& graph, const ir::Function* function)
    : rule_(&rule), state_(&state), model_(&model), graph_(&graph), function_(function) {}

ir::Value* Match::value(std::string_view input) const {
  return state_->inputs[rule_->input(input)];
}

const ir::Tensor* Match::constant(std::string_view input) const {
  return optimizer::detail::constant_tensor(value(input));
}

namespace {

// The type of `v`: declared, its constant's, or inferred from its producer
// (whose inputs are typed first, up to `depth` producers back). Inference
// writes the types it finds onto the values, as tracing does; a model's
// files list only value_info entries, so what it writes does not show there.
std::optional<ir::Type> type_of(ir::Value* v, const Match& m, int depth) {
  if (!v) return std::nullopt;
  if (v->type()) return v->type();
  if (const ir::Tensor* t = optimizer::detail::constant_tensor(v))
    return ir::Type::tensor(t->dtype(), ir::Shape(t->shape().begin(), t->shape().end()));
  ir::Node* producer = v->producer();
  if (!producer || depth <= 0 || !producer->subgraphs().empty()) return std::nullopt;
  for (ir::Value* in : producer->inputs()) type_of(in, m, depth - 1);
  const std::optional<int64_t> version = m.opset(producer->domain());
  if (!version) return std::nullopt;
  try {
    infer::infer_node_outputs(*producer, *version);
  } catch (const std::exception&) {
    return std::nullopt;  // running the model will report what is wrong
  }
  return v->type();
}

}  // namespace

std::optional<ir::Type> Match::type(std::string_view input) const {
  return type_of(value(input), *this, 32);
}

std::optional<int64_t> Match::rank(std::string_view input) const {
  const std::optional<ir::Type> t = type(input);
  if (!t || !t->is_tensor() || !t->shape) return std::nullopt;
  return static_cast<int64_t>(t->shape->size());
}

const ir::Attribute* Match::attribute(std::string_view var) const {
  const auto it = rule_->attr_index.find(std::string(var));
  if (it == rule_->attr_index.end())
    throw Error(
        fmt::format("rule '{}': the pattern has no attribute variable '{}'", rule_->name, var));
  const std::optional<ir::Attribute>& a = state_->attrs[it->second];
  return a ? &*a : nullptr;
}

ir::Node* Match::node(std::string_view name) const {
  const auto it = rule_->named_nodes.find(std::string(name));
  if (it == rule_->named_nodes.end())
    throw Error(
        fmt::format("rule '{}': no pattern node has an output named '{}'", rule_->name, name));
  return state_->nodes[it->second];
}

std::vector<ir::Node*> Match::nodes() const { return state_->nodes; }

const ir::Model& Match::model() const { return *model_; }

ir::Graph& Match::graph() const { return *graph_; }

std::optional<int64_t> Match::opset(std::string_view domain) const {
  auto find = [&](const ir::OpsetImports& opsets) -> std::optional<int64_t> {
    if (auto v = opsets.find(domain)) return v;
    if (domain.empty()) return opsets.find("ai.onnx");
    if (domain == "ai.onnx") return opsets.find("");
    return std::nullopt;
  };
  if (function_)
    if (auto v = find(function_->opset_imports)) return v;
  return find(model_->opset_imports);
}

bool Match::reject(std::string reason) const {
  rejection_ = std::move(reason);
  return false;
}

Value with_attributes_of(Value v, const ir::Node& from) {
  ir::Value* traced = v.ir_value();
  if (!traced || !traced->producer())
    throw Error("with_attributes_of: the value is not the output of a traced node");
  ir::Node* node = traced->producer();
  for (const ir::Attribute& a : from.attributes()) node->set_attribute(a);
  // Inference typed the node without these attributes: forget what it said.
  for (ir::Value* out : node->outputs()) out->set_type(std::nullopt);
  return v;
}

}  // namespace onnxscript::rewriter
