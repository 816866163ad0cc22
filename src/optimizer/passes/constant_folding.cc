// "fold": nodes whose inputs are all constants run through the evaluator's
// kernels, and their outputs become constants. In the main graph (from IR 4,
// where initializers need not be inputs) a folded value becomes an
// initializer; in function bodies (which cannot hold initializers), in
// subgraphs, and for graph outputs (whose names must stay node outputs) it
// becomes a Constant node. Shape and Size of values whose shape is static
// fold without running anything.

#include <algorithm>
#include <optional>
#include <vector>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

// The static dimensions of `v`'s declared shape, or nullopt.
std::optional<std::vector<int64_t>> static_shape(const ir::Value* v) {
  if (!v || !v->type() || !v->type()->is_tensor() || !v->type()->shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : *v->type()->shape) {
    if (!d.is_static()) return std::nullopt;
    dims.push_back(d.value());
  }
  return dims;
}

// Shape's start/end (opset 15): negative counts from the back, then clamped.
int64_t clamp_axis(int64_t axis, int64_t rank) {
  if (axis < 0) axis += rank;
  return std::clamp<int64_t>(axis, 0, rank);
}

// True when folded values of `site` become initializers: only in the main
// graph, and not below IR 4, where every initializer must also be a graph
// input (which would make it overridable, so no longer a constant).
bool takes_initializers(const ir::Model& model, const detail::GraphSite& site) {
  return site.is_main && (model.ir_version == 0 || model.ir_version >= 4);
}

