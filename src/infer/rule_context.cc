#include "infer/rule_context.h"

#include <fmt/format.h>

namespace onnxscript::infer {

namespace {

// Constants larger than this are not read: shape operands are small, and a
// weight is never one.
constexpr int64_t kMaxReadElements = 1024;

const ir::Attribute* plain_attribute(const ir::Node& node, std::string_view name) {
  const ir::Attribute* a = node.attribute(name);
  return a && !a->is_reference() ? a : nullptr;
}

}  // namespace

const ir::Tensor* known_data(const ir::Value* v) {
  if (!v) return nullptr;
  if (const ir::Tensor* t = v->const_value()) return t;
  const ir::Node* producer = v->producer();
  if (!producer || producer->op_type() != "Constant" || !producer->domain().empty()) return nullptr;
  const ir::Attribute* value = producer->attribute("value");
  if (!value || value->is_reference() || value->type != ir::AttributeType::kTensor) return nullptr;
  return &value->as_tensor();
}

const ir::Type* RuleContext::input_type(size_t i) const {
  if (!has_input(i)) return nullptr;
  const std::optional<ir::Type>& t = node_.input(i)->type();
  if (!t || t->kind == ir::TypeKind::kUnspecified) return nullptr;
  return &*t;
}

const ir::Type* RuleContext::tensor_input(size_t i) const {
  const ir::Type* t = input_type(i);
  return t && t->is_tensor() && t->elem_type != ir::DataType::kUndefined ? t : nullptr;
}

const ir::Shape* RuleContext::input_shape(size_t i) const {
  const ir::Type* t = tensor_input(i);
  return t && t->shape ? &*t->shape : nullptr;
}

std::optional<std::vector<int64_t>> RuleContext::input_ints(size_t i) {
  if (!has_input(i)) return std::nullopt;
  data_requested_ = true;
  const ir::Tensor* t = known_data(node_.input(i));
  if (!t || t->numel() > kMaxReadElements) return std::nullopt;
  std::vector<int64_t> values(static_cast<size_t>(t->numel()));
  for (size_t k = 0; k < values.size(); ++k) {
    switch (t->dtype()) {
      case ir::DataType::kInt64:
        values[k] = t->data<int64_t>()[k];
        break;
      case ir::DataType::kInt32:
        values[k] = t->data<int32_t>()[k];
        break;
      default:
        return std::nullopt;
    }
  }
  return values;
}

std::optional<std::vector<double>> RuleContext::input_floats(size_t i) {
  if (!has_input(i)) return std::nullopt;
  data_requested_ = true;
  const ir::Tensor* t = known_data(node_.input(i));
  if (!t || t->numel() > kMaxReadElements) return std::nullopt;
  std::vector<double> values(static_cast<size_t>(t->numel()));
  for (size_t k = 0; k < values.size(); ++k) {
    switch (t->dtype()) {
      case ir::DataType::kFloat:
        values[k] = t->data<float>()[k];
        break;
      case ir::DataType::kDouble:
        values[k] = t->data<double>()[k];
        break;
      default:
        return std::nullopt;
    }
  }
  return values;
}

int64_t RuleContext::attr_int(std::string_view name, int64_t fallback) const {
  const ir::Attribute* a = plain_attribute(node_, name);
  return a && a->type == ir::AttributeType::kInt ? a->as_int() : fallback;
}

float RuleContext::attr_float(std::string_view name, float fallback) const {
  const ir::Attribute* a = plain_attribute(node_, name);
  return a && a->type == ir::AttributeType::kFloat ? a->as_float() : fallback;
}

std::string RuleContext::attr_string(std::string_view name, std::string fallback) const {
  const ir::Attribute* a = plain_attribute(node_, name);
  return a && a->type == ir::AttributeType::kString ? a->as_string() : fallback;
}

std::optional<std::vector<int64_t>> RuleContext::attr_ints(std::string_view name) const {
  const ir::Attribute* a = plain_attribute(node_, name);
  if (!a || a->type != ir::AttributeType::kInts) return std::nullopt;
  return a->as_ints();
}

int64_t RuleContext::required_int(std::string_view name) {
  const ir::Attribute* a = plain_attribute(node_, name);
  if (!a || a->type != ir::AttributeType::kInt)
    fail(fmt::format("the int attribute '{}' is required", name));
  return a->as_int();
}

void RuleContext::set_output(size_t i, ir::Type type) {
  if (i < outputs_.size()) outputs_[i] = std::move(type);
}

void RuleContext::copy_input_type(size_t j, size_t i) {
  if (const ir::Type* t = input_type(j)) set_output(i, *t);
}

ir::Dim dim_mul(const ir::Dim& a, const ir::Dim& b) {
  if (a.is_static() && b.is_static()) return a.value() * b.value();
  return {};
}

ir::Dim dim_div(RuleContext& ctx, const ir::Dim& a, const ir::Dim& b, std::string_view what) {
  if (!a.is_static() || !b.is_static()) return {};
  if (b.value() <= 0 || a.value() % b.value() != 0)
    ctx.fail(fmt::format("{}: {} is not a multiple of {}", what, a.value(), b.value()));
  return a.value() / b.value();
}

ir::Dim dim_add(const ir::Dim& a, const ir::Dim& b) {
  if (a.is_static() && b.is_static()) return a.value() + b.value();
  return {};
}

ir::Dim unify_dim(RuleContext& ctx, const ir::Dim& a, const ir::Dim& b, std::string_view what) {
  if (a.is_static() && b.is_static() && a.value() != b.value())
    ctx.fail(fmt::format("{}: {} and {} differ", what, a.value(), b.value()));
  if (a.is_static()) return a;
  if (b.is_static()) return b;
  return a.is_symbolic() ? a : b;
}

int64_t normalize_axis(RuleContext& ctx, int64_t axis, int64_t rank, std::string_view what) {
  if (axis < -rank || axis >= rank)
    ctx.fail(fmt::format("{} {} is out of range for rank {}", what, axis, rank));
  return axis < 0 ? axis + rank : axis;
}

ir::Shape broadcast_shapes(RuleContext& ctx, const ir::Shape& a, const ir::Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<ir::Dim> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    // Aligned from the back; a missing dimension acts as 1.
    const ir::Dim da = k < rank - a.size() ? ir::Dim(1) : a[k - (rank - a.size())];
    const ir::Dim db = k < rank - b.size() ? ir::Dim(1) : b[k - (rank - b.size())];
    if (da.is_static() && da.value() == 1) {
      out[k] = db;
    } else if (db.is_static() && db.value() == 1) {
      out[k] = da;
    } else if (da.is_static() && db.is_static()) {
      if (da.value() != db.value())
        ctx.fail(fmt::format("dimensions {} and {} do not broadcast", da.value(), db.value()));
      out[k] = da;
    } else if (da == db) {
      out[k] = da;
    } else if (da.is_static()) {
      out[k] = da;  // the other is 1 or equal to it
    } else if (db.is_static()) {
      out[k] = db;
    } else {
      out[k] = ir::Dim();
    }
  }
  return ir::Shape(out);
}

void require_rank(RuleContext& ctx, size_t i, size_t rank, std::string_view name) {
  const ir::Shape* s = ctx.input_shape(i);
  if (s && s->size() != rank)
    ctx.fail(fmt::format("{} must have rank {}, not {}", name, rank, s->size()));
}

}  // namespace onnxscript::infer
