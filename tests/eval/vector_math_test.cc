// Tests for the vectorised float math (src/eval/util/vector_math.h) and the
// float paths of the kernels that use it (Exp, Erf, Tanh, Sigmoid, Gelu,
// Softmax, LogSoftmax, LayerNormalization). Expected values come from the
// double-precision libm and the operators' formulas evaluated in double.
#include "eval/util/vector_math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "eval/util/parallel.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using A = ir::Attribute;
using test_util::values;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// The error of `got` against the exact `ref`, in units in the last place of
// the float nearest `ref` (denormals count in units of the smallest one).
double ulp_error(float got, double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : 1e30;
  const float rf = static_cast<float>(ref);
  if (std::isinf(rf)) return got == rf ? 0 : 1e30;  // overflow must give inf
  if (std::isnan(got) || std::isinf(got)) return 1e30;
  const int e = rf == 0 ? -126 : std::max(std::ilogb(rf), -126);
  return std::fabs(static_cast<double>(got) - ref) / std::ldexp(1.0, e - 23);
}

using ArrayFn = void (*)(const float*, float*, int64_t);

struct Sweep {
  double worst = 0;
  float at = 0;
};

// Runs fn over xs (in one call, so the vector loop and its tail both run)
// and returns the largest ulp error against ref.
Sweep sweep(ArrayFn fn, const std::function<double(double)>& ref, const std::vector<float>& xs) {
  std::vector<float> ys(xs.size());
  fn(xs.data(), ys.data(), static_cast<int64_t>(xs.size()));
  Sweep s;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double e = ulp_error(ys[i], ref(xs[i]));
    if (e > s.worst) s = {e, xs[i]};
  }
  return s;
}

// Every `step`-th float bit pattern (both signs, denormals, infinities and
// NaNs included), plus every pattern within `width` of each of `centres`.
std::vector<float> float_grid(uint32_t step, std::initializer_list<float> centres,
                              uint32_t width = 4096) {
  std::vector<float> xs;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += step)
    xs.push_back(std::bit_cast<float>(static_cast<uint32_t>(b)));
  for (float c : centres)
    for (float s : {c, -c}) {
      const uint32_t mid = std::bit_cast<uint32_t>(s);
      for (uint32_t d = 0; d < 2 * width; ++d) xs.push_back(std::bit_cast<float>(mid - width + d));
    }
  return xs;
}

double sigmoid_ref(double x) { return 1 / (1 + std::exp(-x)); }

TEST(VectorMath, ExpWithinTwoUlpEverywhere) {
  // Centres: the overflow threshold, where results turn denormal, where
  // they round to 0, the range reduction's half-way points, and 1.
  const auto xs = float_grid(4099, {88.72283f, 87.33654f, 103.97208f, 0.34657359f, 1.0f, 1e-30f});
  const Sweep s = sweep(
      vmath::exp, [](double x) { return std::exp(x); }, xs);
  EXPECT_LE(s.worst, 2.0) << "at x = " << s.at;
}

TEST(VectorMath, ErfWithinThreeUlpEverywhere) {
  // Centres: the switch between the two approximations (1), where erf
  // becomes 1 in float (3.93), and small arguments.
  const auto xs = float_grid(4099, {1.0f, 3.93f, 0.5f, 2.0f, 1e-20f});
  const Sweep s = sweep(
      vmath::erf, [](double x) { return std::erf(x); }, xs);
  EXPECT_LE(s.worst, 3.0) << "at x = " << s.at;
}

TEST(VectorMath, TanhWithinTwoUlpEverywhere) {
  const auto xs = float_grid(4099, {0.625f, 9.5f, 1.0f, 1e-20f});
  const Sweep s = sweep(
      vmath::tanh, [](double x) { return std::tanh(x); }, xs);
  EXPECT_LE(s.worst, 2.0) << "at x = " << s.at;
}

TEST(VectorMath, SigmoidWithinThreeUlpEverywhere) {
  // Large negative arguments give denormal results, which are kept.
  const auto xs = float_grid(4099, {0.0f, 87.0f, 103.0f, 104.0f, 20.0f});
  const Sweep s = sweep(vmath::sigmoid, sigmoid_ref, xs);
  EXPECT_LE(s.worst, 3.0) << "at x = " << s.at;
}

