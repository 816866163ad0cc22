// BitwiseOr: C = A | B on integers, element-wise with numpy broadcasting
// (opset 18).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void bitwise_or(KernelContext& ctx) {
  run_binary<kIntTypes>(ctx, []<typename C>(C a, C b) { return static_cast<C>(a | b); });
}
}  // namespace

void register_math_bitwise_or(KernelRegistry& registry) {
  registry.add("", "BitwiseOr", 18, bitwise_or);
}

}  // namespace onnxscript::eval
