// EyeLike: a 2-D tensor shaped like the input with ones on diagonal k
// (j == i + k) and zeros elsewhere; `dtype` picks the output type (default:
// the input's).
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

using EyeTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                          DataType::kBfloat16, DataType::kInt8, DataType::kInt16, DataType::kInt32,
                          DataType::kInt64, DataType::kUint8, DataType::kUint16, DataType::kUint32,
                          DataType::kUint64, DataType::kBool>;

void eye_like(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  if (input.rank() != 2) ctx.fail(fmt::format("input must be 2-D, not rank {}", input.rank()));
  require_type(EyeTypes{}, input.dtype(), ctx);
  DataType dtype = input.dtype();
  if (const ir::Attribute* a = ctx.attribute("dtype")) {
    const int64_t v = a->as_int();
    if (!ir::is_known_data_type(static_cast<int32_t>(v)))
      ctx.fail(fmt::format("unknown dtype {}", v));
    dtype = static_cast<DataType>(v);
  }
  const int64_t k = ctx.attr_int("k", 0);
  const int64_t rows = input.shape()[0], cols = input.shape()[1];
  Tensor out(dtype, input.shape());
  dispatch<EyeTypes>(dtype, ctx, [&]<typename T>() {
    T* dst = out.data<T>();
    for (int64_t i = 0; i < rows; ++i)
      if (i + k >= 0 && i + k < cols) dst[i * cols + i + k] = static_cast<T>(1.0f);
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_eye_like(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 22}) registry.add("", "EyeLike", v, eye_like);
}

}  // namespace onnxscript::eval
