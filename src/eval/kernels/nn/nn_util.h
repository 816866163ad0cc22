#pragma once
// Small helpers for the normalisation kernels: reading a float tensor of any
// floating type as doubles, and writing doubles back as a given type.
#include <vector>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// The elements of a floating-point tensor as doubles.
inline std::vector<double> float_values(const KernelContext& ctx, const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  dispatch<kFloatTypes>(t.dtype(), ctx, [&]<typename T>() {
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
  });
  return out;
}

/// A tensor of `dtype` (a floating type) and `shape` holding `values`.
inline Tensor float_tensor(const KernelContext& ctx, DataType dtype, ir::Dims shape,
                           const std::vector<double>& values) {
  Tensor t(dtype, std::move(shape));
  dispatch<kFloatTypes>(dtype, ctx, [&]<typename T>() {
    T* p = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i)
      p[i] = static_cast<T>(static_cast<compute_t<T>>(values[i]));
  });
  return t;
}

}  // namespace onnxscript::eval
