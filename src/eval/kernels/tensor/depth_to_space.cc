// DepthToSpace: moves channel blocks into b x b spatial blocks:
// [N, C, H, W] -> [N, C/b^2, H*b, W*b]. Mode DCR (depth-column-row, the only
// mode before v11) reads the channel as (b, b, C/b^2); CRD as (C/b^2, b, b).
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void depth_to_space(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  if (input.rank() != 4) ctx.fail(fmt::format("input must be 4-D, not rank {}", input.rank()));
  const int64_t b = ctx.required_attribute("blocksize").as_int();
  const std::string mode = ctx.attr_string("mode", "DCR");
  const int64_t n = input.shape()[0], c = input.shape()[1], h = input.shape()[2],
                w = input.shape()[3];
  if (b <= 0 || c % (b * b) != 0)
    ctx.fail(fmt::format("channels {} are not divisible by blocksize^2 = {}", c, b * b));
  dispatch_by_size(input.dtype(), ctx, []<typename U>() {});  // rejects unsupported types
  Tensor out;
  if (mode == "DCR") {
    out = transpose_tensor(input.reshaped({n, b, b, c / (b * b), h, w}),
                           std::vector<int64_t>{0, 3, 4, 1, 5, 2});
  } else if (mode == "CRD") {
    out = transpose_tensor(input.reshaped({n, c / (b * b), b, b, h, w}),
                           std::vector<int64_t>{0, 1, 4, 2, 5, 3});
  } else {
    ctx.fail("unknown mode '" + mode + "'");
  }
  ctx.set_output(0, out.reshaped({n, c / (b * b), h * b, w * b}));
}

}  // namespace

void register_tensor_depth_to_space(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13}) registry.add("", "DepthToSpace", v, depth_to_space);
}

}  // namespace onnxscript::eval
