// Tests for the vectorised depthwise 3x3 loops (src/eval/kernels/nn/
// conv_depthwise.h) on every instruction set this CPU has, and for the
// internal FusedConv kernel against Conv followed by the activation's own
// operator, on every path of the convolution.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "eval/kernels/nn/conv_depthwise.h"
#include "eval/util/parallel.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::HasSubstr;
using A = ir::Attribute;

// Deterministic values in [-5, 5], some not small integers.
Tensor pattern(DataType dtype, std::vector<int64_t> shape, int seed) {
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = static_cast<double>((i * 7 + seed * 13) % 23) / 2.2 - 5.0;
    if (dtype == DataType::kFloat)
      t.data<float>()[i] = static_cast<float>(v);
    else if (dtype == DataType::kDouble)
      t.data<double>()[i] = v;
    else
      t.data<float16>()[i] = static_cast<float16>(static_cast<float>(v));
  }
  return t;
}

// The definition of a depthwise 3x3 convolution of one plane, evaluated
// directly, plus an activation given as a plain function.
template <typename Act>
std::vector<float> reference_plane(const float* x, const float* w, float bias, const DwGeometry& g,
                                   Act act) {
  std::vector<float> y(static_cast<size_t>(g.out_h * g.out_w));
  for (int64_t i = 0; i < g.out_h; ++i)
    for (int64_t j = 0; j < g.out_w; ++j) {
      double sum = bias;
      for (int64_t p = 0; p < 3; ++p)
        for (int64_t q = 0; q < 3; ++q) {
          const int64_t r = i * g.stride - g.pad_top + p, s = j * g.stride - g.pad_left + q;
          if (r >= 0 && r < g.height && s >= 0 && s < g.width)
            sum += static_cast<double>(w[p * 3 + q]) * x[r * g.width + s];
        }
      y[i * g.out_w + j] = act(static_cast<float>(sum));
    }
  return y;
}

using DwRun = void (*)(const float*, const float*, const float*, float*, int64_t, int64_t, int64_t,
                       const DwGeometry&, const ConvActivation&, float*);

// The instruction sets this CPU can run, by name.
std::vector<std::pair<std::string, DwRun>> instruction_sets() {
  std::vector<std::pair<std::string, DwRun>> sets{{"sse2", &dw_sse2::run}};
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    sets.emplace_back("avx2", &dw_avx2::run);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
    sets.emplace_back("avx512", &dw_avx512::run);
  return sets;
}

