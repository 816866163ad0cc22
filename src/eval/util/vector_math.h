#pragma once
// Vectorised float math over arrays: exp, erf, tanh, sigmoid, Gelu, and the
// row reductions Softmax and LayerNormalization need.
//
// Each function is compiled several times (GCC's target_clones on x86-64 ELF:
// AVX-512, AVX2+FMA and the baseline), and the loader picks the best one the
// CPU has, so a portable build still uses the machine's vector width. The
// element functions are branch-free (range reduction, a polynomial, selects)
// so that the compiler vectorises their loops; libm's scalar expf/erff were
// 12-15% of a ViT's run.
//
// Accuracy, against the double-precision libm (tests/eval/vector_math_test.cc
// sweeps a grid over every float plus the edges; a sweep of every 7th float
// measured the worst case): exp 1.04 ulp, erf 2.3, tanh 1.4, sigmoid 2.7,
// the same in each clone. Special values follow C's: NaN propagates,
// exp(+-inf) is inf/0, erf and tanh of +-inf are +-1, -0 maps to -0, and
// results below FLT_MIN come out as denormals. Gelu's "none" form gives 0
// where erf(x / sqrt(2)) is -1 in float (x < -5.5), as the formula in float
// does.
//
// Arrays may alias exactly (y == x) but must not overlap otherwise.
#include <cstdint>

namespace onnxscript::eval::vmath {

/// y[i] = e^x[i].
void exp(const float* x, float* y, int64_t n);

/// y[i] = erf(x[i]).
void erf(const float* x, float* y, int64_t n);

/// y[i] = tanh(x[i]).
void tanh(const float* x, float* y, int64_t n);

/// y[i] = 1 / (1 + e^-x[i]), computed without overflow for either sign.
void sigmoid(const float* x, float* y, int64_t n);

/// Gelu with approximate "none": y = x / 2 * (1 + erf(x / sqrt(2))).
void gelu_erf(const float* x, float* y, int64_t n);

/// Gelu with approximate "tanh":
/// y = x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
void gelu_tanh(const float* x, float* y, int64_t n);

/// The largest of x[0..n) (n >= 1); NaN if any element is NaN.
float max(const float* x, int64_t n);

/// The sum of x[0..n) (0 when n == 0), with 16 partial sums.
float sum(const float* x, int64_t n);

/// y[i] = e^(x[i] - shift); returns the sum of the y[i].
float exp_shifted_sum(const float* x, float* y, int64_t n, float shift);

/// y[i] *= s.
void scale(float* y, int64_t n, float s);

/// y[i] = x[i] - s.
void subtract(const float* x, float* y, int64_t n, float s);

/// The mean and the mean squared deviation of x[0..n) (n >= 1), two passes.
void mean_variance(const float* x, int64_t n, float& mean, float& variance);

/// y[i] = (x[i] - mean) * inv_std * scale[i] + bias[i]; bias may be null (0).
void normalize_row(const float* x, float* y, int64_t n, float mean, float inv_std,
                   const float* scale, const float* bias);

}  // namespace onnxscript::eval::vmath
