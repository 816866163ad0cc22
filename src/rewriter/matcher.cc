// The matcher: pattern values are paired with graph values on a work list;
// each choice point (the input order of a commutative operator, the node
// standing for a further pattern output) copies the state and tries each
// alternative in turn. Patterns are a handful of nodes, so the copies are
// cheap and the search is small.

#include "rewriter/matcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

namespace onnxscript::rewriter::detail {
namespace {

bool is_onnx(std::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

bool same_domain(std::string_view a, std::string_view b) {
  return a == b || (is_onnx(a) && is_onnx(b));
}

bool is_commutative(const ir::Node& node) {
  static constexpr std::array<std::string_view, 8> kOps = {"Add", "Mul", "And", "Or",
                                                           "Max", "Min", "Sum", "Equal"};
  return is_onnx(node.domain()) &&
         std::find(kOps.begin(), kOps.end(), node.op_type()) != kOps.end();
}

// The inputs without trailing omitted ones.
size_t used_inputs(const ir::Node& node) {
  size_t n = node.inputs().size();
  while (n > 0 && !node.input(n - 1)) --n;
  return n;
}

std::string value_name(const ir::Value* v) {
  return v ? fmt::format("'{}'", v->name()) : std::string("(omitted)");
}

// Two graph values a pattern input may be bound to at once: one value, or
// constants with the same contents.
bool same_value(const ir::Value* a, const ir::Value* b) {
  if (a == b) return true;
  if (!a || !b) return false;
  const ir::Tensor* ta = optimizer::detail::constant_tensor(a);
  const ir::Tensor* tb = optimizer::detail::constant_tensor(b);
  return ta && tb && ta->same_contents(*tb);
}

}  // namespace

bool same_attribute_value(const ir::Attribute& a, const ir::Attribute& b) {
  if (a.type != b.type || a.is_reference() || b.is_reference()) return false;
  switch (a.type) {
    case ir::AttributeType::kFloat: {
      const float x = a.as_float(), y = b.as_float();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case ir::AttributeType::kInt:
      return a.as_int() == b.as_int();
    case ir::AttributeType::kString:
      return a.as_string() == b.as_string();
    case ir::AttributeType::kInts:
      return a.as_ints() == b.as_ints();
    case ir::AttributeType::kStrings:
      return a.as_strings() == b.as_strings();
    case ir::AttributeType::kFloats: {
      const std::vector<float>& x = a.as_floats();
      const std::vector<float>& y = b.as_floats();
      return x.size() == y.size() &&
             (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
    }
    case ir::AttributeType::kTensor:
      return a.as_tensor().same_contents(b.as_tensor());
    default:
      return false;  // graphs, sparse tensors, types: a pattern does not constrain them
  }
}

std::string describe(const ir::Node& node) {
  if (!node.name().empty()) return fmt::format("node '{}' ({})", node.name(), node.op_type());
  const ir::Value* out = node.outputs().empty() ? nullptr : node.output(0);
  return fmt::format("the {} computing '{}'", node.op_type(), out ? out->name() : "");
}

std::optional<MatchState> Matcher::match_at(ir::Node* node) {
  result_.reset();
  const ir::Value* first = rule_.outputs[0];
  const ir::Node* pn = first->producer();
  if (node->op_type() != pn->op_type() || !same_domain(node->domain(), pn->domain())) {
    fail(MatchState(rule_), fmt::format("{} is not a {}", describe(*node), pn->op_type()));
    return std::nullopt;
  }
  const size_t k = static_cast<size_t>(first->output_index());
  if (k >= node->outputs().size()) return std::nullopt;
  if (solve(MatchState(rule_), {Item{first, node->output(k)}})) return std::move(result_);
  return std::nullopt;
}

bool Matcher::fail(const MatchState& state, std::string reason) {
  if (best_failure_.empty() || state.matched > best_matched_) {
    best_matched_ = state.matched;
    best_failure_ = std::move(reason);
  }
  return false;
}

std::string Matcher::node_mismatch(const ir::Node& pn, ir::Node& gn, MatchState& state) const {
  if (gn.op_type() != pn.op_type() || !same_domain(gn.domain(), pn.domain()))
    return fmt::format("pattern {} met {}", pn.op_type(), describe(gn));
  if (gn.graph() != ctx_.graph) return fmt::format("{} is in an enclosing graph", describe(gn));
  if (ctx_.taken->count(&gn))
    return fmt::format("{} was already rewritten in this sweep", describe(gn));
  if (std::find(state.nodes.begin(), state.nodes.end(), &gn) != state.nodes.end())
    return fmt::format("{} would stand for two pattern nodes", describe(gn));
  if (gn.outputs().size() < pn.outputs().size())
    return fmt::format("{} has {} outputs, the pattern's {} has {}", describe(gn),
                       gn.outputs().size(), pn.op_type(), pn.outputs().size());
  if (used_inputs(gn) != used_inputs(pn))
    return fmt::format("{} has {} inputs, the pattern's has {}", describe(gn), used_inputs(gn),
                       used_inputs(pn));
  for (const ir::Attribute& pa : pn.attributes()) {
    const ir::Attribute* ga = gn.attribute(pa.name);
    if (pa.is_reference()) {
      const size_t var = rule_.attr_index.at(pa.ref_attr_name);
      if (ga && ga->is_reference())
        return fmt::format("{} has attribute {} from a function attribute", describe(gn), pa.name);
      if (state.attr_bound[var]) {
        const std::optional<ir::Attribute>& bound = state.attrs[var];
        const bool same = (!bound && !ga) || (bound && ga && same_attribute_value(*bound, *ga));
        if (!same)
          return fmt::format("attribute variable '{}' differs between two nodes ({}: {})",
                             pa.ref_attr_name, describe(gn), pa.name);
      } else {
        state.attr_bound[var] = true;
        if (ga) state.attrs[var] = *ga;
      }
      continue;
    }
    if (!ga) return fmt::format("{} has no attribute {}", describe(gn), pa.name);
    if (!same_attribute_value(pa, *ga))
      return fmt::format("{} has another value of attribute {}", describe(gn), pa.name);
  }
  return {};
}

bool Matcher::solve(MatchState s, std::vector<Item> pending) {
  while (!pending.empty()) {
    const Item it = pending.back();
    pending.pop_back();
    if (!it.pattern) {
      if (it.graph)
        return fail(s,
                    fmt::format("the pattern omits an input that {} gives", value_name(it.graph)));
      continue;
    }
    if (const auto in = rule_.input_index.find(it.pattern); in != rule_.input_index.end()) {
      const size_t i = in->second;
      if (s.input_bound[i]) {
        if (!same_value(s.inputs[i], it.graph))
          return fail(
              s, fmt::format("pattern input '{}' stands for {} and for {}", rule_.input_names[i],
                             value_name(s.inputs[i]), value_name(it.graph)));
        continue;
      }
      s.input_bound[i] = true;
      s.inputs[i] = it.graph;
      continue;
    }
    const ir::Node* pn = it.pattern->producer();
    if (!pn) {
      // A pattern constant (initializer): the graph must hold the same one.
      const ir::Tensor* want = it.pattern->const_value();
      const ir::Tensor* have = optimizer::detail::constant_tensor(it.graph);
      if (!want || !have || !want->same_contents(*have))
        return fail(s, fmt::format("{} is not the pattern's constant", value_name(it.graph)));
      continue;
    }
    if (!it.graph)
      return fail(
          s, fmt::format("a graph node omits the input the pattern's {} gives", pn->op_type()));
    ir::Node* gn = it.graph->producer();
    const size_t pi = rule_.node_index.at(pn);
    if (!gn)
      return fail(s, fmt::format("{} is a graph input or initializer, not computed by a {}",
                                 value_name(it.graph), pn->op_type()));
    if (it.graph->output_index() != it.pattern->output_index())
      return fail(
          s, fmt::format("{} is output {} of {}, the pattern reads output {}", value_name(it.graph),
                         it.graph->output_index(), describe(*gn), it.pattern->output_index()));
    if (s.nodes[pi]) {
      if (s.nodes[pi] != gn)
        return fail(s,
                    fmt::format("the pattern's {} would stand for two graph nodes", pn->op_type()));
      continue;
    }
    if (std::string why = node_mismatch(*pn, *gn, s); !why.empty()) return fail(s, why);
    s.nodes[pi] = gn;
    ++s.matched;
    const size_t n = used_inputs(*pn);
    if (rule_.options.commute && is_commutative(*pn) && n >= 2 && n <= 4) {
      // Each order of the graph node's inputs against the pattern's.
      std::vector<size_t> order(n);
      std::iota(order.begin(), order.end(), size_t{0});
      do {
        std::vector<Item> next = pending;
        for (size_t j = n; j-- > 0;) next.push_back(Item{pn->input(j), gn->input(order[j])});
        if (solve(s, std::move(next))) return true;
      } while (std::next_permutation(order.begin(), order.end()));
      return false;
    }
    for (size_t j = n; j-- > 0;) pending.push_back(Item{pn->input(j), gn->input(j)});
  }
  // Further pattern outputs not reached yet: try the graph's nodes of their
  // operator.
  for (size_t k = 1; k < rule_.outputs.size(); ++k) {
    const ir::Value* pv = rule_.outputs[k];
    const size_t pi = rule_.node_index.at(pv->producer());
    if (s.nodes[pi]) continue;
    const auto cands = ctx_.by_op->find(pv->producer()->op_type());
    if (cands != ctx_.by_op->end()) {
      for (ir::Node* gn : cands->second) {
        if (gn->is_erased() || static_cast<size_t>(pv->output_index()) >= gn->outputs().size())
          continue;
        if (solve(s, {Item{pv, gn->output(static_cast<size_t>(pv->output_index()))}})) return true;
      }
    }
    return fail(
        s, fmt::format("no {} node matches pattern output {}", pv->producer()->op_type(), k + 1));
  }
  return finish(s);
}

bool Matcher::finish(const MatchState& s) {
  // The matched nodes go: what they compute, other than the pattern's
  // outputs, must be read by matched nodes only.
  std::unordered_set<const ir::Node*> matched(s.nodes.begin(), s.nodes.end());
  std::unordered_set<const ir::Value*> outputs;
  for (const ir::Value* pv : rule_.outputs)
    outputs.insert(s.nodes[rule_.node_index.at(pv->producer())]->output(
        static_cast<size_t>(pv->output_index())));
  // A pattern input bound to a value of the match (Add(a, a) with a =
  // Neg(y) against Add(x, Neg(y))) would outlive the nodes that compute it.
  for (size_t i = 0; i < s.inputs.size(); ++i)
    if (s.inputs[i] && matched.count(s.inputs[i]->producer()))
      return fail(
          s, fmt::format("pattern input '{}' is computed inside the match", rule_.input_names[i]));
  for (const ir::Node* gn : s.nodes) {
    for (const ir::Value* out : gn->outputs()) {
      if (outputs.count(out)) continue;
      if (out->is_graph_output() || ctx_.outer->contains(out))
        return fail(s, fmt::format("'{}' (of {}) is a graph output, so {} must stay", out->name(),
                                   describe(*gn), gn->op_type()));
      for (const ir::Use& use : out->uses())
        if (!matched.count(use.node))
          return fail(s, fmt::format("'{}' is also read by {}, outside the match", out->name(),
                                     describe(*use.node)));
    }
  }
  if (rule_.condition) {
    const Match m(rule_, s, *ctx_.model, *ctx_.graph, ctx_.function);
    if (!rule_.condition(m))
      return fail(s, m.rejection().empty() ? std::string("the condition refused the match")
                                           : "the condition refused the match: " + m.rejection());
  }
  result_ = s;
  return true;
}

}  // namespace onnxscript::rewriter::detail
