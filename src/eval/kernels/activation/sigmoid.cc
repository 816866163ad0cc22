// Sigmoid: Y = 1 / (1 + e^-X). Written so that e^x never overflows: for
// negative X it computes e^X / (1 + e^X).
#include <cmath>

#include "eval/util/elementwise.h"
#include "eval/util/vector_math.h"
#include "eval/util/vector_unary.h"

namespace onnxscript::eval {
namespace {
void sigmoid_kernel(KernelContext& ctx) {
  if (run_unary_float(ctx, vmath::sigmoid)) return;
  run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C {
    if (x >= C(0)) return C(1) / (C(1) + std::exp(-x));
    const C e = std::exp(x);
    return e / (C(1) + e);
  });
}
}  // namespace

void register_activation_sigmoid(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Sigmoid", v, sigmoid_kernel);
}

}  // namespace onnxscript::eval