class ConstantFolding final : public Pass {
 public:
  explicit ConstantFolding(FoldOptions options) : options_(options) {}
  std::string_view name() const override { return "fold"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t folded = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      for (ir::Node* node : site.graph->nodes()) {
        std::optional<std::vector<Tensor>> values = evaluate(model, site, *node);
        if (!values) continue;
        replace_with_constants(model, site, *node, std::move(*values), outer);
        ++folded;
      }
    }
    mutable_counts().nodes_folded += folded;
    return folded > 0;
  }

 private:
  using Tensor = ir::Tensor;

  // The node's outputs as tensors, when it can and may be folded.
  std::optional<std::vector<Tensor>> evaluate(const ir::Model& model, const detail::GraphSite& site,
                                              const ir::Node& node) const {
    if (detail::is_random_op(node) || !node.subgraphs().empty()) return std::nullopt;
    for (const ir::Attribute& a : node.attributes())
      if (a.is_reference()) return std::nullopt;
    // A model-local function of the same name wins over a kernel, as in the
    // Session; its body is folded where it is inlined.
    if (model.find_function(node.domain(), node.op_type(), node.overload())) return std::nullopt;
    if (node.domain() == "ai.onnx.preview.training") return std::nullopt;
    const bool onnx = detail::is_onnx_domain(node.domain());
    if (onnx && node.op_type() == "Constant") {
      // Where initializers can hold it, a Constant becomes one (unless it is
      // a graph output); elsewhere only the other forms (value_float,
      // value_ints, ...) are rewritten to the `value` tensor, which is final.
      if (node.attribute("sparse_value")) return std::nullopt;
      if (takes_initializers(model, site) && !node.output(0)->is_graph_output())
        return run_kernel(model, site, node);
      const ir::Attribute* value = node.attribute("value");
      if (value && value->type == ir::AttributeType::kTensor) return std::nullopt;
      return run_kernel(model, site, node);
    }
    if (onnx && (node.op_type() == "Shape" || node.op_type() == "Size") && node.input(0) &&
        !detail::constant_tensor(node.input(0))) {
      return fold_shape(node);
    }
    for (const ir::Value* in : node.inputs())
      if (in && !detail::constant_tensor(in)) return std::nullopt;
    return run_kernel(model, site, node);
  }

  std::optional<std::vector<Tensor>> fold_shape(const ir::Node& node) const {
    const std::optional<std::vector<int64_t>> dims = static_shape(node.input(0));
    if (!dims || node.outputs().size() != 1) return std::nullopt;
    const auto rank = static_cast<int64_t>(dims->size());
    if (node.op_type() == "Size") {
      int64_t n = 1;
      for (int64_t d : *dims) n *= d;
      return std::vector<Tensor>{Tensor::scalar<int64_t>(n)};
    }
    int64_t start = 0, end = rank;
    if (const ir::Attribute* a = node.attribute("start")) start = a->as_int();
    if (const ir::Attribute* a = node.attribute("end")) end = a->as_int();
    start = clamp_axis(start, rank);
    end = clamp_axis(end, rank);
    std::vector<int64_t> out;
    for (int64_t i = start; i < end; ++i) out.push_back((*dims)[static_cast<size_t>(i)]);
    return std::vector<Tensor>{Tensor::from_span<int64_t>(out)};
  }

  std::optional<std::vector<Tensor>> run_kernel(const ir::Model& model,
                                                const detail::GraphSite& site,
                                                const ir::Node& node) const {
    const std::optional<int64_t> version = detail::opset_version(model, site, node.domain());
    if (!version) return std::nullopt;
    const std::string_view domain = detail::is_onnx_domain(node.domain()) ? "" : node.domain();
    const eval::KernelFn fn =
        eval::KernelRegistry::builtin().find(domain, node.op_type(), *version);
    if (!fn) return std::nullopt;
    std::vector<eval::RuntimeValue> inputs;
    inputs.reserve(node.inputs().size());
    for (const ir::Value* in : node.inputs())
      inputs.push_back(in ? eval::RuntimeValue(*detail::constant_tensor(in))
                          : eval::RuntimeValue());
    std::vector<eval::RuntimeValue> outputs(node.outputs().size());
    eval::KernelContext context(eval::OpId{domain, node.op_type(), *version}, inputs, outputs,
                                node.attributes());
    context.set_node(&node);
    try {
      fn(context);
    } catch (const std::exception&) {
      // The model is wrong for these inputs; running it reports that, so the
      // node stays as it is.
      return std::nullopt;
    }
    std::vector<Tensor> tensors;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const bool wanted = !node.output(i)->name().empty();
      if (!wanted) {
        tensors.emplace_back();
        continue;
      }
      if (!outputs[i].is_tensor()) return std::nullopt;
      if (outputs[i].tensor().nbytes() > options_.max_output_bytes) return std::nullopt;
      tensors.push_back(outputs[i].tensor());
    }
    return tensors;
  }

  void replace_with_constants(const ir::Model& model, const detail::GraphSite& site, ir::Node& node,
                              std::vector<Tensor> values, detail::OuterOutputs& outer) const {
    ir::Graph& graph = *site.graph;
    for (size_t i = 0; i < values.size(); ++i) {
      ir::Value* old = node.output(i);
      if (old->name().empty()) continue;
      Tensor& t = values[i];
      const ir::Type type =
          ir::Type::tensor(t.dtype(), ir::Shape(t.shape().begin(), t.shape().end()));
      ir::Value* replacement;
      const std::string name = old->name();
      if (takes_initializers(model, site) && !old->is_graph_output()) {
        replacement = graph.add_initializer(name, std::move(t));
      } else {
        ir::Node* constant = graph.insert_node_before(&node, "Constant", {}, 1);
        constant->set_attribute(ir::Attribute::make_tensor("value", std::move(t)));
        replacement = constant->output(0);
        replacement->set_name(name);
      }
      replacement->set_type(type);
      // The replacement has the old name, so the old value gives it up.
      const bool was_output = old->is_graph_output();
      old->set_name("");
      if (was_output) {
        // The Constant node is of this graph and not yet an output: it
        // takes the output's place (and keeps the name it already has).
        for (ir::Value*& v : graph.outputs())
          if (v == old) v = replacement;
      }
      detail::replace_value(old, replacement, outer);
    }
    graph.erase(&node);
  }

  FoldOptions options_;
};

}  // namespace

std::unique_ptr<Pass> make_constant_folding(FoldOptions options) {
  return std::make_unique<ConstantFolding>(options);
}

}  // namespace onnxscript::optimizer
