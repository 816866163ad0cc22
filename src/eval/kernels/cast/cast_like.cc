// CastLike: converts input 0 to the element type of input 1 (whose values are
// ignored), by Cast's rules; see cast.cc. Opset 15; 19 adds `saturate` for the
// float8 types.
#include "eval/kernels/cast/cast.h"

namespace onnxscript::eval {
namespace {
void cast_like(KernelContext& ctx) {
  const bool saturate = ctx.attr_int("saturate", 1) != 0;
  ctx.set_output(0, cast_tensor(ctx, ctx.input_tensor(0), ctx.input_tensor(1).dtype(), saturate,
                                e8m0_round_mode(ctx)));
}
}  // namespace

void register_cast_cast_like(KernelRegistry& registry) {
  // 23, 24 and 25 add float4e2m1, float8e8m0 (with round_mode, which applies only to it) and
  // int2/uint2, which Cast's conversions handle.
  for (int64_t v : {15, 19, 21, 23, 24, 25}) registry.add("", "CastLike", v, cast_like);
}

}  // namespace onnxscript::eval
