// The "rewrite" pass: finds matches of each rule, traces the replacement into
// the graph, and swaps it in for the matched nodes.

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/rewriter/rules.h"
#include "onnxscript/schema/operator_schema.h"
#include "onnxscript/script/trace.h"
#include "optimizer/graph_util.h"
#include "rewriter/matcher.h"
#include "rewriter/rule_impl.h"

namespace onnxscript::rewriter {

namespace opt = optimizer::detail;

std::string RuleReport::to_string() const {
  return fmt::format("{} on {}: {}/{} nodes matched; {}", rule, graph, matched_nodes, pattern_nodes,
                     failure);
}

namespace {

// The graph's name for reports.
std::string site_name(const opt::GraphSite& site) {
  if (site.is_main) return "main graph";
  if (site.graph->parent_node())
    return fmt::format("subgraph '{}' of {}", site.graph->name(),
                       detail::describe(*site.graph->parent_node()));
  if (site.function)
    return fmt::format("function {}.{}", site.function->domain, site.function->name);
  return fmt::format("graph '{}'", site.graph->name());
}

// The outermost graph holding `graph` (value names are unique across it).
const ir::Graph* top_graph(const ir::Graph* graph) {
  while (graph->parent_graph()) graph = graph->parent_graph();
  return graph;
}

// Everything one sweep over a model shares.
struct Sweep {
  ir::Model& model;
  opt::OuterOutputs outer;
  std::unordered_set<const ir::Node*> taken;
  std::unordered_map<const ir::Graph*, std::unordered_set<std::string>> names;

