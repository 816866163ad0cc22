// Own rules for element-wise operators beyond libonnx: casts, bitwise and
// string operators, and activations whose output is their input's type.

#include <fmt/format.h>

#include "infer/rules_beyond_libonnx.h"

namespace onnxscript::infer::rules {

namespace {

// The element type an int attribute such as 'to' names; fails on a number
// that names none.
ir::DataType data_type_attribute(RuleContext& ctx, std::string_view name) {
  const int64_t value = ctx.required_int(name);
  if (!ir::is_known_data_type(static_cast<int32_t>(value)) || value == 0)
    ctx.fail(fmt::format("attribute '{}' is {}, which is not an element type", name, value));
  return static_cast<ir::DataType>(value);
}

// The tensor type of input 0 with its element type replaced.
void shape_of_first(RuleContext& ctx, ir::DataType elem, size_t output = 0) {
  const ir::Type* x = ctx.tensor_input(0);
  ctx.set_output(output, ir::Type::tensor(elem, x ? x->shape : std::nullopt));
}

}  // namespace

// Cast-19 and later: the element type 'to' names (libonnx's rule rejects
// the types it does not know), the input's shape.
void cast(RuleContext& ctx) { shape_of_first(ctx, data_type_attribute(ctx, "to")); }

// BitCast-26: 'to' must have the input's bit width; the shape is unchanged.
void bit_cast(RuleContext& ctx) {
  const ir::DataType to = data_type_attribute(ctx, "to");
  if (to == ir::DataType::kString) ctx.fail("'to' cannot be string: strings have no bits");
  if (const ir::Type* x = ctx.tensor_input(0)) {
    if (x->elem_type == ir::DataType::kString) ctx.fail("the input cannot be string");
    if (ir::bit_width(x->elem_type) != ir::bit_width(to))
      ctx.fail(fmt::format("'to' ({}) is {} bits wide, the input ({}) {}", ir::data_type_name(to),
                           ir::bit_width(to), ir::data_type_name(x->elem_type),
                           ir::bit_width(x->elem_type)));
  }
  shape_of_first(ctx, to);
}

// Mish, Gelu, Swish, BitwiseNot, CumProd: the first input's type.
void same_as_first(RuleContext& ctx) { ctx.copy_input_type(0, 0); }

// BitwiseAnd/Or/Xor, StringConcat: both inputs of one element type,
// broadcast.
void broadcast_same_type(RuleContext& ctx) {
  const ir::Type* a = ctx.tensor_input(0);
  const ir::Type* b = ctx.tensor_input(1);
  if (!a || !b) {
    // One side suffices for the element type.
    if (const ir::Type* known = a ? a : b) ctx.set_output(0, ir::Type::tensor(known->elem_type));
    return;
  }
  if (a->elem_type != b->elem_type)
    ctx.fail(fmt::format("the inputs' element types differ ({} and {})",
                         ir::data_type_name(a->elem_type), ir::data_type_name(b->elem_type)));
  std::optional<ir::Shape> shape;
  if (a->shape && b->shape) shape = broadcast_shapes(ctx, *a->shape, *b->shape);
  ctx.set_output(0, ir::Type::tensor(a->elem_type, shape));
}

// SwiGLU-28: A and B of one type and shape (no broadcasting).
void swiglu(RuleContext& ctx) {
  const ir::Type* a = ctx.tensor_input(0);
  const ir::Type* b = ctx.tensor_input(1);
  if (a && b) {
    if (a->elem_type != b->elem_type) ctx.fail("A and B must have the same element type");
    if (a->shape && b->shape) {
      if (a->shape->size() != b->shape->size())
        ctx.fail(
            fmt::format("A {} and B {} must have the same shape", a->to_string(), b->to_string()));
      ir::Shape shape;
      for (size_t k = 0; k < a->shape->size(); ++k)
        shape.push_back(unify_dim(ctx, (*a->shape)[k], (*b->shape)[k], "A and B's dimension"));
      ctx.set_output(0, ir::Type::tensor(a->elem_type, shape));
      return;
    }
  }
  if (const ir::Type* known = a ? a : b) ctx.set_output(0, *known);
}

// RegexFullMatch-20: a bool per string.
void regex_full_match(RuleContext& ctx) {
  if (const ir::Type* x = ctx.tensor_input(0); x && x->elem_type != ir::DataType::kString)
    ctx.fail(fmt::format("X must be a string tensor, not {}", ir::data_type_name(x->elem_type)));
  shape_of_first(ctx, ir::DataType::kBool);
}

// StringSplit-20: Y holds X's shape plus one axis of the substrings (its
// length, the most substrings of any element, depends on the data); Z the
// number of substrings of each element.
void string_split(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  if (x && x->elem_type != ir::DataType::kString)
    ctx.fail(fmt::format("X must be a string tensor, not {}", ir::data_type_name(x->elem_type)));
  std::optional<ir::Shape> y_shape;
  if (x && x->shape) {
    y_shape = *x->shape;
    y_shape->push_back(ir::Dim());
  }
  ctx.set_output(0, ir::Type::tensor(ir::DataType::kString, y_shape));
  shape_of_first(ctx, ir::DataType::kInt64, 1);
}

}  // namespace onnxscript::infer::rules
