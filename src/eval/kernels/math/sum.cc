// Sum: element-wise sum of any number of inputs. Opset 8 introduced numpy
// broadcasting; earlier versions require equal shapes, which broadcasting
// accepts as well.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void sum(KernelContext& ctx) {
  dispatch<kFloatTypes>(ctx.input_tensor(0).dtype(), ctx, [&]<typename T>() {
    ctx.set_output(0, fold_inputs<T>(ctx, [](auto a, auto b) { return a + b; }));
  });
}
}  // namespace

void register_math_sum(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 8, 13}) registry.add("", "Sum", v, sum);
}

}  // namespace onnxscript::eval
