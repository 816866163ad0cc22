// Round: Y = X rounded to the nearest integer, halves to even (2.5 -> 2,
// -1.5 -> -2), as numpy.round does. nearbyint rounds in the current mode,
// which the evaluator never changes from round-to-nearest-even.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void round_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::nearbyint(x); });
}
}  // namespace

void register_math_round(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {11, 22}) registry.add("", "Round", v, round_kernel);
}

}  // namespace onnxscript::eval