TEST(VectorMath, SpecialValues) {
  const std::vector<float> xs = {kNan, kInf, -kInf, 0.0f, -0.0f, 89.0f, -104.0f, 1e-45f, -1e-45f};
  std::vector<float> y(xs.size());
  vmath::exp(xs.data(), y.data(), static_cast<int64_t>(xs.size()));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], kInf);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_EQ(y[3], 1.0f);
  EXPECT_EQ(y[4], 1.0f);
  EXPECT_EQ(y[5], kInf);  // e^89 > FLT_MAX
  EXPECT_EQ(y[6], 0.0f);  // e^-104 is below half the smallest denormal
  EXPECT_EQ(y[7], 1.0f);
  EXPECT_EQ(y[8], 1.0f);

  for (ArrayFn odd : {&vmath::erf, &vmath::tanh}) {
    odd(xs.data(), y.data(), static_cast<int64_t>(xs.size()));
    EXPECT_TRUE(std::isnan(y[0]));
    EXPECT_EQ(y[1], 1.0f);
    EXPECT_EQ(y[2], -1.0f);
    EXPECT_EQ(y[3], 0.0f);
    EXPECT_FALSE(std::signbit(y[3]));
    EXPECT_EQ(y[4], 0.0f);
    EXPECT_TRUE(std::signbit(y[4]));  // -0 stays -0
    EXPECT_EQ(y[5], 1.0f);
    EXPECT_EQ(y[6], -1.0f);
    EXPECT_GT(y[7], 0.0f);  // odd functions of denormals: the same sign, not 0
    EXPECT_LT(y[8], 0.0f);
  }

  vmath::sigmoid(xs.data(), y.data(), static_cast<int64_t>(xs.size()));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], 1.0f);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_EQ(y[3], 0.5f);
  EXPECT_EQ(y[4], 0.5f);
  EXPECT_EQ(y[5], 1.0f);
  EXPECT_EQ(y[6], 0.0f);  // e^-104 is below half the smallest denormal
  const float minus100 = -100.0f;
  float tiny = 0;
  vmath::sigmoid(&minus100, &tiny, 1);
  EXPECT_NEAR(tiny, std::exp(-100.0), 1.5e-45);  // a denormal, not flushed to 0
  EXPECT_GT(tiny, 0.0f);
}

TEST(VectorMath, InPlaceAndEveryTailLength) {
  // Lengths around the vector widths, computed in place (y == x).
  for (int64_t n = 0; n < 70; ++n) {
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = 0.25f * static_cast<float>(i) - 8.0f;
    const std::vector<float> x = v;
    vmath::exp(v.data(), v.data(), n);
    for (int64_t i = 0; i < n; ++i) EXPECT_LE(ulp_error(v[i], std::exp(double{x[i]})), 2.0);
  }
}

TEST(VectorMath, GeluBothForms) {
  std::vector<float> xs;
  for (float x = -12.0f; x <= 12.0f; x += 1.0f / 64) xs.push_back(x);
  xs.push_back(kInf);
  const int64_t n = static_cast<int64_t>(xs.size());
  std::vector<float> y(n);
  vmath::gelu_erf(xs.data(), y.data(), n);
  for (int64_t i = 0; i + 1 < n; ++i) {
    const double x = xs[i];
    const double ref = 0.5 * x * std::erfc(-x / std::sqrt(2.0));  // 1 + erf(z) = erfc(-z)
    EXPECT_NEAR(y[i], ref, 4e-7 * std::max(1.0, std::fabs(ref))) << "x = " << x;
  }
  EXPECT_EQ(y[n - 1], kInf);
  vmath::gelu_tanh(xs.data(), y.data(), n);
  for (int64_t i = 0; i + 1 < n; ++i) {
    const double x = xs[i];
    const double ref = 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    EXPECT_NEAR(y[i], ref, 4e-7 * std::max(1.0, std::fabs(ref))) << "x = " << x;
  }
  EXPECT_EQ(y[n - 1], kInf);
}

TEST(VectorMath, Reductions) {
  std::vector<float> x(37);
  double total = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>((i * 7) % 11) - 3.5f;
    total += x[i];
  }
  EXPECT_EQ(vmath::max(x.data(), 37), 6.5f);  // (i * 7) % 11 reaches 10
  EXPECT_EQ(vmath::max(x.data(), 1), -3.5f);
  EXPECT_FLOAT_EQ(vmath::sum(x.data(), 37), static_cast<float>(total));
  EXPECT_EQ(vmath::sum(x.data(), 0), 0.0f);
  x[30] = kNan;  // in the scalar tail
  EXPECT_TRUE(std::isnan(vmath::max(x.data(), 37)));
  x[30] = 0;
  x[3] = kNan;  // in the vector part
  EXPECT_TRUE(std::isnan(vmath::max(x.data(), 37)));

  float mean = 0, var = 0;
  const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  vmath::mean_variance(v.data(), 17, mean, var);
  EXPECT_FLOAT_EQ(mean, 9.0f);
  EXPECT_FLOAT_EQ(var, 24.0f);  // (17^2 - 1) / 12
}

