// Flatten: reshapes to 2-D [prod(shape[:axis]), prod(shape[axis:])]. axis is
// in [0, rank] (negative allowed from v11). Shares the input's storage.
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void flatten(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const int64_t rank = input.rank();
  int64_t axis = ctx.attr_int("axis", 1);
  // axis == rank is allowed (the second dimension is then 1).
  axis = axis == rank ? rank : normalize_axis(ctx, axis, rank);
  const int64_t outer = shape_product(input.shape(), 0, axis);
  const int64_t inner = shape_product(input.shape(), axis, rank);
  ctx.set_output(0, input.reshaped({outer, inner}));
}

}  // namespace

void register_tensor_flatten(KernelRegistry& registry) {
  // 21-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 9, 11, 13, 21, 23, 24, 25}) registry.add("", "Flatten", v, flatten);
}

}  // namespace onnxscript::eval
