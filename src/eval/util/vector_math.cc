#include "eval/util/vector_math.h"

#include <bit>
#include <cstring>
#include <limits>

// One clone per x86-64 level with the widest vectors that level has; the
// dynamic loader's ifunc resolver picks one per function. Elsewhere (other
// architectures, Clang, which names the levels differently) the functions
// compile once for the build's target.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define VMATH_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VMATH_CLONES
#endif
#define VMATH_INLINE inline __attribute__((always_inline))

namespace onnxscript::eval::vmath {
namespace {

// The polynomial coefficients below were fitted for this file (weighted
// least squares iterated toward minimax relative error, in double, then
// rounded to float and re-checked); each comment gives the fit's range and
// its relative error with the float coefficients.

VMATH_INLINE float bits_to_float(uint32_t b) { return std::bit_cast<float>(b); }
VMATH_INLINE uint32_t float_to_bits(float f) { return std::bit_cast<uint32_t>(f); }

// |x| with x's sign bit cleared, and `magnitude` given the sign of `sign`.
VMATH_INLINE float abs_of(float x) { return bits_to_float(float_to_bits(x) & 0x7fffffffu); }
VMATH_INLINE float with_sign_of(float magnitude, float sign) {
  return bits_to_float(float_to_bits(magnitude) | (float_to_bits(sign) & 0x80000000u));
}

// e^x for x already known to be in [-104, 89] (no NaN): x = n ln2 + r with
// |r| <= ln2 / 2, e^r by a degree-6 polynomial, then scaled by 2^n in two
// halves so that results down to the smallest denormal (n = -150) and up to
// overflow (n = 128) need no special case: the first product is exact, the
// second rounds once.
VMATH_INLINE float exp_core(float x) {
  constexpr float kLog2e = 0x1.715476p+0f;
  constexpr float kLn2Hi = 0x1.62e400p-1f;   // ln 2's leading bits: n * kLn2Hi is exact
  constexpr float kLn2Lo = 0x1.7f7d1cp-20f;  // ln 2 - kLn2Hi
  constexpr float kRound = 0x1.8p23f;        // adding it rounds to an integer in the low bits
  const float t = x * kLog2e + kRound;
  const float nf = t - kRound;
  const int32_t n = static_cast<int32_t>(float_to_bits(t) - float_to_bits(kRound));
  float r = x - nf * kLn2Hi;
  r = r - nf * kLn2Lo;
  // [-ln2/2, ln2/2], relative error 1.7e-8.
  float p = 0x1.6ab966p-10f;
  p = p * r + 0x1.126d0cp-7f;
  p = p * r + 0x1.55589ap-5f;
  p = p * r + 0x1.55540ap-3f;
  p = p * r + 0x1.fffffap-2f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int32_t n1 = n >> 1, n2 = n - n1;  // both in [-75, 64]
  const float s1 = bits_to_float(static_cast<uint32_t>(n1 + 127) << 23);
  const float s2 = bits_to_float(static_cast<uint32_t>(n2 + 127) << 23);
  return p * s1 * s2;
}

VMATH_INLINE float exp_one(float x) {
  // Below -104 the result rounds to 0, above 89 it overflows to inf; the
  // clamp keeps n in the range exp_core's scaling handles. NaN passes.
  const float c = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  const float y = exp_core(c);
  return x != x ? x : y;
}

// 1 - erf(a) for a in [1, 3.93] as e^(-a^2) R(a), R smooth in 1/a.
VMATH_INLINE float erfc_mid(float a) {
  const float u = 1.0f / a - 0.65f;
  // R(a) = erfc(a) e^(a^2) as a polynomial in 1/a - 0.65 on a in [1, 3.93],
  // relative error 7e-8.
  float q = -0x1.57e3ccp-7f;
  q = q * u - 0x1.586d24p-6f;
  q = q * u + 0x1.592dc4p-5f;
  q = q * u - 0x1.51423ap-5f;
  q = q * u + 0x1.20add4p-6f;
  q = q * u + 0x1.777046p-5f;
  q = q * u - 0x1.5a2a98p-3f;
  q = q * u + 0x1.7eb7a4p-2f;
  q = q * u + 0x1.42f902p-2f;
  return exp_core(-(a * a)) * q;
}

// erf(x) / x as a polynomial in x^2 for |x| < 1, relative error 5.4e-8.
VMATH_INLINE float erf_small_ratio(float u) {
  float p = -0x1.273f82p-11f;
  p = p * u + 0x1.4246c6p-8f;
  p = p * u - 0x1.b5a35ap-6f;
  p = p * u + 0x1.ce0942p-4f;
  p = p * u - 0x1.812674p-2f;
  p = p * u + 0x1.20dd74p+0f;
  return p;
}

// erf(x) is 1 in float from here on (erfc < 2^-25).
constexpr float kErfOne = 3.93f;

VMATH_INLINE float erf_one(float x) {
  const float ax = abs_of(x);
  const float small = x * erf_small_ratio(x * x);
  const float a = ax < 1.0f ? 1.0f : (ax > kErfOne ? kErfOne : ax);
  const float big = ax >= kErfOne ? 1.0f : 1.0f - erfc_mid(a);
  const float y = ax < 1.0f ? small : with_sign_of(big, x);
  return x != x ? x : y;
}

// 1 + erf(z), without the cancellation of adding -1 + small for z <= -1.
VMATH_INLINE float one_plus_erf(float z) {
  const float az = abs_of(z);
  const float small = 1.0f + z * erf_small_ratio(z * z);
  const float a = az < 1.0f ? 1.0f : (az > kErfOne ? kErfOne : az);
  const float tail = az >= kErfOne ? 0.0f : erfc_mid(a);
  const float big = z > 0.0f ? 2.0f - tail : tail;
  const float y = az < 1.0f ? small : big;
  return z != z ? z : y;
}

// tanh(x) / x as a polynomial in x^2 for |x| < 0.625, relative error 1.1e-8.
constexpr float kTanhSmall = 0.625f;
VMATH_INLINE float tanh_one(float x) {
  const float ax = abs_of(x);
  const float u = x * x;
  float p = -0x1.72ee96p-8f;
  p = p * u + 0x1.515ccep-6f;
  p = p * u - 0x1.b8153cp-5f;
  p = p * u + 0x1.110580p-3f;
  p = p * u - 0x1.555524p-2f;
  p = p * u + 1.0f;
  const float small = x * p;
  // tanh(a) = 1 - 2 / (e^(2a) + 1); past 9.5 it is 1 in float.
  const float a = ax > 9.5f ? 9.5f : ax;
  const float big = 1.0f - 2.0f / (exp_core(2.0f * a) + 1.0f);
  const float y = ax < kTanhSmall ? small : with_sign_of(big, x);
  return x != x ? x : y;
}

VMATH_INLINE float sigmoid_one(float x) {
  // e = e^-|x| never overflows; for negative x, e / (1 + e) keeps the tiny
  // results (down to denormals) that 1 / (1 + e^-x) would flush to 0.
  const float ax = abs_of(x);
  const float e = exp_core(ax > 104.0f ? -104.0f : -ax);
  const float d = 1.0f / (1.0f + e);
  const float y = x >= 0.0f ? d : e * d;
  return x != x ? x : y;
}

// ---- reductions over 16-float vectors (GCC vector extensions) ---------------

typedef float V16 __attribute__((vector_size(64)));
typedef int32_t I16 __attribute__((vector_size(64)));

// By reference: a 64-byte vector passed by value would change the ABI
// between the clones (GCC's -Wpsabi).
VMATH_INLINE void load16(V16& v, const float* p) { std::memcpy(&v, p, sizeof v); }
VMATH_INLINE float lanes_sum(const V16& v) {
  float s = 0;
  for (int i = 0; i < 16; ++i) s += v[i];
  return s;
}

}  // namespace

VMATH_CLONES void exp(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = exp_one(x[i]);
}

VMATH_CLONES void erf(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = erf_one(x[i]);
}

VMATH_CLONES void tanh(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = tanh_one(x[i]);
}

VMATH_CLONES void sigmoid(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = sigmoid_one(x[i]);
}

VMATH_CLONES void gelu_erf(const float* x, float* y, int64_t n) {
  constexpr float kSqrtHalf = 0x1.6a09e6p-1f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 0.5f * v * one_plus_erf(v * kSqrtHalf);
  }
}