// ---- kernels ----------------------------------------------------------------

Tensor random_floats(std::vector<int64_t> shape, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = dist(gen);
  return t;
}

TEST(VectorKernels, UnaryOperatorsMatchLibm) {
  const IntraOpThreads threads(2);  // large enough to split
  const Tensor x = random_floats({3, 40000}, -10, 10, 1);
  const float* in = x.data<float>();
  struct Case {
    const char* op;
    std::function<double(double)> ref;
    double tol;
  };
  const std::vector<Case> cases = {
      {"Exp", [](double v) { return std::exp(v); }, 2},
      {"Erf", [](double v) { return std::erf(v); }, 3},
      {"Tanh", [](double v) { return std::tanh(v); }, 2},
      {"Sigmoid", sigmoid_ref, 3},
  };
  for (const Case& c : cases) {
    const auto y = values<float>(run_op(c.op, {x}, {}, 1, 13)[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(x.numel()));
    double worst = 0;
    for (size_t i = 0; i < y.size(); ++i) worst = std::max(worst, ulp_error(y[i], c.ref(in[i])));
    EXPECT_LE(worst, c.tol) << c.op;
  }
  // double keeps its own path.
  Tensor d(DataType::kDouble, {2});
  d.data<double>()[0] = 1;
  d.data<double>()[1] = -0.5;
  EXPECT_THAT(values<double>(run_op("Erf", {d}, {}, 1, 13)[0]),
              ::testing::ElementsAre(std::erf(1.0), std::erf(-0.5)));
}

TEST(VectorKernels, GeluAttributes) {
  const Tensor x = random_floats({5, 7}, -6, 6, 2);
  const float* in = x.data<float>();
  const auto none = values<float>(run_op("Gelu", {x}, {}, 1, 20)[0]);
  const auto tanh_form =
      values<float>(run_op("Gelu", {x}, {A::make_string("approximate", "tanh")}, 1, 20)[0]);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double v = in[i];
    EXPECT_NEAR(none[i], 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))), 1e-6);
    EXPECT_NEAR(tanh_form[i],
                0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))), 1e-6);
  }
  EXPECT_THAT(test_util::error_of(
                  [&] { run_op("Gelu", {x}, {A::make_string("approximate", "fast")}, 1, 20); }),
              ::testing::HasSubstr("approximate must be \"none\" or \"tanh\""));
}

// Softmax or LogSoftmax along the last axis, in double.
std::vector<double> softmax_ref(const Tensor& x, bool log) {
  const int64_t dim = x.shape().back(), rows = x.numel() / dim;
  const float* p = x.data<float>();
  std::vector<double> out(x.numel());
  for (int64_t r = 0; r < rows; ++r) {
    double peak = -INFINITY, sum = 0;
    for (int64_t j = 0; j < dim; ++j) peak = std::max(peak, double{p[r * dim + j]});
    for (int64_t j = 0; j < dim; ++j) sum += std::exp(p[r * dim + j] - peak);
    for (int64_t j = 0; j < dim; ++j) {
      const double d = p[r * dim + j] - peak;
      out[r * dim + j] = log ? d - std::log(sum) : std::exp(d) / sum;
    }
  }
  return out;
}

TEST(VectorKernels, SoftmaxAndLogSoftmaxRows) {
  for (int threads : {1, 2}) {
    const IntraOpThreads scope(threads);
    // 197-wide rows as in a ViT's attention, enough rows to split, and a
    // row length below the vector width.
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{6, 197, 197}, {4, 3}, {1, 1}}) {
      const Tensor x = random_floats(shape, -30, 30, 3);
      for (bool log : {false, true}) {
        const auto y = values<float>(run_op(log ? "LogSoftmax" : "Softmax", {x}, {}, 1, 13)[0]);
        const auto ref = softmax_ref(x, log);
        for (size_t i = 0; i < y.size(); ++i)
          EXPECT_NEAR(y[i], ref[i], 1e-6 * std::max(1.0, std::fabs(ref[i])))
              << (log ? "LogSoftmax" : "Softmax") << " element " << i;
      }
    }
  }
  // A row holding NaN gives NaN everywhere in it, other rows unaffected.
  Tensor x(DataType::kFloat, {2, 20});
  for (int64_t i = 0; i < 40; ++i) x.data<float>()[i] = static_cast<float>(i % 20);
  x.data<float>()[5] = kNan;
  const auto y = values<float>(run_op("Softmax", {x}, {}, 1, 13)[0]);
  for (int j = 0; j < 20; ++j) EXPECT_TRUE(std::isnan(y[j]));
  double total = 0;
  for (int k = 0; k < 20; ++k) total += std::exp(-k);
  EXPECT_NEAR(y[39], 1 / total, 1e-6);
}

