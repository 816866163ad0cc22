// Min: element-wise minimum of any number of inputs, with numpy broadcasting
// (opset 8+). A NaN in any input gives NaN, as numpy.minimum does. Opset 12
// added the integer types.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void min(KernelContext& ctx) {
  dispatch<kNumericTypes>(ctx.input_tensor(0).dtype(), ctx, [&]<typename T>() {
    ctx.set_output(0, fold_inputs<T>(ctx, []<typename C>(C a, C b) -> C {
                     if constexpr (std::is_floating_point_v<C>) {
                       if (std::isnan(a)) return a;  // NaN propagates
                       if (std::isnan(b)) return b;
                     }
                     return b < a ? b : a;
                   }));
  });
}
}  // namespace

void register_math_min(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 8, 12, 13}) registry.add("", "Min", v, min);
}

}  // namespace onnxscript::eval