// Every width from 1 to 37 (partial vectors of each vector type, rows
// narrower than the padding) and some wide rows, strides 1 and 2, several paddings
// including asymmetric and none, with and without an activation in registers and one applied per
// row.
TEST(DepthwiseThreeByThree, MatchesTheDefinitionOnEveryInstructionSet) {
  struct Pads {
    int64_t top, left, bottom, right;
  };
  const Pads paddings[] = {{1, 1, 1, 1}, {0, 0, 0, 0}, {2, 1, 0, 2}, {0, 1, 1, 0}};
  ConvActivation relu, clip, leaky, sigmoid;
  relu.kind = ConvActivation::Kind::kRelu;
  clip.kind = ConvActivation::Kind::kClip;
  clip.a = -1.5f;
  clip.b = 2.0f;
  leaky.kind = ConvActivation::Kind::kLeakyRelu;
  leaky.a = 0.25f;
  sigmoid.kind = ConvActivation::Kind::kSigmoid;
  const std::pair<ConvActivation, float (*)(float)> acts[] = {
      {ConvActivation{}, [](float v) { return v; }},
      {relu, [](float v) { return v < 0 ? 0.0f : v; }},
      {clip, [](float v) { return std::min(2.0f, std::max(-1.5f, v)); }},
      {leaky, [](float v) { return v < 0 ? 0.25f * v : v; }},
      {sigmoid, [](float v) { return 1.0f / (1.0f + std::exp(-v)); }},
  };
  // Narrow rows (partial vectors of each width, rows narrower than the
  // padding) and wide ones (many whole vectors, at both strides).
  std::vector<int64_t> widths;
  for (int64_t width = 1; width <= 37; ++width) widths.push_back(width);
  for (int64_t width : {63, 64, 65, 66, 67, 100, 127, 128, 129, 130, 131, 133})
    widths.push_back(width);
  const int64_t channels = 3, planes = 6;
  for (const auto& [isa, run] : instruction_sets())
    for (int64_t width : widths)
      for (int64_t height : {1, 4})
        for (int64_t stride : {1, 2})
          for (const Pads& pads : paddings)
            for (size_t a = 0; a < std::size(acts); ++a) {
              DwGeometry g;
              g.height = height;
              g.width = width;
              g.stride = stride;
              g.pad_top = pads.top;
              g.pad_left = pads.left;
              g.pad_bottom = pads.bottom;
              g.pad_right = pads.right;
              const int64_t span_h = height + pads.top + pads.bottom - 3;
              const int64_t span_w = width + pads.left + pads.right - 3;
              if (span_h < 0 || span_w < 0) continue;  // the window does not fit
              g.out_h = span_h / stride + 1;
              g.out_w = span_w / stride + 1;
              std::vector<float> x(static_cast<size_t>(planes * height * width));
              for (size_t i = 0; i < x.size(); ++i)
                x[i] = static_cast<float>((i * 5 + width) % 17) * 0.5f - 4.0f;
              std::vector<float> w(static_cast<size_t>(channels * 9)), bias{0.5f, -1.0f, 2.0f};
              for (size_t i = 0; i < w.size(); ++i)
                w[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
              std::vector<float> y(static_cast<size_t>(planes * g.out_h * g.out_w), -99.0f);
              std::vector<float> scratch(static_cast<size_t>(g.scratch_size()));
              // Two calls, as two threads would make them: planes [0, 2) and [2, 6).
              run(x.data(), w.data(), bias.data(), y.data(), channels, 0, 2, g, acts[a].first,
                  scratch.data());
              run(x.data(), w.data(), bias.data(), y.data(), channels, 2, planes, g, acts[a].first,
                  scratch.data());
              for (int64_t p = 0; p < planes; ++p) {
                const int64_t ch = p % channels;
                const std::vector<float> expected = reference_plane(
                    x.data() + p * height * width, w.data() + ch * 9, bias[ch], g, acts[a].second);
                for (size_t i = 0; i < expected.size(); ++i)
                  ASSERT_NEAR(y[p * g.out_h * g.out_w + i], expected[i], 1e-4)
                      << isa << " width " << width << " height " << height << " stride " << stride
                      << " pads " << pads.top << pads.left << pads.bottom << pads.right
                      << " activation " << a << " plane " << p << " element " << i;
              }
            }
}

// Conv then the activation's own operator, the result FusedConv must give.
std::vector<RuntimeValue> conv_then(const std::string& activation, const std::vector<float>& params,
                                    std::vector<RuntimeValue> inputs, std::vector<A> attrs) {
  RuntimeValue y = run_op("Conv", std::span<const RuntimeValue>(inputs), attrs, 1, 17)[0];
  const DataType dtype = y.tensor().dtype();
  auto scalar = [&](float v) {
    Tensor t(dtype, std::vector<int64_t>{});
    if (dtype == DataType::kFloat)
      t.data<float>()[0] = v;
    else if (dtype == DataType::kDouble)
      t.data<double>()[0] = v;
    else
      t.data<float16>()[0] = static_cast<float16>(v);
    return RuntimeValue(t);
  };
  if (activation == "Clip") {
    std::vector<RuntimeValue> in{y, scalar(params.at(0)), scalar(params.at(1))};
    return run_op("Clip", std::span<const RuntimeValue>(in), {}, 1, 13);
  }
  std::vector<A> act_attrs;
  if (activation == "LeakyRelu") act_attrs.push_back(A::make_float("alpha", params.at(0)));
  if (activation == "HardSigmoid") {
    act_attrs.push_back(A::make_float("alpha", params.at(0)));
    act_attrs.push_back(A::make_float("beta", params.at(1)));
  }
  std::vector<RuntimeValue> in{y};
  return run_op(activation, std::span<const RuntimeValue>(in), act_attrs, 1, 14);
}

std::vector<RuntimeValue> fused(const std::string& activation, const std::vector<float>& params,
                                std::vector<RuntimeValue> inputs, std::vector<A> attrs) {
  attrs.push_back(A::make_string("activation", activation));
  if (!params.empty()) attrs.push_back(A::make_floats("activation_params", params));
  return run_op("FusedConv", std::span<const RuntimeValue>(inputs), attrs, 1, 1,
                "onnxscript.internal");
}

void expect_close(const Tensor& got, const Tensor& want, double tol, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape().to_vector(), want.shape().to_vector()) << what;
  for (int64_t i = 0; i < got.numel(); ++i) {
    double g, w;
    if (got.dtype() == DataType::kFloat) {
      g = got.data<float>()[i];
      w = want.data<float>()[i];
    } else if (got.dtype() == DataType::kDouble) {
      g = got.data<double>()[i];
      w = want.data<double>()[i];
    } else {
      g = static_cast<float>(got.data<float16>()[i]);
      w = static_cast<float>(want.data<float16>()[i]);
    }
    ASSERT_NEAR(g, w, tol * (1 + std::fabs(w))) << what << " element " << i;
  }
}

