#include "infer/symbolic_value.h"

#include <algorithm>
#include <map>
#include <string>

#include "infer/rule_context.h"

namespace onnxscript::infer {

namespace {

using Dims = std::vector<ir::Dim>;

// Shape chains are short (Shape, Gather, Unsqueeze, Concat); the bound keeps
// a long chain of arithmetic from costing a walk per node.
constexpr int kMaxDepth = 8;
// Shapes, not data: longer tensors are not worth walking for.
constexpr int64_t kMaxElements = 64;

std::optional<Dims> value_of(const ir::Value* v, int depth);

std::optional<int64_t> int_attribute(const ir::Node& node, const char* name) {
  const ir::Attribute* a = node.attribute(name);
  if (!a || a->is_reference() || a->type != ir::AttributeType::kInt) return std::nullopt;
  return a->as_int();
}

// A constant int64 or int32 tensor's elements.
std::optional<std::vector<int64_t>> constant_ints(const ir::Value* v) {
  const ir::Tensor* t = known_data(v);
  if (!t || t->rank() > 1 || t->numel() > kMaxElements) return std::nullopt;
  std::vector<int64_t> out;
  if (t->dtype() == ir::DataType::kInt64) {
    out.assign(t->data<int64_t>(), t->data<int64_t>() + t->numel());
  } else if (t->dtype() == ir::DataType::kInt32) {
    out.assign(t->data<int32_t>(), t->data<int32_t>() + t->numel());
  } else {
    return std::nullopt;
  }
  return out;
}

// Python-style index into `size` elements; nullopt when out of range.
std::optional<size_t> normalize(int64_t index, size_t size) {
  const int64_t n = static_cast<int64_t>(size);
  if (index < 0) index += n;
  if (index < 0 || index >= n) return std::nullopt;
  return static_cast<size_t>(index);
}

std::optional<Dims> shape_of(const ir::Node& node) {
  const ir::Value* in = node.input(0);
  if (!in || !in->type() || !in->type()->is_tensor() || !in->type()->shape) return std::nullopt;
  const ir::Shape& shape = *in->type()->shape;
  Dims dims(shape.begin(), shape.end());
  // Shape-15's start and end slice the dimensions.
  const int64_t rank = static_cast<int64_t>(dims.size());
  int64_t start = int_attribute(node, "start").value_or(0);
  int64_t end = int_attribute(node, "end").value_or(rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  return Dims(dims.begin() + start, dims.begin() + end);
}

std::optional<Dims> gather(const ir::Node& node, int depth) {
  if (int_attribute(node, "axis").value_or(0) != 0 || node.inputs().size() < 2) return std::nullopt;
  const std::optional<Dims> data = value_of(node.input(0), depth);
  const std::optional<std::vector<int64_t>> indices = constant_ints(node.input(1));
  if (!data || !indices) return std::nullopt;
  Dims out;
  for (int64_t i : *indices) {
    const std::optional<size_t> at = normalize(i, data->size());
    if (!at) return std::nullopt;
    out.push_back((*data)[*at]);
  }
  return out;
}

std::optional<Dims> slice(const ir::Node& node, int depth) {
  if (node.inputs().size() < 3) return std::nullopt;
  const std::optional<Dims> data = value_of(node.input(0), depth);
  const auto starts = constant_ints(node.input(1));
  const auto ends = constant_ints(node.input(2));
  if (!data || !starts || !ends || starts->size() != 1 || ends->size() != 1) return std::nullopt;
  if (node.inputs().size() > 3 && node.input(3)) {
    const auto axes = constant_ints(node.input(3));
    if (!axes || axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)) return std::nullopt;
  }
  int64_t step = 1;
  if (node.inputs().size() > 4 && node.input(4)) {
    const auto steps = constant_ints(node.input(4));
    if (!steps || steps->size() != 1 || (*steps)[0] <= 0) return std::nullopt;
    step = (*steps)[0];
  }
  const int64_t n = static_cast<int64_t>(data->size());
  auto clamp = [n](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, 0, n); };
  Dims out;
  for (int64_t i = clamp((*starts)[0]); i < clamp((*ends)[0]); i += step) out.push_back((*data)[i]);
  return out;
}

std::optional<Dims> value_of(const ir::Value* v, int depth) {
  if (!v || depth > kMaxDepth) return std::nullopt;
  if (const auto ints = constant_ints(v)) return Dims(ints->begin(), ints->end());
  const ir::Node* node = v->producer();
  if (!node || !node->domain().empty() || node->outputs().size() != 1) return std::nullopt;
  const std::string& op = node->op_type();
  ++depth;
  if (op == "Shape") return shape_of(*node);
  if (op == "Gather") return gather(*node, depth);
  if (op == "Slice") return slice(*node, depth);
  if (op == "Cast") {
    const auto to = int_attribute(*node, "to");
    if (!to || (*to != static_cast<int64_t>(ir::DataType::kInt64) &&
                *to != static_cast<int64_t>(ir::DataType::kInt32)))
      return std::nullopt;
    return value_of(node->input(0), depth);
  }
  // These keep the elements in their order; only the rank changes.
  if (op == "Identity" || op == "Unsqueeze" || op == "Squeeze" || op == "Reshape")
    return value_of(node->input(0), depth);
  if (op == "Concat") {
    const int64_t axis = int_attribute(*node, "axis").value_or(0);
    if (axis != 0 && axis != -1) return std::nullopt;
    Dims out;
    for (const ir::Value* in : node->inputs()) {
      std::optional<Dims> part = value_of(in, depth);
      if (!part) return std::nullopt;
      out.insert(out.end(), part->begin(), part->end());
    }
    return out;
  }
  return std::nullopt;
}

// A product of dimensions: the static factor and the named ones (a
// multiset); `complete` is false when an unknown dimension took part.
struct Product {
  int64_t factor = 1;
  std::map<std::string, int> names;
  bool complete = true;

