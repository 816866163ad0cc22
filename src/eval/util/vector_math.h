#pragma once
// Vectorised float math over arrays: exp, erf, tanh, sigmoid, Gelu, and the
// row reductions Softmax and LayerNormalization need.
//
// Each function is compiled several times (GCC/Clang target_clones on x86-64:
// AVX-512, AVX2+FMA and the baseline), and the loader picks the best one the
// CPU has, so a portable build still uses the machine's vector width. The
// element functions are branch-free (range reduction, a polynomial, selects)
// so that the compiler vectorises their loops; libm's scalar expf/erff were
// 12-15% of a ViT's run.
//
// Accuracy (tests/eval/vector_math_test.cc sweeps every case against the
// double-precision libm): within 2 ulp of the correctly rounded result for
// exp, tanh and sigmoid; erf within 2 ulp, and within 2e-7 absolute where
// |erf| < 1e-6 is not at stake. Special values follow C's: NaN propagates,
// exp(+-inf) is inf/0, erf and tanh of +-inf are +-1, -0 maps to -0, results
// below FLT_MIN come out as denormals.
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
