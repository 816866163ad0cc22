// FeatureVectorizer (ai.onnx.ml 1): concatenates its inputs column-wise into
// one float tensor [N, sum(inputdimensions)]. Input i is read as [N, C_i]
// (1-D [C] is [1, C]; higher ranks keep their first axis as N and flatten the
// rest) and fills inputdimensions[i] columns: when C_i is smaller the rest is
// 0, when it is larger the extra columns are dropped, as ONNX Runtime does.
// Every input must have the same N and, the inputs being one variadic T1, the
// same element type.
#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void feature_vectorizer(KernelContext& ctx) {
  const std::vector<int64_t> dims = ctx.attr_ints("inputdimensions");
  if (dims.size() != ctx.num_inputs())
    ctx.fail(
        fmt::format("inputdimensions has {} entries for {} inputs", dims.size(), ctx.num_inputs()));
  int64_t width = 0;
  for (int64_t d : dims) {
    if (d < 0 || d > INT32_MAX - width)
      ctx.fail(fmt::format("inputdimensions entry {} is negative or too large", d));
    width += d;
  }
  int64_t rows = -1;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input_tensor(i);
    if (x.rank() == 0) ctx.fail(fmt::format("input {} is a scalar; it needs a feature axis", i));
    if (x.dtype() != ctx.input_tensor(0).dtype())
      ctx.fail(fmt::format("input {} is {} but input 0 is {}; the inputs share one type", i,
                           ir::data_type_name(x.dtype()),
                           ir::data_type_name(ctx.input_tensor(0).dtype())));
    const int64_t n = x.rank() == 1 ? 1 : x.shape()[0];
    if (rows >= 0 && n != rows)
      ctx.fail(fmt::format("input {} has {} rows but input 0 has {}", i, n, rows));
    rows = n;
  }
  if (rows < 0) ctx.fail("needs at least one input");
  Tensor out(DataType::kFloat, {rows, width});
  float* dst = out.data<float>();
  int64_t offset = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input_tensor(i);
    const int64_t cols = rows == 0 ? 0 : x.numel() / rows;
    const int64_t take = std::min(cols, dims[i]);
    dispatch<TypeList<DataType::kInt32, DataType::kInt64, DataType::kFloat, DataType::kDouble>>(
        x.dtype(), ctx, [&]<typename T>() {
          const T* src = x.data<T>();
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < take; ++c)
              dst[r * width + offset + c] = static_cast<float>(src[r * cols + c]);
        });
    offset += dims[i];
  }
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_feature_vectorizer(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "FeatureVectorizer", 1, feature_vectorizer);
}

}  // namespace onnxscript::eval
