// ConstantOfShape: a tensor of the shape given by the int64 input, filled
// with the one-element `value` attribute (default float 0). An empty shape
// input gives a scalar.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void constant_of_shape(KernelContext& ctx) {
  const std::vector<int64_t> shape = tensor_to_int64s(ctx, ctx.input_tensor(0), "input");
  for (int64_t d : shape)
    if (d < 0) ctx.fail(fmt::format("shape {} has a negative dimension", shape_string(shape)));
  Tensor value = Tensor::scalar(0.0f);
  if (const ir::Attribute* a = ctx.attribute("value")) {
    value = a->as_tensor();
    if (value.numel() != 1) ctx.fail("value must have exactly one element");
  }
  using Allowed = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                           DataType::kBfloat16, DataType::kInt8, DataType::kInt16, DataType::kInt32,
                           DataType::kInt64, DataType::kUint8, DataType::kUint16, DataType::kUint32,
                           DataType::kUint64, DataType::kBool>;
  require_type(Allowed{}, value.dtype(), ctx);
  Tensor out(value.dtype(), shape);
  dispatch_by_size(value.dtype(), ctx, [&]<typename U>() {
    std::fill_n(out.data<U>(), out.numel(), value.data<U>()[0]);
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_constant_of_shape(KernelRegistry& registry) {
  // 20-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {9, 20, 21, 23, 24, 25})
    registry.add("", "ConstantOfShape", v, constant_of_shape);
}

}  // namespace onnxscript::eval
