#pragma once
// Softmax, LogSoftmax and Hardmax share their axis handling, which changed
// at opset 13:
//   v1-v12: the input is coerced to 2-D [prod(shape[:axis]), prod(shape[axis:])]
//           and the operation runs over each row (axis defaults to 1);
//   v13+:   the operation runs along the single axis `axis` (default -1).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "eval/util/parallel.h"
#include "eval/util/shape_util.h"
#include "eval/util/vector_math.h"

namespace onnxscript::eval {

enum class SoftmaxKind { kSoftmax, kLogSoftmax, kHardmax };

/// Softmax (or LogSoftmax when kLog) of `rows` contiguous float rows of
/// `dim` elements: the common case of the last axis, vectorised (two passes
/// over each row: its maximum, then exponentials and their sum written into
/// the output, then one scaling pass) and split over the intra-op threads by
/// rows.
template <bool kLog>
void softmax_rows_float(const float* src, float* dst, int64_t rows, int64_t dim) {
  // About 16K elements per range, so that a hand-off pays for itself.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / dim);
  auto body = [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      const float* x = src + r * dim;
      float* y = dst + r * dim;
      const float peak = vmath::max(x, dim);
      const float sum = vmath::exp_shifted_sum(x, y, dim, peak);
      if constexpr (kLog) {
        // (x - peak) - log(sum), in that order: x - peak is exact near the
        // peak, where the results are small.
        vmath::subtract(x, y, dim, peak);
        vmath::subtract(y, y, dim, std::log(sum));
      } else {
        vmath::scale(y, dim, 1.0f / sum);
      }
    }
  };
  if (rows <= grain || intra_op_threads() == 1)
    body(0, rows);
  else
    parallel_for(rows, grain, body);
}

template <SoftmaxKind K>
void softmax_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  const bool legacy = ctx.version() < 13;
  int64_t axis = ctx.attr_int("axis", legacy ? 1 : -1);
  // A scalar is treated as one element (a softmax of 1).
  if (legacy) {
    // In the 2-D coercion axis may equal rank (one row per element).
    axis = (axis == rank) ? rank : normalize_axis(ctx, axis, rank == 0 ? 1 : rank);
  } else {
    axis = normalize_axis(ctx, axis, rank == 0 ? 1 : rank);
  }
  int64_t outer, dim, inner;
  if (legacy) {
    outer = shape_product(x.shape(), 0, axis);
    dim = shape_product(x.shape(), axis, rank);
    inner = 1;
  } else {
    outer = shape_product(x.shape(), 0, axis);
    dim = rank == 0 ? 1 : x.shape()[axis];
    inner = shape_product(x.shape(), axis + 1, rank);
  }
  // Every (outer, inner) line is written in full.
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  if constexpr (K != SoftmaxKind::kHardmax) {
    if (x.dtype() == DataType::kFloat && inner == 1 && dim > 0) {
      softmax_rows_float<K == SoftmaxKind::kLogSoftmax>(x.data<float>(), out.data<float>(), outer,
                                                        dim);
      ctx.set_output(0, out);
      return;
    }
  }
  dispatch<kFloatTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    // Lines are independent: split them over the intra-op threads, each
    // range with a buffer of its own.
    const int64_t lines = outer * inner;
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(1, dim));
    parallel_for(lines, grain, [&](int64_t first, int64_t last) {
      std::vector<C> line(dim);
      for (int64_t li = first; li < last; ++li) {
        const int64_t o = li / inner, i = li % inner;
        const int64_t base = o * dim * inner + i;
        C peak = -std::numeric_limits<C>::infinity();
        int64_t arg = 0;
        for (int64_t j = 0; j < dim; ++j) {
          line[j] = static_cast<C>(src[base + j * inner]);
          if (line[j] > peak) {
            peak = line[j];
            arg = j;
          }
        }
        if constexpr (K == SoftmaxKind::kHardmax) {
          for (int64_t j = 0; j < dim; ++j)
            dst[base + j * inner] = static_cast<T>(C(j == arg ? 1 : 0));
        } else {
          C sum = 0;
          if constexpr (K == SoftmaxKind::kSoftmax) {
            // Each exponential is computed once and kept for the division
            // (float and the 16-bit floats, which compute in float, through
            // the vectorised exp).
            if constexpr (std::is_same_v<C, float>) {
              sum = vmath::exp_shifted_sum(line.data(), line.data(), dim, peak);
            } else {
              for (int64_t j = 0; j < dim; ++j) {
                line[j] = std::exp(line[j] - peak);
                sum += line[j];
              }
            }
            for (int64_t j = 0; j < dim; ++j) dst[base + j * inner] = static_cast<T>(line[j] / sum);
          } else {
            for (int64_t j = 0; j < dim; ++j) {
              line[j] -= peak;
              sum += std::exp(line[j]);
            }
            const C log_sum = std::log(sum);
            for (int64_t j = 0; j < dim; ++j)
              dst[base + j * inner] = static_cast<T>(line[j] - log_sum);
          }
        }
      }
    });
  });
  ctx.set_output(0, out);
}

}  // namespace onnxscript::eval