// Each path of the convolution (depthwise 3x3 at strides 1 and 2, the other
// depthwise loop, the direct 1x1 GEMM, 2-D im2col, grouped, N-d im2col,
// double and float16) with each activation, at one and two threads.
TEST(FusedConv, MatchesConvFollowedByTheActivation) {
  struct Case {
    const char* path;
    DataType dtype;
    std::vector<int64_t> x, w;
    std::vector<A> attrs;
  };
  const std::vector<Case> cases = {
      {"depthwise 3x3",
       DataType::kFloat,
       {2, 4, 9, 11},
       {4, 1, 3, 3},
       {A::make_int("group", 4), A::make_ints("pads", {1, 1, 1, 1})}},
      {"depthwise 3x3 stride 2",
       DataType::kFloat,
       {1, 4, 10, 19},
       {4, 1, 3, 3},
       {A::make_int("group", 4), A::make_ints("pads", {1, 1, 1, 1}),
        A::make_ints("strides", {2, 2})}},
      {"depthwise 5x5",
       DataType::kFloat,
       {1, 3, 8, 8},
       {3, 1, 5, 5},
       {A::make_int("group", 3), A::make_ints("pads", {2, 2, 2, 2})}},
      {"1x1", DataType::kFloat, {2, 6, 5, 7}, {5, 6, 1, 1}, {}},
      {"im2col 3x3",
       DataType::kFloat,
       {1, 3, 9, 8},
       {4, 3, 3, 3},
       {A::make_ints("pads", {1, 0, 1, 2}), A::make_ints("strides", {1, 2})}},
      {"grouped", DataType::kFloat, {1, 4, 6, 6}, {6, 2, 3, 3}, {A::make_int("group", 2)}},
      {"1-d", DataType::kFloat, {1, 2, 17}, {3, 2, 4}, {A::make_ints("pads", {1, 2})}},
      {"3-d", DataType::kFloat, {1, 2, 4, 5, 3}, {2, 2, 2, 3, 2}, {}},
      {"double depthwise 3x3",
       DataType::kDouble,
       {1, 3, 7, 7},
       {3, 1, 3, 3},
       {A::make_int("group", 3), A::make_ints("pads", {1, 1, 1, 1})}},
      {"float16", DataType::kFloat16, {1, 2, 5, 5}, {3, 2, 3, 3}, {}},
  };
  const std::vector<std::pair<std::string, std::vector<float>>> activations = {
      {"Relu", {}}, {"Clip", {-2.5f, 3.0f}},       {"LeakyRelu", {0.3f}}, {"Sigmoid", {}},
      {"Tanh", {}}, {"HardSigmoid", {0.1f, 0.4f}}, {"HardSwish", {}},
  };
  for (int threads : {1, 2}) {
    IntraOpThreads scope(threads);
    for (const Case& c : cases)
      for (const auto& [activation, params] : activations) {
        if (c.dtype == DataType::kFloat16 && activation != "Relu") continue;
        const int64_t m = c.w[0];
        std::vector<RuntimeValue> inputs{pattern(c.dtype, c.x, 1), pattern(c.dtype, c.w, 2),
                                         pattern(c.dtype, {m}, 3)};
        const Tensor want = conv_then(activation, params, inputs, c.attrs)[0].tensor();
        const Tensor got = fused(activation, params, inputs, c.attrs)[0].tensor();
        const double tol = c.dtype == DataType::kFloat16 ? 1e-2 : 1e-5;
        expect_close(
            got, want, tol,
            std::string(c.path) + " " + activation + " threads " + std::to_string(threads));
        // Without the bias too.
        inputs.pop_back();
        expect_close(fused(activation, params, inputs, c.attrs)[0].tensor(),
                     conv_then(activation, params, inputs, c.attrs)[0].tensor(), tol,
                     std::string(c.path) + " " + activation + " without bias");
      }
  }
}