TEST(VectorKernels, SoftmaxAlongAnInnerAxis) {
  // [3, 5, 4] along axis 1: lines of 5 elements with stride 4.
  const Tensor x = random_floats({3, 5, 4}, -20, 20, 7);
  const auto y = values<float>(run_op("Softmax", {x}, {A::make_int("axis", 1)}, 1, 13)[0]);
  const float* p = x.data<float>();
  for (int o = 0; o < 3; ++o)
    for (int i = 0; i < 4; ++i) {
      double peak = -INFINITY, sum = 0;
      for (int j = 0; j < 5; ++j) peak = std::max(peak, double{p[(o * 5 + j) * 4 + i]});
      for (int j = 0; j < 5; ++j) sum += std::exp(p[(o * 5 + j) * 4 + i] - peak);
      for (int j = 0; j < 5; ++j) {
        const int at = (o * 5 + j) * 4 + i;
        EXPECT_NEAR(y[at], std::exp(p[at] - peak) / sum, 1e-6) << at;
      }
    }
}

TEST(VectorKernels, LayerNormalizationFloat) {
  for (int threads : {1, 2}) {
    const IntraOpThreads scope(threads);
    const Tensor x = random_floats({2, 300, 40}, -3, 5, 4);
    const Tensor scale = random_floats({40}, 0.5, 2, 5);
    const Tensor bias = random_floats({40}, -1, 1, 6);
    const auto outs =
        run_op("LayerNormalization", {x, scale, bias}, {A::make_float("epsilon", 1e-3f)}, 3, 17);
    const auto y = values<float>(outs[0]), mean = values<float>(outs[1]),
               inv = values<float>(outs[2]);
    EXPECT_EQ(outs[1].tensor().shape(), (ir::Dims{2, 300, 1}));
    const float* p = x.data<float>();
    for (int64_t r = 0; r < 600; ++r) {
      double m = 0, v = 0;
      for (int j = 0; j < 40; ++j) m += p[r * 40 + j];
      m /= 40;
      for (int j = 0; j < 40; ++j) v += (p[r * 40 + j] - m) * (p[r * 40 + j] - m);
      v /= 40;
      const double is = 1 / std::sqrt(v + 1e-3);
      EXPECT_NEAR(mean[r], m, 1e-5);
      EXPECT_NEAR(inv[r], is, 1e-5 * is);
      for (int j = 0; j < 40; ++j) {
        const double ref =
            (p[r * 40 + j] - m) * is * scale.data<float>()[j] + bias.data<float>()[j];
        EXPECT_NEAR(y[r * 40 + j], ref, 2e-5 * std::max(1.0, std::fabs(ref)));
      }
    }
  }
  // Normalising over two axes, Scale broadcast from [3] over [2, 3], no B.
  Tensor x(DataType::kFloat, {1, 2, 3});
  const float xs[] = {1, 2, 3, 4, 5, 6};
  std::copy(xs, xs + 6, x.data<float>());
  Tensor scale(DataType::kFloat, {3});
  const float ss[] = {1, 2, 3};
  std::copy(ss, ss + 3, scale.data<float>());
  const auto y =
      values<float>(run_op("LayerNormalization", {x, scale}, {A::make_int("axis", 1)}, 1, 17)[0]);
  // mean 3.5, variance 35/12; (x - 3.5) / sqrt(35/12 + 1e-5) * [1, 2, 3, 1, 2, 3].
  const double r = 1 / std::sqrt(35.0 / 12 + 1e-5);
  const double expect[] = {-2.5 * r, -1.5 * 2 * r, -0.5 * 3 * r, 0.5 * r, 1.5 * 2 * r, 2.5 * 3 * r};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(y[i], expect[i], 1e-5);
  // A Scale that does not broadcast is an error naming it.
  Tensor bad(DataType::kFloat, {2});
  EXPECT_THAT(test_util::error_of([&] {
                run_op("LayerNormalization", {x, bad}, {}, 1, 17);
              }),
              ::testing::HasSubstr("LayerNormalization: shapes [2] and [3] cannot be broadcast"));
}

}  // namespace
}  // namespace onnxscript::eval
