// Mean: element-wise mean of any number of inputs (their sum divided by the
// count). Opset 8 introduced numpy broadcasting; earlier versions require
// equal shapes, which broadcasting accepts as well.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void mean(KernelContext& ctx) {
  dispatch<kFloatTypes>(ctx.input_tensor(0).dtype(), ctx, [&]<typename T>() {
    Tensor out = fold_inputs<T>(ctx, [](auto a, auto b) { return a + b; });
    if (ctx.num_inputs() > 1) {
      using C = arith_t<T>;
      const C count = static_cast<C>(ctx.num_inputs());
      T* p = out.data<T>();
      for (int64_t i = 0; i < out.numel(); ++i) p[i] = static_cast<T>(static_cast<C>(p[i]) / count);
    }
    ctx.set_output(0, std::move(out));
  });
}
}  // namespace

void register_math_mean(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 8, 13}) registry.add("", "Mean", v, mean);
}

}  // namespace onnxscript::eval
