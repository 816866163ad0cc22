// Gelu (v20): Y = 0.5 * X * (1 + erf(X / sqrt(2))) with approximate "none",
// or 0.5 * X * (1 + tanh(sqrt(2 / pi) * (X + 0.044715 * X^3))) with "tanh".
#include <cmath>

#include <fmt/format.h>

#include "eval/util/elementwise.h"
#include "eval/util/vector_math.h"
#include "eval/util/vector_unary.h"

namespace onnxscript::eval {
namespace {
void gelu_kernel(KernelContext& ctx) {
  const std::string approximate = ctx.attr_string("approximate", "none");
  // float through vector_math.h (which computes the "tanh" form as
  // x * sigmoid(2z), the same function without the cancellation of 1 + tanh).
  if (approximate == "none") {
    if (run_unary_float(ctx, vmath::gelu_erf)) return;
    run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C {
      return C(0.5) * x * (C(1) + std::erf(x / std::sqrt(C(2))));
    });
  } else if (approximate == "tanh") {
    if (run_unary_float(ctx, vmath::gelu_tanh)) return;
    run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C {
      const C k = std::sqrt(C(2) / C(M_PI));
      return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
    });
  } else {
    ctx.fail(fmt::format("approximate must be \"none\" or \"tanh\", got \"{}\"", approximate));
  }
}
}  // namespace

void register_activation_gelu(KernelRegistry& registry) {
  // 20: the operator's first version.
  registry.add("", "Gelu", 20, gelu_kernel);
}

}  // namespace onnxscript::eval