  std::unordered_set<std::string>& names_of(const ir::Graph& graph) {
    const ir::Graph* top = top_graph(&graph);
    auto [it, fresh] = names.try_emplace(top);
    if (fresh) opt::collect_names(*top, it->second);
    return it->second;
  }
};

// True when `node`'s attributes and input and output counts are ones the
// (older) operator version `op` takes.
bool fits_schema(const ir::Node& node, const schema::OperatorSchema& op) {
  for (const ir::Attribute& a : node.attributes())
    if (!op.attribute(a.name)) return false;
  for (const schema::AttributeSchema& a : op.attributes)
    if (a.required && !node.attribute(a.name)) return false;
  const auto inputs = static_cast<int32_t>(node.inputs().size());
  const auto outputs = static_cast<int32_t>(node.outputs().size());
  return inputs >= op.min_input && inputs <= op.max_input && outputs >= op.min_output &&
         outputs <= op.max_output;
}

// Why the replacement's node `node` may not run at the graph's opset, or "".
// A replacement is traced at its opsets (opset18 for `op::` of opset18);
// the node is kept when the model's version of the operator is that one or
// a later one (which in ONNX accepts what the earlier one did), or an
// earlier one that takes the node's attributes and inputs (Reshape-5 for a
// Reshape-14 without allowzero).
std::string opset_problem(const ir::Model& model, const opt::GraphSite& site, const ir::Node& node,
                          const ir::OpsetImports& traced) {
  const std::string& domain = node.domain();
  const std::optional<int64_t> have = opt::opset_version(model, site, domain);
  if (node.op_type() == "Constant" && opt::is_onnx_domain(domain) && node.attribute("value"))
    return have ? "" : "the model does not import ai.onnx";
  std::optional<int64_t> want = traced.find(domain);
  if (!want && domain.empty()) want = traced.find("ai.onnx");
  if (!have)
    return fmt::format("the model does not import domain '{}' for the replacement's {}",
                       domain.empty() ? "ai.onnx" : domain, node.op_type());
  if (!want || *want == *have) return "";
  if (!opt::is_onnx_domain(domain) && domain != "ai.onnx.ml")
    return fmt::format("the replacement uses {} at version {}, the graph imports {}", domain, *want,
                       *have);
  const schema::OperatorSchema* at_model = schema::find_schema(domain, node.op_type(), *have);
  const schema::OperatorSchema* at_trace = schema::find_schema(domain, node.op_type(), *want);
  if (at_model && at_trace && at_model->since_version < at_trace->since_version &&
      fits_schema(node, *at_model))
    return "";
  if (!at_model || !at_trace || at_model->since_version < at_trace->since_version)
    return fmt::format(
        "the replacement's {} is version {} of the operator; the graph's opset {} has {}",
        node.op_type(), at_trace ? at_trace->since_version : 0, *have,
        at_model ? fmt::format("version {}", at_model->since_version) : std::string("none"));
  return "";
}

// Replaces the match `s` of `rule` in `site`'s graph; "" on success, else why
// not (the graph is then as it was).
std::string apply(const detail::RuleImpl& rule, const detail::MatchState& s,
                  const opt::GraphSite& site, Sweep& sweep, size_t& new_node_count) {
  ir::Graph& graph = *site.graph;
  const Match m(rule, s, sweep.model, graph, site.function);
  std::vector<Value> args;
  for (ir::Value* v : s.inputs) args.push_back(v ? Value::traced(v) : Value());
  ir::Node* const last_before = graph.last_node();
  std::vector<ir::Node*> added;
  auto added_nodes = [&] {
    added.clear();
    for (ir::Node* n = last_before ? last_before->next() : graph.first_node(); n; n = n->next())
      added.push_back(n);
  };
  auto roll_back = [&] {
    added_nodes();
    for (auto it = added.rbegin(); it != added.rend(); ++it) graph.erase(*it);
  };
  ir::OpsetImports traced;
  std::vector<Value> results;
  try {
    TraceScope scope(graph, traced);
    results = rule.replacement(m, args);
  } catch (const std::exception& e) {
    roll_back();
    return fmt::format("the replacement failed: {}", e.what());
  }
  added_nodes();
  // Results that are tensors (a replacement computing a constant eagerly)
  // become Constant nodes.
  std::vector<ir::Value*> values;
  for (const Value& r : results) {
    ir::Value* v = r.ir_value();
    if (!v && r.is_concrete() && r.concrete().is_tensor()) {
      ir::Node* c = graph.append_node("Constant", std::span<ir::Value* const>{}, 1);
      c->set_attribute(ir::Attribute::make_tensor("value", r.tensor()));
      c->output(0)->set_name("const");
      const ir::Tensor& t = r.tensor();
      c->output(0)->set_type(
          ir::Type::tensor(t.dtype(), ir::Shape(t.shape().begin(), t.shape().end())));
      added.push_back(c);
      v = c->output(0);
    }
    if (!v) {
      roll_back();
      return "a replacement result is not a value of the graph (a literal or an omitted value)";
    }
    values.push_back(v);
  }
  if (values.size() != rule.outputs.size()) {
    roll_back();
    return fmt::format("the replacement returned {} values for {} pattern outputs", values.size(),
                       rule.outputs.size());
  }
  for (const ir::Node* n : added) {
    if (std::string why = opset_problem(sweep.model, site, *n, traced); !why.empty()) {
      roll_back();
      return why;
    }
  }
  // The replacement stands where the first pattern output was computed.
  ir::Node* root = s.nodes[rule.node_index.at(rule.outputs[0]->producer())];
  std::unordered_set<std::string>& names = sweep.names_of(graph);
  const std::string base = root->output(0)->name().empty() ? rule.name : root->output(0)->name();
  const bool initializers = site.is_main && sweep.model.ir_version >= 4;
  for (ir::Node* n : added) {
    graph.move_before(n, root);
    sweep.taken.insert(n);
    for (ir::Value* out : n->outputs())
      if (!out->name().empty()) out->set_name(opt::fresh_name(base, names));
  }
  // Constants in the main graph become initializers, as the folder makes them.
  size_t constants = 0;
  if (initializers) {
    for (ir::Node*& n : added) {
      const ir::Attribute* value = n->attribute("value");
      if (n->op_type() != "Constant" || !opt::is_onnx_domain(n->domain()) || !value ||
          value->type != ir::AttributeType::kTensor || n->attributes().size() != 1)
        continue;
      ir::Value* out = n->output(0);
      ir::Value* init =
          graph.add_initializer(opt::fresh_name(base + "_const", names), value->as_tensor());
      init->set_type(out->type());
      out->replace_all_uses_with(init);
      std::replace(values.begin(), values.end(), out, init);
      graph.erase(n);
      n = nullptr;
      ++constants;
    }
  }
  new_node_count = added.size() - constants;
  // The pattern's outputs now read the replacement's values.
  const std::unordered_set<ir::Node*> fresh(added.begin(), added.end());
  for (size_t k = 0; k < values.size(); ++k) {
    const ir::Value* pv = rule.outputs[k];
    ir::Value* old = s.nodes[rule.node_index.at(pv->producer())]->output(
        static_cast<size_t>(pv->output_index()));
    ir::Value* now = values[k];
    if (now == old) continue;
    if (now->producer() && fresh.count(now->producer())) {
      // The value is the one it replaces: its declared type stands (what
      // inference gave the new node may know less).
      if (old->type()) now->set_type(old->type());
      opt::replace_value_renaming(old, now, sweep.outer);
    } else {
      opt::replace_value(old, now, sweep.outer);
    }
  }
  // Then the matched nodes go, readers before what they read.
  std::vector<ir::Node*> left(s.nodes.begin(), s.nodes.end());
  while (!left.empty()) {
    const size_t before = left.size();
    std::erase_if(left, [&](ir::Node* n) {
      for (const ir::Value* out : n->outputs())
        if (opt::is_used(out, sweep.outer)) return false;
      sweep.taken.insert(n);
      graph.erase(n);
      return true;
    });
    // A replacement that reads a matched node's output (through
    // Match::node) keeps that node; "dce" removes it once nothing reads it.
    if (left.size() == before) break;
  }
  return "";
}

}  // namespace

RewritePass::RewritePass(std::vector<Rule> rules, RewriteOptions options)
    : rules_(std::move(rules)), options_(options) {}

bool RewritePass::run_once(ir::Model& model) {
  reports_.clear();
  Sweep sweep{model, opt::OuterOutputs(model), {}, {}};
  size_t rewritten = 0;
  for (const opt::GraphSite& site : opt::graphs_inner_first(model)) {
    ir::Graph& graph = *site.graph;
    std::vector<ir::Node*> order;
    std::unordered_map<std::string, std::vector<ir::Node*>> by_op;
    for (ir::Node* n : graph.nodes()) {
      order.push_back(n);
      by_op[n->op_type()].push_back(n);
    }
    const detail::MatchContext ctx{&model,       &graph,       site.function,
                                   &sweep.outer, &sweep.taken, &by_op};
    std::vector<detail::Matcher> matchers;
    std::vector<size_t> fired(rules_.size(), 0);
    std::vector<std::string> apply_failures(rules_.size());
    for (const Rule& r : rules_) matchers.emplace_back(r.impl(), ctx);
    bool sort = false;
    // Last node first: a pattern's root comes after the nodes it reads, so
    // the longest pattern ending at a node is tried before an inner node
    // could be taken by a shorter one.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      ir::Node* node = *it;
      for (size_t r = 0; r < rules_.size(); ++r) {
        if (node->is_erased() || sweep.taken.count(node)) break;
        const detail::RuleImpl& rule = rules_[r].impl();
        const ir::Node* root = rule.outputs[0]->producer();
        if (node->op_type() != root->op_type()) continue;
        std::optional<detail::MatchState> s = matchers[r].match_at(node);
        if (!s) continue;
        size_t added = 0;
        std::string why = apply(rule, *s, site, sweep, added);
        if (!why.empty()) {
          apply_failures[r] = std::move(why);
          continue;
        }
        ++fired[r];
        ++fired_[rule.name];
        rewritten += rule.nodes.size();
        if (rule.outputs.size() > 1) sort = true;
      }
    }
    if (sort) graph.sort_topologically();
    if (!options_.debug) continue;
    for (size_t r = 0; r < rules_.size(); ++r) {
      if (fired[r] > 0) continue;
      const detail::RuleImpl& rule = rules_[r].impl();
      RuleReport report{rule.name, site_name(site), matchers[r].best_matched(), rule.nodes.size(),
                        matchers[r].best_failure()};
      if (!apply_failures[r].empty()) {
        report.matched_nodes = rule.nodes.size();
        report.failure = "matched, but " + apply_failures[r];
      } else if (report.failure.empty()) {
        report.failure =
            fmt::format("no {} node in the graph", rule.outputs[0]->producer()->op_type());
      }
      reports_.push_back(std::move(report));
    }
  }
  if (rewritten > 0) opt::prune_value_info(model);
  mutable_counts().nodes_rewritten += rewritten;
  return rewritten > 0;
}

std::unique_ptr<RewritePass> make_rewrite_pass(std::vector<Rule> rules, RewriteOptions options) {
  return std::make_unique<RewritePass>(std::move(rules), options);
}

std::unique_ptr<RewritePass> make_rewrite_pass() { return make_rewrite_pass(default_rules()); }

}  // namespace onnxscript::rewriter
