// "identity": nodes that return their first input unchanged are removed and
// their output replaced by that input. Each rule needs to know the result is
// the same tensor: same element type and shape, same values.

#include <algorithm>
#include <optional>
#include <vector>

#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

// The type of `v`: declared, or that of its constant.
std::optional<ir::Type> type_of(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (v->type() && v->type()->is_tensor()) return v->type();
  if (const ir::Tensor* t = detail::constant_tensor(v))
    return ir::Type::tensor(t->dtype(), ir::Shape(t->shape().begin(), t->shape().end()));
  return std::nullopt;
}

// True when every element of `t` equals `value` (numeric types only).
bool all_equal(const ir::Tensor& t, double value) {
  if (t.numel() == 0) return false;
  switch (t.dtype()) {
#define ONNXSCRIPT_ALL_EQUAL(DT, T)                         \
  case ir::DataType::DT: {                                  \
    const T* p = t.data<T>();                               \
    for (int64_t i = 0; i < t.numel(); ++i)                 \
      if (static_cast<double>(p[i]) != value) return false; \
    return true;                                            \
  }
    ONNXSCRIPT_ALL_EQUAL(kFloat, float)
    ONNXSCRIPT_ALL_EQUAL(kDouble, double)
    ONNXSCRIPT_ALL_EQUAL(kInt8, int8_t)
    ONNXSCRIPT_ALL_EQUAL(kInt16, int16_t)
    ONNXSCRIPT_ALL_EQUAL(kInt32, int32_t)
    ONNXSCRIPT_ALL_EQUAL(kInt64, int64_t)
    ONNXSCRIPT_ALL_EQUAL(kUint8, uint8_t)
    ONNXSCRIPT_ALL_EQUAL(kUint16, uint16_t)
    ONNXSCRIPT_ALL_EQUAL(kUint32, uint32_t)
    ONNXSCRIPT_ALL_EQUAL(kUint64, uint64_t)
#undef ONNXSCRIPT_ALL_EQUAL
    default:
      return false;
  }
}

// True when broadcasting `x` with a constant of shape `c` gives `x`'s shape
// and element type back.
bool broadcast_keeps(const ir::Type& x, const ir::Tensor& c) {
  if (x.elem_type != c.dtype() || !x.shape) return false;
  const ir::Shape& xs = *x.shape;
  if (static_cast<size_t>(c.rank()) > xs.size()) return false;
  for (size_t k = 0; k < static_cast<size_t>(c.rank()); ++k) {
    const int64_t cd = c.shape()[static_cast<size_t>(c.rank()) - 1 - k];
    const ir::Dim& xd = xs[xs.size() - 1 - k];
    if (cd != 1 && !(xd.is_static() && xd.value() == cd)) return false;
  }
  return true;
}

std::optional<std::vector<int64_t>> static_dims(const ir::Type& type) {
  if (!type.shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : *type.shape) {
    if (!d.is_static()) return std::nullopt;
    dims.push_back(d.value());
  }
  return dims;
}

