// Scaler (ai.onnx.ml 1): Y = (X - offset) * scale as float, where offset and
// scale each have one entry for every feature (the last axis) or a single
// entry for all of them. An absent offset is 0 and an absent scale is 1.
#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void scaler(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  std::vector<float> offset = ctx.attr_floats("offset");
  std::vector<float> scale = ctx.attr_floats("scale");
  if (offset.empty()) offset = {0.0f};
  if (scale.empty()) scale = {1.0f};
  const int64_t features = x.rank() == 0 ? 1 : x.shape().back();
  for (const auto& [list, name] : {std::pair{&offset, "offset"}, std::pair{&scale, "scale"}})
    if (list->size() != 1 && static_cast<int64_t>(list->size()) != features)
      ctx.fail(fmt::format("{} has {} entries; it needs 1 or one per feature ({})", name,
                           list->size(), features));
  Tensor out(DataType::kFloat, x.shape());
  float* dst = out.data<float>();
  dispatch<TypeList<DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32>>(
      x.dtype(), ctx, [&]<typename T>() {
        const T* src = x.data<T>();
        for (int64_t i = 0; i < x.numel(); ++i) {
          const int64_t f = features == 0 ? 0 : i % features;
          const double o = offset[offset.size() == 1 ? 0 : f];
          const double s = scale[scale.size() == 1 ? 0 : f];
          dst[i] = static_cast<float>((static_cast<double>(src[i]) - o) * s);
        }
      });
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_scaler(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "Scaler", 1, scaler);
}

}  // namespace onnxscript::eval
