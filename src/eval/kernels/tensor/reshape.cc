// Reshape: the same elements under a new shape. v1 takes the shape as an
// attribute, v5+ as an int64 input. A 0 copies the input dimension at that
// position (unless allowzero=1, v14+, where 0 means an empty dimension) and
// one -1 is inferred. The output shares the input's storage.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void reshape(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  std::vector<int64_t> shape = ctx.version() < 5
                                   ? ctx.attr_ints("shape")
                                   : tensor_to_int64s(ctx, ctx.input_tensor(1), "shape");
  const bool allowzero = ctx.attr_int("allowzero", 0) != 0;
  int64_t infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      if (i >= data.shape().size())
        ctx.fail(fmt::format("shape[{}] is 0 but the input has rank {}", i, data.rank()));
      shape[i] = data.shape()[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) ctx.fail("shape has more than one -1");
      infer = static_cast<int64_t>(i);
    } else if (shape[i] < 0) {
      ctx.fail(fmt::format("shape[{}] is {}", i, shape[i]));
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || data.numel() % known != 0)
      ctx.fail(fmt::format("cannot infer the -1 in {} for {} elements", shape_string(shape),
                           data.numel()));
    shape[infer] = data.numel() / known;
  } else if (known != data.numel()) {
    ctx.fail(
        fmt::format("cannot reshape {} to {}", shape_string(data.shape()), shape_string(shape)));
  }
  ctx.set_output(0, data.reshaped(std::move(shape)));
}

}  // namespace

void register_tensor_reshape(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 5, 13, 14, 19, 21, 23, 24, 25}) registry.add("", "Reshape", v, reshape);
}

}  // namespace onnxscript::eval
