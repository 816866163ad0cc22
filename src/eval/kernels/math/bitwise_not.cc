// BitwiseNot: Y = ~X on integers, element-wise (opset 18).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void bitwise_not(KernelContext& ctx) {
  run_unary<kIntTypes>(ctx, []<typename C>(C x) { return static_cast<C>(~x); });
}
}  // namespace

void register_math_bitwise_not(KernelRegistry& registry) {
  registry.add("", "BitwiseNot", 18, bitwise_not);
}

}  // namespace onnxscript::eval