VMATH_CLONES void gelu_tanh(const float* x, float* y, int64_t n) {
  // 1 + tanh(z) = 2 sigmoid(2z), so y = x * sigmoid(2z): one exponential
  // and no cancellation for negative z.
  constexpr float kTwoSqrt2OverPi = 2.0f * 0x1.988454p-1f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float z2 = kTwoSqrt2OverPi * (v + 0.044715f * v * v * v);
    y[i] = v * sigmoid_one(z2);
  }
}

VMATH_CLONES float max(const float* x, int64_t n) {
  int64_t i = 0;
  float m = x[0];
  bool nan = false;
  if (n >= 16) {
    V16 acc;
    load16(acc, x);
    I16 bad = acc != acc;
    for (i = 16; i + 16 <= n; i += 16) {
      V16 v;
      load16(v, x + i);
      acc = v > acc ? v : acc;
      bad |= v != v;
    }
    m = acc[0];
    for (int l = 0; l < 16; ++l) {
      m = acc[l] > m ? acc[l] : m;
      nan = nan || bad[l] != 0;
    }
  }
  for (; i < n; ++i) {
    m = x[i] > m ? x[i] : m;
    nan = nan || x[i] != x[i];
  }
  return nan ? std::numeric_limits<float>::quiet_NaN() : m;
}

VMATH_CLONES float sum(const float* x, int64_t n) {
  V16 acc = {};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    V16 v;
    load16(v, x + i);
    acc += v;
  }
  float s = lanes_sum(acc);
  for (; i < n; ++i) s += x[i];
  return s;
}

VMATH_CLONES float exp_shifted_sum(const float* x, float* y, int64_t n, float shift) {
  for (int64_t i = 0; i < n; ++i) y[i] = exp_one(x[i] - shift);
  return sum(y, n);
}

VMATH_CLONES void scale(float* y, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) y[i] *= s;
}

VMATH_CLONES void subtract(const float* x, float* y, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] - s;
}

VMATH_CLONES void mean_variance(const float* x, int64_t n, float& mean, float& variance) {
  const float mu = sum(x, n) / static_cast<float>(n);
  int64_t i = 0;
  // The second pass over the deviations: no cancellation of E[x^2] - mean^2.
  V16 sq = {};
  for (i = 0; i + 16 <= n; i += 16) {
    V16 d;
    load16(d, x + i);
    d -= mu;
    sq += d * d;
  }
  float q = lanes_sum(sq);
  for (; i < n; ++i) q += (x[i] - mu) * (x[i] - mu);
  mean = mu;
  variance = q / static_cast<float>(n);
}

VMATH_CLONES void normalize_row(const float* x, float* y, int64_t n, float mean, float inv_std,
                                const float* scale, const float* bias) {
  if (bias) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * inv_std * scale[i] + bias[i];
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * inv_std * scale[i];
  }
}

}  // namespace onnxscript::eval::vmath
