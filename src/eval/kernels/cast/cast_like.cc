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
  for (int64_t v : {15, 19, 21}) registry.add("", "CastLike", v, cast_like);
}

}  // namespace onnxscript::eval
