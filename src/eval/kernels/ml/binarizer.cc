// Binarizer (ai.onnx.ml 1): Y = 1 where X > threshold, else 0, in X's element
// type. NaN is not greater than anything, so it maps to 0.
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void binarizer(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const double threshold = ctx.attr_float("threshold", 0.0f);
  Tensor out(x.dtype(), x.shape());
  dispatch<TypeList<DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32>>(
      x.dtype(), ctx, [&]<typename T>() {
        const T* src = x.data<T>();
        T* dst = out.data<T>();
        for (int64_t i = 0; i < x.numel(); ++i)
          dst[i] = static_cast<double>(src[i]) > threshold ? T(1) : T(0);
      });
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_binarizer(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "Binarizer", 1, binarizer);
}

}  // namespace onnxscript::eval
