// SpaceToDepth: the inverse of DepthToSpace in DCR mode: b x b spatial
// blocks become channels, [N, C, H, W] -> [N, C*b^2, H/b, W/b].
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void space_to_depth(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  if (input.rank() != 4) ctx.fail(fmt::format("input must be 4-D, not rank {}", input.rank()));
  const int64_t b = ctx.required_attribute("blocksize").as_int();
  const int64_t n = input.shape()[0], c = input.shape()[1], h = input.shape()[2],
                w = input.shape()[3];
  if (b <= 0 || h % b != 0 || w % b != 0)
    ctx.fail(fmt::format("spatial dims {}x{} are not divisible by blocksize {}", h, w, b));
  dispatch_by_size(input.dtype(), ctx, []<typename U>() {});  // rejects unsupported types
  Tensor out = transpose_tensor(input.reshaped({n, c, h / b, b, w / b, b}),
                                std::vector<int64_t>{0, 3, 5, 1, 2, 4});
  ctx.set_output(0, out.reshaped({n, c * b * b, h / b, w / b}));
}

}  // namespace

void register_tensor_space_to_depth(KernelRegistry& registry) {
  for (int64_t v : {1, 13}) registry.add("", "SpaceToDepth", v, space_to_depth);
}

}  // namespace onnxscript::eval