class IdentityElimination final : public Pass {
 public:
  std::string_view name() const override { return "identity"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t removed = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      for (ir::Node* node : site.graph->nodes()) {
        ir::Value* source = passthrough(model, site, *node, outer);
        if (!source) continue;
        ir::Value* out = node->output(0);
        // An Identity that keeps a graph output's name stays.
        if (node->op_type() == "Identity" && detail::needs_identity(out, source)) continue;
        detail::replace_value(out, source, outer);
        site.graph->erase(node);
        ++removed;
      }
    }
    mutable_counts().nodes_removed += removed;
    return removed > 0;
  }

 private:
  // The input a node passes through unchanged, or null.
  static ir::Value* passthrough(const ir::Model& model, const detail::GraphSite& site,
                                const ir::Node& node, const detail::OuterOutputs& outer) {
    if (!detail::is_onnx_domain(node.domain()) || node.inputs().empty() || !node.input(0))
      return nullptr;
    if (model.find_function(node.domain(), node.op_type(), node.overload())) return nullptr;
    for (const ir::Attribute& a : node.attributes())
      if (a.is_reference()) return nullptr;
    ir::Value* x = node.input(0);
    const std::string& op = node.op_type();
    if (op == "Identity") return node.outputs().size() == 1 ? x : nullptr;
    if (op == "Dropout") {
      // Before opset 7 Dropout trains unless is_test is set; from 12 the
      // training_mode input decides (false when omitted).
      const std::optional<int64_t> version = detail::opset_version(model, site, node.domain());
      if (!version || *version < 7) return nullptr;
      if (node.inputs().size() > 2 && node.input(2)) {
        const ir::Tensor* training = detail::constant_tensor(node.input(2));
        if (!training || training->numel() != 1 || training->dtype() != ir::DataType::kBool ||
            training->data<bool>()[0])
          return nullptr;
      }
      if (node.outputs().size() > 1 && detail::is_used(node.output(1), outer)) return nullptr;
      return x;
    }
    if (node.outputs().size() != 1) return nullptr;
    const std::optional<ir::Type> xt = type_of(x);
    if (!xt) return nullptr;
    if (op == "Cast") {
      const ir::Attribute* to = node.attribute("to");
      return to && to->type == ir::AttributeType::kInt &&
                     to->as_int() == static_cast<int64_t>(xt->elem_type)
                 ? x
                 : nullptr;
    }
    if (op == "Transpose") {
      const ir::Attribute* perm = node.attribute("perm");
      if (!perm) return xt->shape && xt->shape->size() <= 1 ? x : nullptr;
      const std::vector<int64_t>& p = perm->as_ints();
      for (size_t i = 0; i < p.size(); ++i)
        if (p[i] != static_cast<int64_t>(i)) return nullptr;
      return x;
    }
    if (op == "Reshape") {
      const std::optional<std::vector<int64_t>> dims = static_dims(*xt);
      const ir::Tensor* shape =
          node.inputs().size() > 1 ? detail::constant_tensor(node.input(1)) : nullptr;
      if (!dims || !shape || shape->dtype() != ir::DataType::kInt64 || shape->rank() != 1 ||
          static_cast<size_t>(shape->numel()) != dims->size())
        return nullptr;
      const ir::Attribute* allowzero = node.attribute("allowzero");
      const bool keep_zero = allowzero && allowzero->as_int() != 0;
      const int64_t* s = shape->data<int64_t>();
      if (std::count(s, s + shape->numel(), int64_t{-1}) > 1) return nullptr;
      // Each requested dimension must be the input's own: equal, copied
      // (0 without allowzero), or the one inferred (-1), which then is.
      for (size_t i = 0; i < dims->size(); ++i) {
        if (s[i] == (*dims)[i]) continue;
        if (s[i] == 0 && !keep_zero) continue;
        if (s[i] == -1) continue;
        return nullptr;
      }
      return x;
    }
    const bool add = op == "Add", sub = op == "Sub", mul = op == "Mul", div = op == "Div";
    if ((add || sub || mul || div) && node.inputs().size() == 2 && node.input(1)) {
      const double neutral = add || sub ? 0.0 : 1.0;
      auto try_side = [&](ir::Value* keep, const ir::Value* other) -> ir::Value* {
        const std::optional<ir::Type> kt = type_of(keep);
        const ir::Tensor* c = detail::constant_tensor(other);
        if (!kt || !c || !all_equal(*c, neutral) || !broadcast_keeps(*kt, *c)) return nullptr;
        return keep;
      };
      if (ir::Value* v = try_side(x, node.input(1))) return v;
      if (add || mul) return try_side(node.input(1), x);
    }
    return nullptr;
  }
};

}  // namespace

std::unique_ptr<Pass> make_identity_elimination() {
  return std::make_unique<IdentityElimination>();
}

}  // namespace onnxscript::optimizer
