// Expand: broadcasts the input to the numpy broadcast of its shape and the
// `shape` input (so a 1 in `shape` keeps the input's dimension).
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void expand(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const std::vector<int64_t> shape = tensor_to_int64s(ctx, ctx.input_tensor(1), "shape");
  for (int64_t d : shape)
    if (d < 0) ctx.fail("shape must not contain negative dimensions");
  const std::vector<int64_t> out_shape = broadcast_shapes(ctx, input.shape(), shape);
  dispatch_by_size(input.dtype(), ctx, []<typename U>() {});  // rejects unsupported types
  ctx.set_output(0, broadcast_to(input, out_shape));
}

}  // namespace

void register_tensor_expand(KernelRegistry& registry) {
  for (int64_t v : {8, 13}) registry.add("", "Expand", v, expand);
}

}  // namespace onnxscript::eval
