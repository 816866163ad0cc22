// Own rules for ai.onnx.ml operators beyond libonnx: LabelEncoder-4 (keys
// and values as tensors) and TreeEnsemble-5.

#include <fmt/format.h>

#include "infer/rules_beyond_libonnx.h"

namespace onnxscript::infer::rules {

namespace {

// The element type of LabelEncoder's keys or values: the `prefix`_tensor
// attribute's, or the type of the list attribute given.
std::optional<ir::DataType> encoder_type(const ir::Node& node, std::string_view prefix) {
  const std::string p(prefix);
  if (const ir::Attribute* t = node.attribute(p + "_tensor");
      t && !t->is_reference() && t->type == ir::AttributeType::kTensor)
    return t->as_tensor().dtype();
  if (node.attribute(p + "_strings")) return ir::DataType::kString;
  if (node.attribute(p + "_int64s")) return ir::DataType::kInt64;
  if (node.attribute(p + "_floats")) return ir::DataType::kFloat;
  return std::nullopt;
}

}  // namespace

// LabelEncoder-4: the input's shape, the values' element type; the input's
// element type must be the keys'.
void label_encoder(RuleContext& ctx) {
  const std::optional<ir::DataType> keys = encoder_type(ctx.node(), "keys");
  const std::optional<ir::DataType> values = encoder_type(ctx.node(), "values");
  const ir::Type* x = ctx.tensor_input(0);
  if (x && keys && x->elem_type != *keys)
    ctx.fail(fmt::format("the input is {} but the keys are {}", ir::data_type_name(x->elem_type),
                         ir::data_type_name(*keys)));
  if (!values)
    ctx.fail("one of values_tensor, values_strings, values_int64s, values_floats is required");
  ctx.set_output(0, ir::Type::tensor(*values, x ? x->shape : std::nullopt));
}

// TreeEnsemble-5: X [N, F] gives Y [N, n_targets] of X's element type.
void tree_ensemble(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  if (!x) return;
  const int64_t targets = ctx.required_int("n_targets");
  if (targets <= 0) ctx.fail(fmt::format("n_targets {} must be positive", targets));
  ir::Dim n;
  if (x->shape) {
    if (x->shape->size() != 2 && x->shape->size() != 1)
      ctx.fail(fmt::format("X must have rank 1 or 2, not {}", x->shape->size()));
    // A rank-1 X leaves the number of rows to the runtime.
    if (x->shape->size() == 2) n = (*x->shape)[0];
  }
  ctx.set_output(0, ir::Type::tensor(x->elem_type, ir::Shape{n, targets}));
}

}  // namespace onnxscript::infer::rules
