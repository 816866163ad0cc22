// ZipMap (ai.onnx.ml 1): turns each row of the float tensor X ([N, C], or 1-D
// [C] as one row) into a map from the C class labels (classlabels_strings or
// classlabels_int64s, exactly one given) to that row's values, giving a
// sequence of N maps: seq(map(string, float)) or seq(map(int64, float)). The
// maps keep the labels' order.
#include <algorithm>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void zip_map(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kFloat) ctx.fail("X must be a float tensor");
  if (x.rank() != 1 && x.rank() != 2)
    ctx.fail(fmt::format("X must be 1-D or 2-D, got rank {}", x.rank()));
  const ml::ClassLabels labels =
      ml::read_class_labels(ctx, "classlabels_int64s", "classlabels_strings");
  const int64_t columns = x.shape().back();
  if (columns != labels.size())
    ctx.fail(fmt::format("X has {} columns but there are {} labels", columns, labels.size()));
  const int64_t rows = x.rank() == 1 ? 1 : x.shape()[0];
  Tensor keys = labels.use_strings ? Tensor::from_span<std::string>(labels.strings)
                                   : Tensor::from_span<int64_t>(labels.ints);
  std::vector<RuntimeValue> maps;
  maps.reserve(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    Tensor values(DataType::kFloat, {columns});
    std::copy_n(x.data<float>() + r * columns, columns, values.data<float>());
    // The maps share one key tensor: runtime values are immutable.
    maps.push_back(RuntimeValue::map(keys, values));
  }
  const ir::Type map_type = ir::Type::map(keys.dtype(), ir::Type::tensor(DataType::kFloat));
  ctx.set_output(0, RuntimeValue::sequence(map_type, std::move(maps)));
}

}  // namespace

void register_ml_zip_map(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "ZipMap", 1, zip_map);
}

}  // namespace onnxscript::eval
