#pragma once
// The generalized cosine windows HannWindow, HammingWindow and
// BlackmanWindow (opset 17):
//   w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N),  n = 0 .. size-1
// with N = size when `periodic` (the default: the first `size` points of a
// window of size + 1) and N = size - 1 when symmetric. A one-point
// symmetric window (N = 0) is [1], as numpy and PyTorch define it (the
// schema's function body would divide by zero there). The output element
// type is `output_datatype` (default float); integer types truncate.
// Values are computed in double.
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// Writes `values` into a new 1-D tensor of `dtype`, which must be one of the
/// numeric types (the signal generators' output_datatype).
inline Tensor numeric_tensor(const KernelContext& ctx, DataType dtype, ir::Dims shape,
                             const std::vector<double>& values) {
  require_type(kNumericTypes{}, dtype, ctx);  // before a tensor of an unknown type is made
  Tensor out(dtype, std::move(shape));
  dispatch<kNumericTypes>(dtype, ctx, [&]<typename T>() {
    T* p = out.data<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_integral_v<T>)
        p[i] = static_cast<T>(values[i]);
      else
        p[i] = static_cast<T>(static_cast<compute_t<T>>(values[i]));
    }
  });
  return out;
}

/// The output_datatype attribute (default float) as a DataType.
inline DataType output_datatype(const KernelContext& ctx) {
  return static_cast<DataType>(
      ctx.attr_int("output_datatype", static_cast<int64_t>(DataType::kFloat)));
}

/// The kernel body shared by the three windows.
inline void cosine_window(KernelContext& ctx, double a0, double a1, double a2) {
  const int64_t size = tensor_to_int64(ctx, ctx.input_tensor(0), "size");
  if (size < 0) ctx.fail(fmt::format("size {} must not be negative", size));
  const int64_t periodic = ctx.attr_int("periodic", 1);
  if (periodic != 0 && periodic != 1) ctx.fail(fmt::format("periodic {} is not 0 or 1", periodic));
  const int64_t period = periodic ? size : size - 1;
  std::vector<double> w(static_cast<size_t>(size));
  for (int64_t n = 0; n < size; ++n) {
    if (period == 0) {
      w[n] = 1.0;
      continue;
    }
    const double angle =
        2.0 * std::numbers::pi * static_cast<double>(n) / static_cast<double>(period);
    w[n] = a0 - a1 * std::cos(angle) + a2 * std::cos(2.0 * angle);
  }
  ctx.set_output(0, numeric_tensor(ctx, output_datatype(ctx), {size}, w));
}

}  // namespace onnxscript::eval
