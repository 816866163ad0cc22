// BitwiseXor: C = A ^ B on integers, element-wise with numpy broadcasting
// (opset 18).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void bitwise_xor(KernelContext& ctx) {
  run_binary<kIntTypes>(ctx, []<typename C>(C a, C b) { return static_cast<C>(a ^ b); });
}
}  // namespace

void register_math_bitwise_xor(KernelRegistry& registry) {
  registry.add("", "BitwiseXor", 18, bitwise_xor);
}

}  // namespace onnxscript::eval
