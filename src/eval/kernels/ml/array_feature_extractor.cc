// ArrayFeatureExtractor (ai.onnx.ml 1): Z[..., j] = X[..., Y[j]], picking
// columns of the last axis by the int64 indices Y (any shape, read flat).
// The output keeps X's leading dimensions and has one column per index; a 1-D
// X gives [1, len(Y)], as ONNX Runtime does (the spec is silent). Indices
// outside [0, last dimension) are an error (no negative wrap-around).
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void array_feature_extractor(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& y = ctx.input_tensor(1);
  require_type(TypeList<DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32,
                        DataType::kString>{},
               x.dtype(), ctx);
  if (y.dtype() != DataType::kInt64) ctx.fail("Y must be an int64 tensor");
  if (x.rank() == 0) ctx.fail("X must have at least one dimension");
  const int64_t width = x.shape().back();
  const int64_t count = y.numel();
  const int64_t* indices = y.data<int64_t>();
  for (int64_t j = 0; j < count; ++j)
    if (indices[j] < 0 || indices[j] >= width)
      ctx.fail(fmt::format("index Y[{}] = {} is outside [0, {})", j, indices[j], width));
  std::vector<int64_t> out_shape = x.shape().to_vector();
  if (x.rank() == 1)
    out_shape = {1, count};
  else
    out_shape.back() = count;
  Tensor out(x.dtype(), out_shape);
  const int64_t rows = shape_product(x.shape(), 0, x.shape().size() - 1);
  dispatch_by_size(x.dtype(), ctx, [&]<typename U>() {
    const U* src = x.data<U>();
    U* dst = out.data<U>();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < count; ++j) dst[r * count + j] = src[r * width + indices[j]];
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_array_feature_extractor(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "ArrayFeatureExtractor", 1, array_feature_extractor);
}

}  // namespace onnxscript::eval