  void times(const ir::Dim& d) {
    if (d.is_static()) {
      factor *= d.value();
    } else if (d.is_symbolic()) {
      ++names[d.symbol()];
    } else {
      complete = false;
    }
  }
};

}  // namespace

std::optional<std::vector<ir::Dim>> symbolic_value(const ir::Value* v) {
  std::optional<Dims> dims = value_of(v, 0);
  if (!dims || dims->size() > static_cast<size_t>(kMaxElements)) return std::nullopt;
  return dims;
}

std::optional<ir::Shape> reshape_output_shape(const ir::Shape* input, const ir::Value* target,
                                              bool allowzero) {
  std::optional<Dims> entries = symbolic_value(target);
  if (!entries) return std::nullopt;
  Dims out;
  int unknown_at = -1;
  for (size_t i = 0; i < entries->size(); ++i) {
    ir::Dim d = (*entries)[i];
    if (d.is_static() && d.value() == 0 && !allowzero) {
      d = input && i < input->size() ? (*input)[i] : ir::Dim();
    } else if (d.is_static() && d.value() == -1) {
      if (unknown_at >= 0) return std::nullopt;  // two -1: invalid, left to the rule
      unknown_at = static_cast<int>(i);
      d = ir::Dim();
    } else if (d.is_static() && d.value() < 0) {
      return std::nullopt;
    }
    out.push_back(std::move(d));
  }
  if (unknown_at >= 0 && input) {
    // Solve -1: the input's element count over the others', when what is
    // named cancels and what remains divides.
    Product whole, known;
    for (const ir::Dim& d : *input) whole.times(d);
    for (size_t i = 0; i < out.size(); ++i)
      if (static_cast<int>(i) != unknown_at) known.times(out[i]);
    if (whole.complete && known.complete && whole.names == known.names && known.factor > 0 &&
        whole.factor % known.factor == 0)
      out[unknown_at] = ir::Dim(whole.factor / known.factor);
  }
  return ir::Shape(out);
}

}  // namespace onnxscript::infer
