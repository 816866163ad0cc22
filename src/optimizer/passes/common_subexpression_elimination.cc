// "cse": of two nodes that compute the same thing (same operator, inputs and
// attributes), the later goes and its readers read the earlier one. Nodes
// with subgraphs are left alone (comparing graphs is not worth it), and so
// are random operators, whose two draws differ.

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

bool same_attribute(const ir::Attribute& a, const ir::Attribute& b) {
  if (a.name != b.name || a.type != b.type || a.ref_attr_name != b.ref_attr_name) return false;
  if (a.is_reference()) return true;
  switch (a.type) {
    case ir::AttributeType::kFloat: {
      const float x = a.as_float(), y = b.as_float();
      return std::memcmp(&x, &y, sizeof x) == 0;  // bitwise: -0 and NaN payloads count
    }
    case ir::AttributeType::kFloats: {
      const auto& x = a.as_floats();
      const auto& y = b.as_floats();
      return x.size() == y.size() &&
             (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
    }
    case ir::AttributeType::kInt:
      return a.as_int() == b.as_int();
    case ir::AttributeType::kInts:
      return a.as_ints() == b.as_ints();
    case ir::AttributeType::kString:
      return a.as_string() == b.as_string();
    case ir::AttributeType::kStrings:
      return a.as_strings() == b.as_strings();
    case ir::AttributeType::kTensor:
      return a.as_tensor().same_contents(b.as_tensor());
    case ir::AttributeType::kTensors: {
      const auto& x = a.as_tensors();
      const auto& y = b.as_tensors();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!x[i].same_contents(y[i])) return false;
      return true;
    }
    case ir::AttributeType::kTypeProto:
      return std::get<ir::Type>(a.value) == std::get<ir::Type>(b.value);
    case ir::AttributeType::kTypeProtos:
      return std::get<std::vector<ir::Type>>(a.value) == std::get<std::vector<ir::Type>>(b.value);
    default:
      return false;  // graphs and sparse tensors: not compared
  }
}

bool same_computation(const ir::Node& a, const ir::Node& b) {
  if (a.op_type() != b.op_type() || a.domain() != b.domain() || a.overload() != b.overload())
    return false;
  if (!std::equal(a.inputs().begin(), a.inputs().end(), b.inputs().begin(), b.inputs().end()))
    return false;
  if (a.outputs().size() != b.outputs().size()) return false;
  // An output the earlier node omits cannot stand in for one the later computes.
  for (size_t i = 0; i < a.outputs().size(); ++i)
    if (a.output(i)->name().empty() && !b.output(i)->name().empty()) return false;
  const auto aa = a.attributes(), ba = b.attributes();
  if (aa.size() != ba.size()) return false;
  for (const ir::Attribute& x : aa) {
    bool found = false;
    for (const ir::Attribute& y : ba) {
      if (x.name != y.name) continue;
      found = same_attribute(x, y);
      break;
    }
    if (!found) return false;
  }
  return true;
}

// A hash of what same_computation compares cheaply: operator and inputs.
size_t shallow_hash(const ir::Node& node) {
  size_t h =
      std::hash<std::string>()(node.op_type()) ^ (std::hash<std::string>()(node.domain()) << 1);
  for (const ir::Value* v : node.inputs()) h = h * 1000003u ^ reinterpret_cast<uintptr_t>(v);
  h ^= node.attributes().size();
  // The table indexes by the low bits: mix the high ones (pointers' low bits
  // are mostly zero) down.
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

// A slot of the table of nodes seen: the node's shallow hash, and the node
// (null: free).
struct Slot {
  size_t hash = 0;
  ir::Node* node = nullptr;
};

class CommonSubexpressionElimination final : public Pass {
 public:
  std::string_view name() const override { return "cse"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t removed = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      const std::vector<ir::Node*> order = site.graph->topological_order();
      // The nodes seen so far, by shallow hash, in one open-addressed table
      // sized for all of them: a lookup is a probe or two in contiguous
      // memory. (A map of per-hash vectors allocated twice per node, and its
      // time per node grew sixfold from 12,500 to 200,000 nodes.)
      size_t capacity = 16;
      while (capacity < 2 * order.size()) capacity *= 2;
      std::vector<Slot> table(capacity);
      const size_t mask = capacity - 1;
      for (ir::Node* node : order) {
        if (!node->subgraphs().empty() || detail::is_random_op(*node)) continue;
        const size_t hash = shallow_hash(*node);
        size_t at = hash & mask;
        ir::Node* earlier = nullptr;
        for (; table[at].node; at = (at + 1) & mask) {
          if (table[at].hash == hash && same_computation(*table[at].node, *node)) {
            earlier = table[at].node;
            break;
          }
        }
        if (!earlier) {
          table[at] = {hash, node};
          continue;
        }
        // A graph output produced by the later node would only move to an
        // Identity: nothing gained.
        bool keeps_output = false;
        for (size_t i = 0; i < node->outputs().size(); ++i)
          keeps_output |= detail::needs_identity(node->output(i), earlier->output(i));
        if (keeps_output) continue;
        for (size_t i = 0; i < node->outputs().size(); ++i) {
          ir::Value* out = node->output(i);
          if (!out->name().empty() && detail::is_used(out, outer))
            detail::replace_value(out, earlier->output(i), outer);
        }
        site.graph->erase(node);
        ++removed;
      }
    }
    mutable_counts().nodes_removed += removed;
    return removed > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_common_subexpression_elimination() {
  return std::make_unique<CommonSubexpressionElimination>();
}

}  // namespace onnxscript::optimizer
