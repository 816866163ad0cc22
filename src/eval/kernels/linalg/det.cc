// Det: the determinant of each square matrix in X [*, M, M]; Y has shape
// [*] (a scalar for a 2-D X). Computed by LU decomposition with partial
// pivoting in double precision (float and float16 are widened): the product
// of the pivots, negated once per row swap. An exactly zero pivot column
// means a singular matrix and gives 0; the 0x0 matrix has determinant 1.
#include <cmath>

#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"

namespace onnxscript::eval {
namespace {

// Determinant of the row-major m x m matrix `a`, which is overwritten.
double lu_determinant(double* a, int64_t m) {
  double det = 1.0;
  for (int64_t k = 0; k < m; ++k) {
    int64_t pivot = k;
    for (int64_t i = k + 1; i < m; ++i)
      if (std::abs(a[i * m + k]) > std::abs(a[pivot * m + k])) pivot = i;
    const double p = a[pivot * m + k];
    if (p == 0.0) return 0.0;
    if (pivot != k) {
      for (int64_t j = 0; j < m; ++j) std::swap(a[k * m + j], a[pivot * m + j]);
      det = -det;
    }
    det *= p;
    for (int64_t i = k + 1; i < m; ++i) {
      const double factor = a[i * m + k] / p;
      if (factor == 0.0) continue;
      for (int64_t j = k + 1; j < m; ++j) a[i * m + j] -= factor * a[k * m + j];
    }
  }
  return det;
}

void det(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16>{}, x.dtype(), ctx);
  if (x.rank() < 2) ctx.fail(fmt::format("X {} must have rank >= 2", shape_string(x.shape())));
  const int64_t m = x.shape()[x.rank() - 1];
  if (x.shape()[x.rank() - 2] != m)
    ctx.fail(fmt::format("X {} is not a batch of square matrices", shape_string(x.shape())));
  const std::vector<int64_t> out_shape(x.shape().begin(), x.shape().end() - 2);
  const int64_t batch = shape_product(x.shape(), 0, x.rank() - 2);
  std::vector<double> values = float_values(ctx, x);
  std::vector<double> dets(static_cast<size_t>(batch));
  for (int64_t i = 0; i < batch; ++i) dets[i] = lu_determinant(values.data() + i * m * m, m);
  ctx.set_output(0, float_tensor(ctx, x.dtype(), out_shape, dets));
}

}  // namespace

void register_linalg_det(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {11, 22}) registry.add("", "Det", v, det);
}

}  // namespace onnxscript::eval