// Clip's bounds default to none, LeakyRelu's alpha to 0.01, as the
// operators' own defaults; worked out by hand on a 1x1 identity kernel.
TEST(FusedConv, ActivationDefaultsAndNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = Tensor::from<float>({-300, -1, 2, nan}, {1, 1, 2, 2});
  const Tensor w = Tensor::from<float>({1}, {1, 1, 1, 1});
  auto clip = test_util::values<float>(fused("Clip", {}, {x, w}, {})[0]);
  EXPECT_EQ(clip[0], -300);
  EXPECT_EQ(clip[2], 2);
  EXPECT_TRUE(std::isnan(clip[3]));
  auto leaky = test_util::values<float>(fused("LeakyRelu", {}, {x, w}, {})[0]);
  EXPECT_FLOAT_EQ(leaky[0], -3);
  EXPECT_FLOAT_EQ(leaky[1], -0.01f);
  EXPECT_EQ(leaky[2], 2);
  auto relu = test_util::values<float>(fused("Relu", {}, {x, w}, {})[0]);
  EXPECT_EQ(relu[0], 0);
  EXPECT_EQ(relu[2], 2);
  EXPECT_TRUE(std::isnan(relu[3]));
}

TEST(FusedConv, BadAttributesFailClearly) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  const Tensor w = Tensor::from<float>({1}, {1, 1, 1, 1});
  auto message = [&](std::vector<A> attrs) {
    const std::vector<RuntimeValue> inputs{x, w};
    return test_util::error_of([&] {
      run_op("FusedConv", std::span<const RuntimeValue>(inputs), attrs, 1, 1,
             "onnxscript.internal");
    });
  };
  EXPECT_THAT(message({}), HasSubstr("FusedConv: attribute 'activation' is required"));
  EXPECT_THAT(message({A::make_string("activation", "Gelu")}),
              HasSubstr("FusedConv: unknown activation 'Gelu'"));
  EXPECT_THAT(
      message({A::make_string("activation", "Relu"), A::make_floats("activation_params", {1})}),
      HasSubstr("activation Relu takes at most 0 activation_params, not 1"));
  EXPECT_THAT(message({A::make_string("activation", "Clip"),
                       A::make_floats("activation_params", {1, 2, 3})}),
              HasSubstr("activation Clip takes at most 2 activation_params, not 3"));
}

}  // namespace
}  // namespace onnxscript::eval
