#include "eval/fusion.h"

#include <cmath>
#include <limits>
#include <unordered_set>

namespace onnxscript::eval::detail {
namespace {

bool is_onnx_domain(std::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

bool is_op(const ir::Node* node, std::string_view op_type) {
  return node && is_onnx_domain(node->domain()) && node->op_type() == op_type;
}

// A value a run cannot change: an initializer that is not also a graph
// input (a graph input's initializer is only a default), the tensor of a
// Constant node (exporters write scalars such as Gelu's 0.5 that way), or
// an Identity of either (torch.onnx.export shares equal biases that way).
const Tensor* constant_of(const ir::Value* v) {
  const ir::Node* producer = v ? v->producer() : nullptr;
  while (is_op(producer, "Identity") && producer->inputs().size() == 1) {
    v = producer->inputs()[0];
    producer = v ? v->producer() : nullptr;
  }
  if (!v || v->is_graph_input()) return nullptr;
  if (v->const_value()) return v->const_value();
  if (!is_op(producer, "Constant")) return nullptr;
  const ir::Attribute* value = producer->attribute("value");
  return value && value->type == ir::AttributeType::kTensor && !value->is_reference()
             ? &value->as_tensor()
             : nullptr;
}

const Tensor* float_constant(const ir::Value* v) {
  const Tensor* t = constant_of(v);
  return t && t->dtype() == DataType::kFloat ? t : nullptr;
}

// The float constant's single element, if it has exactly one.
std::optional<float> float_scalar(const ir::Value* v) {
  const Tensor* t = float_constant(v);
  if (!t || t->numel() != 1) return std::nullopt;
  return t->data<float>()[0];
}

bool near(std::optional<float> x, double want) {
  return x && std::abs(static_cast<double>(*x) - want) <= 1e-6 * std::abs(want);
}

// The node that alone reads `v`, when nothing else (another node, a
// subgraph, the graph's outputs) does.
const ir::Node* sole_reader(const ir::Value* v) {
  if (!v || v->is_graph_output() || v->uses().size() != 1) return nullptr;
  return v->uses()[0].node;
}

// Whether `node` has outputs past the first that anything reads.
bool extra_outputs_read(const ir::Node* node) {
  for (size_t i = 1; i < node->outputs().size(); ++i) {
    const ir::Value* v = node->outputs()[i];
    if (v && (!v->uses().empty() || v->is_graph_output())) return true;
  }
  return false;
}

const ir::Value* input(const ir::Node* node, size_t i) {
  return i < node->inputs().size() ? node->inputs()[i] : nullptr;
}

float float_attribute(const ir::Node* node, std::string_view name, float fallback) {
  const ir::Attribute* a = node->attribute(name);
  return a && a->type == ir::AttributeType::kFloat ? a->as_float() : fallback;
}

int64_t int_attribute(const ir::Node* node, std::string_view name, int64_t fallback) {
  const ir::Attribute* a = node->attribute(name);
  return a && a->type == ir::AttributeType::kInt ? a->as_int() : fallback;
}

class FusionFinder {
 public:
  FusionFinder(const ir::Graph& graph, const ir::OpsetImports& opsets) : graph_(graph) {
    onnx_version_ = opsets.find("").value_or(opsets.find("ai.onnx").value_or(0));
    fused_conv_ = KernelRegistry::builtin().find("onnxscript.internal", "FusedConv", 1);
    conv_ = KernelRegistry::builtin().find("", "Conv", onnx_version_);
    gelu_ = KernelRegistry::builtin().find("", "Gelu", 20);
    matmul_add_ = KernelRegistry::builtin().find("onnxscript.internal", "MatMulAdd", 1);
    add_relu_ = KernelRegistry::builtin().find("onnxscript.internal", "AddRelu", 1);
  }

  std::vector<Fusion> find() {
    if (onnx_version_ <= 0) return {};
    for (const ir::Node* node : graph_.topological_order()) {
      if (taken_.count(node)) continue;
      if (is_op(node, "Conv")) match_conv(node);
      if (is_op(node, "Mul")) match_gelu(node);
      if (is_op(node, "MatMul")) match_matmul_add(node);
      if (is_op(node, "Add")) match_add_relu(node);
    }
    return std::move(found_);
  }

 private:
  void take(Fusion f) {
    for (const ir::Node* m : f.members) taken_.insert(m);
    found_.push_back(std::move(f));
  }

  bool free(const ir::Node* node) const { return node && !taken_.count(node); }

  // Conv [-> BatchNormalization] [-> activation], float weights.
  void match_conv(const ir::Node* conv) {
    if (!conv_ || conv->outputs().size() != 1 || !graph_attributes_free(conv)) return;
    const Tensor* w = float_constant(input(conv, 1));
    if (!w || w->rank() < 3) return;
    const ir::Value* conv_bias = input(conv, 2);
    if (conv_bias && !float_constant(conv_bias)) return;

    Fusion f;
    f.first = conv;
    f.members = {conv};
    f.op = OpId{"", "Conv", onnx_version_};
    f.fn = conv_;
    f.inputs = {FusedInput{input(conv, 0)}, FusedInput{input(conv, 1)}, FusedInput{conv_bias}};
    for (const ir::Attribute& a : conv->attributes()) f.attributes.push_back(a);
    const ir::Value* out = conv->outputs()[0];

    const ir::Node* next = sole_reader(out);
    if (is_op(next, "BatchNormalization") && free(next) && input(next, 0) == out &&
        fold_batch_norm(next, *w, f)) {
      f.members.push_back(next);
      out = next->outputs()[0];
      next = sole_reader(out);
    }
    if (fused_conv_ && free(next) && input(next, 0) == out && activation(next, f)) {
      f.members.push_back(next);
      out = next->outputs()[0];
      f.op = OpId{"onnxscript.internal", "FusedConv", 1};
      f.fn = fused_conv_;
    }
    if (f.members.size() == 1) return;
    f.last = f.members.back();
    f.outputs = {out};
    take(std::move(f));
  }

  // Folds BatchNormalization's per-channel scale and shift into the Conv
  // weights and bias of `f`: W' = W * s, B' = (B - mean) * s + shift with
  // s = scale / sqrt(var + epsilon), in double, rounded once to float.
  bool fold_batch_norm(const ir::Node* bn, const Tensor& w, Fusion& f) {
    // Versions before 9 carry is_test/spatial modes; 14+ may train.
    if (onnx_version_ < 9 || int_attribute(bn, "training_mode", 0) != 0) return false;
    if (extra_outputs_read(bn) || !graph_attributes_free(bn)) return false;
    const int64_t m = w.shape()[0];
    const Tensor* params[4];
    for (size_t i = 0; i < 4; ++i) {
      params[i] = float_constant(input(bn, i + 1));
      if (!params[i] || params[i]->rank() != 1 || params[i]->shape()[0] != m) return false;
    }
    const Tensor* conv_bias = f.inputs[2].value ? float_constant(f.inputs[2].value) : nullptr;
    if (conv_bias && conv_bias->numel() != m) return false;
    const double epsilon = float_attribute(bn, "epsilon", 1e-5f);
    const float *scale = params[0]->data<float>(), *shift = params[1]->data<float>(),
                *mean = params[2]->data<float>(), *var = params[3]->data<float>();
    Tensor folded_w = Tensor::uninitialized(DataType::kFloat, w.shape());
    Tensor folded_b = Tensor::uninitialized(DataType::kFloat, ir::Dims{m});
    const int64_t per_channel = w.numel() / m;
    const float* wv = w.data<float>();
    float* out_w = folded_w.data<float>();
    for (int64_t c = 0; c < m; ++c) {
      const double s = scale[c] / std::sqrt(static_cast<double>(var[c]) + epsilon);
      for (int64_t i = c * per_channel; i < (c + 1) * per_channel; ++i)
        out_w[i] = static_cast<float>(wv[i] * s);
      const double b = conv_bias ? conv_bias->data<float>()[c] : 0.0;
      folded_b.data<float>()[c] = static_cast<float>((b - mean[c]) * s + shift[c]);
    }
    f.inputs[1] = FusedInput{nullptr, RuntimeValue(std::move(folded_w))};
    f.inputs[2] = FusedInput{nullptr, RuntimeValue(std::move(folded_b))};
    return true;
  }

  // An activation FusedConv can apply as it writes: its name and parameters.
  bool activation(const ir::Node* node, Fusion& f) {
    if (node->outputs().size() != 1) return false;
    std::string name;
    std::vector<float> params;
    if (is_op(node, "Relu") || is_op(node, "Sigmoid")) {
      name = std::string(node->op_type());
    } else if (is_op(node, "LeakyRelu")) {
      name = "LeakyRelu";
      params = {float_attribute(node, "alpha", 0.01f)};
    } else if (is_op(node, "Clip")) {
      float lo = -std::numeric_limits<float>::infinity(), hi = -lo;
      if (onnx_version_ < 11) {
        lo = float_attribute(node, "min", lo);
        hi = float_attribute(node, "max", hi);
      } else {
        for (size_t i : {size_t{1}, size_t{2}}) {
          const ir::Value* bound = input(node, i);
          if (!bound) continue;
          const std::optional<float> v = float_scalar(bound);
          if (!v) return false;
          (i == 1 ? lo : hi) = *v;
        }
      }
      name = "Clip";
      params = {lo, hi};
    } else {
      return false;
    }
    f.attributes.push_back(ir::Attribute::make_string("activation", name));
    if (!params.empty())
      f.attributes.push_back(ir::Attribute::make_floats("activation_params", params));
    return true;
  }

  // x * 0.5 * (1 + erf(x / sqrt(2))) as torch.onnx.export writes it:
  // Mul(Mul(x, Add(Erf(Div(x, sqrt2)), 1)), 0.5), each Mul and the Add in
  // either order of their inputs, and Div(x, sqrt2) also as Mul(x, 1/sqrt2).
  void match_gelu(const ir::Node* root) {
    if (!gelu_ || onnx_version_ < 13) return;
    // The root: Mul(inner, 0.5).
    const ir::Node* inner = nullptr;
    for (size_t i : {size_t{0}, size_t{1}})
      if (near(float_scalar(input(root, 1 - i)), 0.5))
        inner = producer_read_only_by(input(root, i), root);
    if (!is_op(inner, "Mul") || !free(inner)) return;
    // inner: Mul(x, Add(erf, 1)).
    for (size_t i : {size_t{0}, size_t{1}}) {
      const ir::Value* x = input(inner, i);
      const ir::Node* add = producer_read_only_by(input(inner, 1 - i), inner);
      if (!is_op(add, "Add") || !free(add) || !x) continue;
      const ir::Node* erf = nullptr;
      for (size_t j : {size_t{0}, size_t{1}})
        if (near(float_scalar(input(add, 1 - j)), 1.0))
          erf = producer_read_only_by(input(add, j), add);
      if (!is_op(erf, "Erf") || !free(erf)) continue;
      const ir::Node* scale = producer_read_only_by(input(erf, 0), erf);
      if (!free(scale) || input(scale, 0) != x) continue;
      const bool divides =
          is_op(scale, "Div") && near(float_scalar(input(scale, 1)), std::sqrt(2.0));
      const bool multiplies =
          is_op(scale, "Mul") && near(float_scalar(input(scale, 1)), std::sqrt(0.5));
      if (!divides && !multiplies) continue;
      Fusion f;
      f.first = scale;
      f.members = {scale, erf, add, inner, root};
      f.last = root;
      f.op = OpId{"", "Gelu", 20};
      f.fn = gelu_;
      f.inputs = {FusedInput{x}};
      f.outputs = {root->outputs()[0]};
      take(std::move(f));
      return;
    }
  }

  // MatMul(A, W) -> Add(bias), W a constant float matrix [K, N] and the bias
  // a constant float with N elements ([N], or with leading 1s): a linear
  // layer on a batch of rows, as exporters write it for 3-D activations.
  void match_matmul_add(const ir::Node* matmul) {
    if (!matmul_add_ || matmul->outputs().size() != 1) return;
    const Tensor* w = float_constant(input(matmul, 1));
    if (!w || w->rank() != 2) return;
    const ir::Value* product = matmul->outputs()[0];
    const ir::Node* add = sole_reader(product);
    if (!is_op(add, "Add") || !free(add) || add->outputs().size() != 1) return;
    const ir::Value* bias = input(add, 0) == product ? input(add, 1) : input(add, 0);
    if (bias == product) return;
    const Tensor* b = float_constant(bias);
    const int64_t n = w->shape()[1];
    if (!b || b->numel() != n || (b->rank() > 0 && b->shape().back() != n)) return;
    const ir::Value* a = input(matmul, 0);
    if (!a) return;
    take_pair(matmul, add, "MatMulAdd", matmul_add_,
              {FusedInput{a}, FusedInput{input(matmul, 1)}, FusedInput{bias}});
  }

  // Add -> Relu, the Add with numpy broadcasting (opset 7 on: no legacy
  // broadcast attributes): one pass over the output instead of two.
  void match_add_relu(const ir::Node* add) {
    if (!add_relu_ || onnx_version_ < 7 || add->outputs().size() != 1 ||
        add->inputs().size() != 2 || !add->attributes().empty())
      return;
    const ir::Node* relu = sole_reader(add->outputs()[0]);
    if (!is_op(relu, "Relu") || !free(relu) || relu->outputs().size() != 1) return;
    take_pair(add, relu, "AddRelu", add_relu_,
              {FusedInput{input(add, 0)}, FusedInput{input(add, 1)}});
  }

  // Takes `first` -> `second` as one step of the internal kernel `op` on
  // `inputs`, giving second's output. `op` is a literal: OpId keeps a view of it.
  void take_pair(const ir::Node* first, const ir::Node* second, std::string_view op, KernelFn fn,
                 std::vector<FusedInput> inputs) {
    Fusion f;
    f.first = first;
    f.members = {first, second};
    f.last = second;
    f.op = OpId{"onnxscript.internal", op, 1};
    f.fn = fn;
    f.inputs = std::move(inputs);
    f.outputs = {second->outputs()[0]};
    take(std::move(f));
  }

  // The node making `v`, when `reader` is all that reads `v`.
  static const ir::Node* producer_read_only_by(const ir::Value* v, const ir::Node* reader) {
    return v && sole_reader(v) == reader ? v->producer() : nullptr;
  }

  // Nodes with graph attributes (none of the patterns) or attribute
  // references (function bodies) are left alone.
  static bool graph_attributes_free(const ir::Node* node) {
    for (const ir::Attribute& a : node->attributes())
      if (a.is_reference() || a.type == ir::AttributeType::kGraph ||
          a.type == ir::AttributeType::kGraphs)
        return false;
    return true;
  }

  const ir::Graph& graph_;
  int64_t onnx_version_ = 0;
  KernelFn fused_conv_ = nullptr, conv_ = nullptr, gelu_ = nullptr, matmul_add_ = nullptr,
           add_relu_ = nullptr;
  std::unordered_set<const ir::Node*> taken_;
  std::vector<Fusion> found_;
};

}  // namespace

std::vector<Fusion> find_fusions(const ir::Graph& graph, const ir::OpsetImports& opsets) {
  return FusionFinder(graph, opsets).find();
}

bool is_deterministic(std::string_view domain, std::string_view op_type) {
  // The internal fused kernels compute what their groups of ONNX nodes do.
  if (domain == "ai.onnx.ml" || domain == "onnxscript.internal") return true;
  if (!is_onnx_domain(domain)) return false;  // training, preview and custom domains: unknown
  for (std::string_view random : {"RandomNormal", "RandomNormalLike", "RandomUniform",
                                  "RandomUniformLike", "Multinomial", "Bernoulli", "Dropout"})
    if (op_type == random) return false;
  return true;
}

}  // namespace onnxscript::eval::detail
