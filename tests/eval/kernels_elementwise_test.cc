// Element-wise kernels: arithmetic, broadcasting, integer edge cases, NaN
// handling, activations, comparisons and logic. Expected values are worked
// out by hand from the ONNX operator definitions.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "eval/util/broadcast.h"
#include "eval/util/parallel.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;
using Shape = std::vector<int64_t>;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Runs `op` at `version` with tensor inputs (an undefined tensor is an
// omitted input) and returns output 0.
Tensor run1(std::string_view op, std::initializer_list<Tensor> inputs,
            std::initializer_list<Attribute> attrs = {}, int64_t version = 17) {
  std::vector<RuntimeValue> in;
  for (const Tensor& t : inputs) in.push_back(t.defined() ? RuntimeValue(t) : RuntimeValue());
  std::vector<Attribute> at(attrs.begin(), attrs.end());
  return run_op(op, in, at, 1, version)[0].tensor();
}

template <typename T>
std::vector<T> values(const Tensor& t) {
  EXPECT_EQ(t.dtype(), ir::data_type_of<T>());
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

// Floats compared with a relative tolerance; NaN matches NaN.
void expect_near(const Tensor& t, std::vector<double> expected, double rtol = 1e-6) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    double v = 0;
    switch (t.dtype()) {
      case DataType::kFloat:
        v = t.data<float>()[i];
        break;
      case DataType::kDouble:
        v = t.data<double>()[i];
        break;
      case DataType::kFloat16:
        v = static_cast<float>(t.data<float16>()[i]);
        break;
      case DataType::kBfloat16:
        v = static_cast<float>(t.data<bfloat16>()[i]);
        break;
      default:
        FAIL() << "not a float tensor";
    }
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(v)) << "element " << i << " is " << v;
    } else if (std::isinf(expected[i])) {
      EXPECT_EQ(v, expected[i]) << "element " << i;
    } else {
      EXPECT_NEAR(v, expected[i], rtol * std::fabs(expected[i]) + 1e-12) << "element " << i;
    }
  }
}

using test_util::error_of;

Tensor f32(std::initializer_list<float> v, Shape shape = {-1}) {
  return Tensor::from<float>(v, shape);
}
Tensor i32(std::initializer_list<int32_t> v, Shape shape = {-1}) {
  return Tensor::from<int32_t>(v, shape);
}
Tensor boolean(std::initializer_list<bool> v, Shape shape = {-1}) {
  return Tensor::from<bool>(v, shape);
}

// ---------------------------------------------------------------- broadcasting

TEST(Broadcast, ShapesAlignFromTheRight) {
  std::vector<int64_t> out;
  EXPECT_TRUE(try_broadcast_shape(Shape{2, 1, 4}, Shape{3, 1}, out));
  EXPECT_EQ(out, (Shape{2, 3, 4}));
  EXPECT_TRUE(try_broadcast_shape(Shape{}, Shape{5}, out));
  EXPECT_EQ(out, (Shape{5}));
  EXPECT_TRUE(try_broadcast_shape(Shape{0, 1}, Shape{1, 3}, out));
  EXPECT_EQ(out, (Shape{0, 3}));
  EXPECT_FALSE(try_broadcast_shape(Shape{2, 3}, Shape{4}, out));
  EXPECT_FALSE(try_broadcast_shape(Shape{2, 0}, Shape{2, 3}, out));
  EXPECT_TRUE(broadcasts_to(Shape{3, 1}, Shape{2, 3, 4}));
  EXPECT_FALSE(broadcasts_to(Shape{2, 3, 4}, Shape{3, 4}));
}

TEST(Broadcast, PlanCollapsesDimensions) {
  // Same shapes: one run over everything.
  BroadcastPlan same = make_broadcast_plan(Shape{2, 3, 4}, {Shape{2, 3, 4}, Shape{2, 3, 4}});
  EXPECT_EQ(same.dims, (Shape{24}));
  EXPECT_EQ(same.inner_stride(0), 1);
  // A row vector against a matrix: rows of 4, the vector re-read per row.
  BroadcastPlan row = make_broadcast_plan(Shape{2, 3, 4}, {Shape{2, 3, 4}, Shape{4}});
  EXPECT_EQ(row.dims, (Shape{6, 4}));
  EXPECT_EQ(row.strides, (Shape{4, 0, 1, 1}));
  // A scalar: one run with stride 0.
  BroadcastPlan scalar = make_broadcast_plan(Shape{5}, {Shape{5}, Shape{}});
  EXPECT_EQ(scalar.dims, (Shape{5}));
  EXPECT_EQ(scalar.inner_stride(1), 0);
  int runs = 0;
  for_each_broadcast_run(row, [&](int64_t out, const int64_t* in, int64_t n) {
    EXPECT_EQ(out, runs * 4);
    EXPECT_EQ(in[0], runs * 4);
    EXPECT_EQ(in[1], 0);
    EXPECT_EQ(n, 4);
    ++runs;
  });
  EXPECT_EQ(runs, 6);
}

TEST(Broadcast, ErrorsNameTheOperatorAndShapes) {
  EXPECT_EQ(error_of([] {
              run1("Add", {f32({1, 2, 3, 4, 5, 6}, {2, 3}), f32({1, 2, 3, 4}, {4})});
            }),
            "Add: cannot broadcast shapes [2,3] and [4]");
  EXPECT_EQ(error_of([] {
              run1("Sum", {f32({1, 2}), f32({1, 2, 3})});
            }),
            "Sum: cannot broadcast shapes [2], [3]");
}

// ---------------------------------------------------------------- arithmetic

TEST(Add, SameShapeScalarAndBroadcast) {
  Tensor a = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = f32({10, 20, 30}, {3});
  Tensor c = f32({100, 200}, {2, 1});
  EXPECT_EQ(values<float>(run1("Add", {a, a})), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  Tensor r = run1("Add", {a, b});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(values<float>(r), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  EXPECT_EQ(values<float>(run1("Add", {a, c})), (std::vector<float>{101, 102, 103, 204, 205, 206}));
  // [2,1] + [3] -> [2,3]: both operands stretch.
  Tensor r2 = run1("Add", {c, b});
  EXPECT_EQ(r2.shape(), (Shape{2, 3}));
  EXPECT_EQ(values<float>(r2), (std::vector<float>{110, 120, 130, 210, 220, 230}));
  Tensor s = Tensor::scalar<float>(0.5f);
  EXPECT_EQ(values<float>(run1("Add", {s, a})), (std::vector<float>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  EXPECT_EQ(run1("Add", {s, s}).shape(), Shape{});
  // A [1] operand against a scalar keeps rank 1.
  EXPECT_EQ(run1("Add", {s, f32({1})}).shape(), Shape{1});
  // Empty broadcast: [0,1] + [1,3] -> [0,3].
  EXPECT_EQ(
      run1("Add", {Tensor(DataType::kFloat, {0, 1}), Tensor(DataType::kFloat, {1, 3})}).shape(),
      (Shape{0, 3}));
}

TEST(Add, ThreeDimensionalBroadcastMatchesIndexArithmetic) {
  // a[i,0,k] + b[j,1]: out[i,j,k] = a[i,k] + b[j], checked against loops.
  std::vector<float> av(2 * 4), bv(3);
  for (size_t i = 0; i < av.size(); ++i) av[i] = static_cast<float>(i);
  for (size_t j = 0; j < bv.size(); ++j) bv[j] = 100.0f * static_cast<float>(j + 1);
  Tensor a = Tensor::from_span<float>(av, {2, 1, 4});
  Tensor b = Tensor::from_span<float>(bv, {3, 1});
  Tensor r = run1("Add", {a, b});
  ASSERT_EQ(r.shape(), (Shape{2, 3, 4}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(r.data<float>()[(i * 3 + j) * 4 + k], av[i * 4 + k] + bv[j]);
}

// Sub (not commutative, so operand order matters) against a naive
// multi-index evaluation, over shape pairs that exercise every loop variant.
TEST(Sub, GeneralBroadcastMatchesNaiveIndexing) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{2, 1, 3}, {1, 4, 1}},
      {{4, 1}, {4, 5}},
      {{1}, {3, 2}},
      {{2, 3, 1, 5}, {3, 4, 1}},
      {{5, 1, 1}, {1, 1, 6}},
      {{1, 1, 7}, {2, 7}},
      {{3, 1, 2, 1}, {1, 2, 1, 2}},
      // An operand repeating along the leading axes, on either side, large
      // enough to be split over two threads.
      {{4, 300, 64}, {300, 64}},
      {{64}, {2, 600, 64}},
      {{1, 1, 64}, {3, 500, 64}}};
  const IntraOpThreads two(2);
  for (const auto& [sa, sb] : cases) {
    std::vector<int64_t> so;
    ASSERT_TRUE(try_broadcast_shape(sa, sb, so));
    auto fill = [](const Shape& s, float base) {
      Tensor t(DataType::kFloat, s);
      for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = base + static_cast<float>(i);
      return t;
    };
    Tensor a = fill(sa, 0), b = fill(sb, 1000);
    Tensor r = run1("Sub", {a, b});
    ASSERT_EQ(r.shape(), so);
    // Offset of output position `flat` in a tensor of shape `s` broadcast to `so`.
    auto offset = [&](const Shape& s, int64_t flat) {
      int64_t off = 0, stride = 1;
      for (size_t d = so.size(); d-- > 0;) {
        const int64_t idx = flat % so[d];
        flat /= so[d];
        const size_t shift = so.size() - s.size();
        if (d >= shift) {
          const int64_t dim = s[d - shift];
          off += (dim == 1 ? 0 : idx) * stride;
          stride *= dim;
        }
      }
      return off;
    };
    for (int64_t i = 0; i < r.numel(); ++i) {
      ASSERT_EQ(r.data<float>()[i], a.data<float>()[offset(sa, i)] - b.data<float>()[offset(sb, i)])
          << "element " << i;
    }
  }
}

TEST(Add, IntegersWrapOnOverflow) {
  const int32_t max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(values<int32_t>(run1("Add", {i32({max, -5}), i32({1, 3})})),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -2}));
  Tensor u8 = Tensor::from<uint8_t>({250, 3});
  EXPECT_EQ(values<uint8_t>(run1("Add", {u8, Tensor::from<uint8_t>({10, 4})})),
            (std::vector<uint8_t>{4, 7}));
  EXPECT_EQ(values<int8_t>(run1("Sub", {Tensor::from<int8_t>({-128}), Tensor::from<int8_t>({1})})),
            (std::vector<int8_t>{127}));
  // 65535 * 65535 overflows int after promotion; must wrap to 1 mod 2^16.
  EXPECT_EQ(values<uint16_t>(
                run1("Mul", {Tensor::from<uint16_t>({65535}), Tensor::from<uint16_t>({65535})})),
            (std::vector<uint16_t>{1}));
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(
      values<int64_t>(run1("Mul", {Tensor::from<int64_t>({big}), Tensor::from<int64_t>({2})})),
      (std::vector<int64_t>{-2}));
}

TEST(Add, Float16ComputesInFloatAndRoundsOnce) {
  // 2048 + 1 is not representable in float16 (spacing 2 there): ties to even
  // gives 2048; 2048 + 3 = 2051 rounds to 2052.
  Tensor a = Tensor::from<float16>({float16(2048.0f), float16(2048.0f)});
  Tensor b = Tensor::from<float16>({float16(1.0f), float16(3.0f)});
  Tensor r = run1("Add", {a, b});
  EXPECT_EQ(static_cast<float>(r.data<float16>()[0]), 2048.0f);
  EXPECT_EQ(static_cast<float>(r.data<float16>()[1]), 2052.0f);
  Tensor h = Tensor::from<bfloat16>({bfloat16(1.0f)});
  EXPECT_EQ(static_cast<float>(
                run1("Mul", {h, Tensor::from<bfloat16>({bfloat16(3.0f)})}).data<bfloat16>()[0]),
            3.0f);
  // Overflow in float16 gives inf.
  Tensor big = Tensor::from<float16>({float16(60000.0f)});
  EXPECT_TRUE(std::isinf(static_cast<float>(run1("Add", {big, big}).data<float16>()[0])));
}

TEST(Div, IntegerDivisionTruncatesAndDivisionByZeroIsZero) {
  EXPECT_EQ(values<int32_t>(run1("Div", {i32({7, -7, 7, 5, std::numeric_limits<int32_t>::min()}),
                                         i32({2, 2, 0, -1, -1})})),
            (std::vector<int32_t>{3, -3, 0, -5, std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(values<uint8_t>(run1("Div", {Tensor::from<uint8_t>({9}), Tensor::from<uint8_t>({0})})),
            (std::vector<uint8_t>{0}));
  Tensor r = run1("Div", {f32({1, -1, 0}), f32({0, 0, 0})});
  EXPECT_EQ(r.data<float>()[0], kInf);
  EXPECT_EQ(r.data<float>()[1], -kInf);
  EXPECT_TRUE(std::isnan(r.data<float>()[2]));
}

TEST(Add, UnsupportedTypeAndMixedTypesAreErrorsNamingTheOp) {
  EXPECT_EQ(error_of([] {
              run1("Add", {boolean({true}), boolean({false})});
            }),
            "Add: element type bool is not supported");
  EXPECT_EQ(error_of([] {
              run1("Mul", {f32({1}), i32({1})});
            }),
            "Mul: inputs must have the same element type, not float and int32");
  EXPECT_EQ(error_of([] {
              Tensor s(DataType::kString, {1});
              run1("Sub", {s, s});
            }),
            "Sub: element type string is not supported");
}

TEST(Add, LegacyBroadcastAttributes) {
  Tensor a = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  // Opset 6 without broadcast=1: shapes must match.
  EXPECT_EQ(error_of([&] {
              run1("Add", {a, f32({1, 2, 3})}, {}, 6);
            }),
            "Add: shapes [2,3] and [3] differ and the broadcast attribute is not set");
  // broadcast=1, trailing match.
  EXPECT_EQ(
      values<float>(run1("Add", {a, f32({10, 20, 30})}, {Attribute::make_int("broadcast", 1)}, 6)),
      (std::vector<float>{11, 22, 33, 14, 25, 36}));
  // broadcast=1, axis=0: B [2] lines up with A's first dimension (numpy
  // would have refused [2,3] + [2]).
  EXPECT_EQ(
      values<float>(run1("Mul", {a, f32({10, 100})},
                         {Attribute::make_int("broadcast", 1), Attribute::make_int("axis", 0)}, 1)),
      (std::vector<float>{10, 20, 30, 400, 500, 600}));
  // A one-element B is a scalar.
  EXPECT_EQ(values<float>(run1("Sub", {a, f32({1})}, {Attribute::make_int("broadcast", 1)}, 6)),
            (std::vector<float>{0, 1, 2, 3, 4, 5}));
  EXPECT_NE(error_of([&] {
              run1("Add", {a, f32({1, 2})},
                   {Attribute::make_int("broadcast", 1), Attribute::make_int("axis", 1)}, 6);
            }),
            "");
  // The same Add at opset 7 broadcasts numpy-style without attributes.
  EXPECT_EQ(values<float>(run1("Add", {a, f32({1, 2, 3})}, {}, 7)),
            (std::vector<float>{2, 4, 6, 5, 7, 9}));
}

TEST(Pow, FloatAndIntegerExponents) {
  expect_near(run1("Pow", {f32({2, 4, -2, 0}), f32({3, 0.5, 2, 0})}), {8, 2, 4, 1});
  // Pow-12+: exponent of another type.
  expect_near(run1("Pow", {f32({2, 3}), Tensor::from<int64_t>({10, -1})}), {1024, 1.0 / 3});
  EXPECT_EQ(
      values<int32_t>(run1("Pow", {i32({2, 3, -2, 5, 1, -1, 0}), i32({10, 3, 3, -1, -5, -3, 0})})),
      (std::vector<int32_t>{1024, 27, -8, 0, 1, -1, 1}));
  // Integer overflow wraps: 3^40 mod 2^64 computed by repeated squaring.
  uint64_t expect = 1;
  for (int i = 0; i < 40; ++i) expect *= 3;
  EXPECT_EQ(
      values<int64_t>(run1("Pow", {Tensor::from<int64_t>({3}), Tensor::from<int64_t>({40})}))[0],
      static_cast<int64_t>(expect));
  // Integer base, float exponent.
  EXPECT_EQ(values<int32_t>(run1("Pow", {i32({9, 2}), f32({0.5, 3})})),
            (std::vector<int32_t>{3, 8}));
  // Before opset 12 the types must agree.
  EXPECT_NE(error_of([] { run1("Pow", {f32({2}), Tensor::from<int64_t>({2})}, {}, 7); }), "");
}

TEST(Mod, SignFollowsDivisorOrDividend) {
  // fmod=0: Python's %, sign of the divisor.
  EXPECT_EQ(values<int32_t>(run1("Mod", {i32({7, -7, 7, -7, 5}), i32({3, 3, -3, -3, 0})})),
            (std::vector<int32_t>{1, 2, -2, -1, 0}));
  // fmod=1: C's fmod, sign of the dividend.
  EXPECT_EQ(values<int32_t>(run1("Mod", {i32({7, -7, 7, -7}), i32({3, 3, -3, -3})},
                                 {Attribute::make_int("fmod", 1)})),
            (std::vector<int32_t>{1, -1, 1, -1}));
  expect_near(run1("Mod", {f32({5.5f, -5.5f}), f32({2, 2})}, {Attribute::make_int("fmod", 1)}),
              {1.5, -1.5});
  expect_near(run1("Mod", {f32({5.5f, -5.5f, 1}), f32({2, 2, 0})}), {1.5, 0.5, kNaN});
  EXPECT_EQ(values<int8_t>(run1("Mod", {Tensor::from<int8_t>({-128}), Tensor::from<int8_t>({-1})})),
            (std::vector<int8_t>{0}));
}

TEST(Unary, MathFunctions) {
  expect_near(run1("Neg", {f32({1, -2, 0})}), {-1, 2, 0});
  EXPECT_EQ(values<int32_t>(run1("Neg", {i32({5, std::numeric_limits<int32_t>::min()})})),
            (std::vector<int32_t>{-5, std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(values<int8_t>(run1("Abs", {Tensor::from<int8_t>({-3, 4, -128})})),
            (std::vector<int8_t>{3, 4, -128}));
  expect_near(run1("Abs", {f32({-1.5, 2})}), {1.5, 2});
  expect_near(run1("Reciprocal", {f32({2, -4})}), {0.5, -0.25});
  expect_near(run1("Floor", {f32({1.5, -1.5, kNaN})}), {1, -2, kNaN});
  expect_near(run1("Ceil", {f32({1.5, -1.5})}), {2, -1});
  // Round: halves to even.
  expect_near(run1("Round", {f32({0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6})}),
              {0, 2, 2, -0.0, -2, 2, 3});
  expect_near(run1("Sqrt", {f32({4, 2, -1})}), {2, M_SQRT2, kNaN});
  expect_near(run1("Exp", {f32({0, 1})}), {1, M_E});
  expect_near(run1("Log", {f32({1, M_E, 0})}), {0, 1, -kInf});
  expect_near(run1("Sin", {f32({0, M_PI / 2})}), {0, 1});
  expect_near(run1("Cos", {f32({0})}), {1});
  expect_near(run1("Tan", {f32({M_PI / 4})}), {1});
  expect_near(run1("Asin", {f32({1})}), {M_PI / 2});
  expect_near(run1("Acos", {f32({1, 2})}), {0, kNaN});
  expect_near(run1("Atan", {f32({1})}), {M_PI / 4});
  expect_near(run1("Sinh", {f32({1})}), {std::sinh(1.0)});
  expect_near(run1("Cosh", {f32({1})}), {std::cosh(1.0)});
  expect_near(run1("Tanh", {f32({0, 100})}), {0, 1});
  expect_near(run1("Asinh", {f32({1})}), {std::asinh(1.0)});
  expect_near(run1("Acosh", {f32({1})}), {0});
  expect_near(run1("Atanh", {f32({0.5})}), {std::atanh(0.5)});
  expect_near(run1("Erf", {f32({0, 1, -10})}), {0, std::erf(1.0), -1});
  EXPECT_EQ(values<int32_t>(run1("Sign", {i32({-7, 0, 9})})), (std::vector<int32_t>{-1, 0, 1}));
  expect_near(run1("Sign", {f32({-0.5, 0, 3, kNaN})}), {-1, 0, 1, kNaN});
  EXPECT_EQ(values<uint8_t>(run1("Sign", {Tensor::from<uint8_t>({0, 200})})),
            (std::vector<uint8_t>{0, 1}));
  // double and float16 go through the same paths.
  expect_near(run1("Sqrt", {Tensor::from<double>({2})}), {M_SQRT2}, 1e-15);
  expect_near(run1("Exp", {Tensor::from<float16>({float16(1.0f)})}),
              {2.71875});  // e rounded to half
  EXPECT_EQ(error_of([] { run1("Sqrt", {i32({4})}); }),
            "Sqrt: element type int32 is not supported");
  EXPECT_EQ(error_of([] { run1("Neg", {Tensor::from<uint8_t>({4})}); }),
            "Neg: element type uint8 is not supported");
}

// ---------------------------------------------------------------- variadic

TEST(Variadic, SumMeanMaxMinBroadcastAllInputs) {
  Tensor a = f32({1, 2, 3}, {3});
  Tensor b = f32({10, 20}, {2, 1});
  Tensor c = f32({100});
  Tensor s = run1("Sum", {a, b, c});
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  EXPECT_EQ(values<float>(s), (std::vector<float>{111, 112, 113, 121, 122, 123}));
  expect_near(run1("Mean", {a, b, c}), {37, 112.0 / 3, 113.0 / 3, 121.0 / 3, 122.0 / 3, 41});
  EXPECT_EQ(values<float>(run1("Max", {a, f32({2})})), (std::vector<float>{2, 2, 3}));
  EXPECT_EQ(values<float>(run1("Min", {a, f32({2}), f32({0, 5, 5})})),
            (std::vector<float>{0, 2, 2}));
  // One input: itself.
  EXPECT_EQ(values<float>(run1("Sum", {a})), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(
      values<int64_t>(run1("Max", {Tensor::from<int64_t>({-1, 7}), Tensor::from<int64_t>({3, 2})})),
      (std::vector<int64_t>{3, 7}));
  EXPECT_NE(error_of([] { run1("Max", {f32({1}), i32({1})}); }), "");
}

TEST(Variadic, MaxAndMinPropagateNaN) {
  // NaN in either position wins, as numpy.maximum/minimum.
  expect_near(run1("Max", {f32({kNaN, 1, 2}), f32({1, kNaN, 3})}), {kNaN, kNaN, 3});
  expect_near(run1("Min", {f32({kNaN, 1, 2}), f32({1, kNaN, 3})}), {kNaN, kNaN, 2});
  expect_near(run1("Max", {f32({1}), f32({kNaN}), f32({5})}), {kNaN});
}

TEST(Clip, AttributeAndInputForms) {
  Tensor x = f32({-5, -1, 0, 2, 8, kNaN});
  expect_near(
      run1("Clip", {x}, {Attribute::make_float("min", -1), Attribute::make_float("max", 3)}, 6),
      {-1, -1, 0, 2, 3, kNaN});
  // Clip-1 without max: no upper bound.
  expect_near(run1("Clip", {x}, {Attribute::make_float("min", 0)}, 1), {0, 0, 0, 2, 8, kNaN});
  // Clip-11+: optional inputs; an omitted min leaves only max.
  expect_near(run1("Clip", {x, f32({-2}, {}), f32({4}, {})}), {-2, -1, 0, 2, 4, kNaN});
  expect_near(run1("Clip", {x, Tensor(), f32({1}, {})}), {-5, -1, 0, 1, 1, kNaN});
  expect_near(run1("Clip", {x}), {-5, -1, 0, 2, 8, kNaN});
  // min > max: everything becomes max.
  expect_near(run1("Clip", {x, f32({5}, {}), f32({1}, {})}), {1, 1, 1, 1, 1, kNaN});
  EXPECT_EQ(values<int32_t>(run1("Clip", {i32({-100, 5, 100}), i32({0}, {}), i32({10}, {})})),
            (std::vector<int32_t>{0, 5, 10}));
  EXPECT_NE(error_of([&] { run1("Clip", {x, f32({1, 2})}); }), "");
}

TEST(Bits, ShiftsAndBitwiseOps) {
  Tensor x = Tensor::from<uint8_t>({1, 0x80, 0xff, 16});
  Tensor n = Tensor::from<uint8_t>({3, 1, 8, 200});
  EXPECT_EQ(
      values<uint8_t>(run1("BitShift", {x, n}, {Attribute::make_string("direction", "LEFT")})),
      (std::vector<uint8_t>{8, 0, 0, 0}));
  EXPECT_EQ(
      values<uint8_t>(run1("BitShift", {x, n}, {Attribute::make_string("direction", "RIGHT")})),
      (std::vector<uint8_t>{0, 0x40, 0, 0}));
  Tensor x64 = Tensor::from<uint64_t>({1});
  EXPECT_EQ(values<uint64_t>(run1("BitShift", {x64, Tensor::from<uint64_t>({63})},
                                  {Attribute::make_string("direction", "LEFT")})),
            (std::vector<uint64_t>{uint64_t{1} << 63}));
  EXPECT_NE(error_of([&] {
              run1("BitShift", {x, n}, {Attribute::make_string("direction", "UP")});
            }),
            "");
  EXPECT_NE(error_of([&] { run1("BitShift", {x, n}); }), "");
  Tensor a = i32({0b1100, -1});
  Tensor b = i32({0b1010, 5});
  EXPECT_EQ(values<int32_t>(run1("BitwiseAnd", {a, b}, {}, 18)), (std::vector<int32_t>{0b1000, 5}));
  EXPECT_EQ(values<int32_t>(run1("BitwiseOr", {a, b}, {}, 18)), (std::vector<int32_t>{0b1110, -1}));
  EXPECT_EQ(values<int32_t>(run1("BitwiseXor", {a, b}, {}, 18)),
            (std::vector<int32_t>{0b0110, -6}));
  EXPECT_EQ(values<int32_t>(run1("BitwiseNot", {a}, {}, 18)), (std::vector<int32_t>{-13, 0}));
  // Opset 17 has no Bitwise* operators.
  EXPECT_NE(error_of([&] { run1("BitwiseNot", {a}, {}, 17); }), "");
}

TEST(IsNaNIsInf, DetectSpecials) {
  Tensor x = f32({1, kNaN, kInf, -kInf});
  EXPECT_EQ(values<bool>(run1("IsNaN", {x})), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(values<bool>(run1("IsInf", {x})), (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(values<bool>(run1("IsInf", {x}, {Attribute::make_int("detect_negative", 0)})),
            (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(values<bool>(run1("IsInf", {x}, {Attribute::make_int("detect_positive", 0)})),
            (std::vector<bool>{false, false, false, true}));
}

// ---------------------------------------------------------------- activations

TEST(Activation, Values) {
  Tensor x = f32({-2, -0.5, 0, 0.5, 2});
  expect_near(run1("Relu", {x}), {0, 0, 0, 0.5, 2});
  EXPECT_EQ(values<int8_t>(run1("Relu", {Tensor::from<int8_t>({-3, 4})})),
            (std::vector<int8_t>{0, 4}));
  expect_near(run1("LeakyRelu", {x}), {-0.02, -0.005, 0, 0.5, 2});
  expect_near(run1("LeakyRelu", {x}, {Attribute::make_float("alpha", 0.5)}),
              {-1, -0.25, 0, 0.5, 2});
  expect_near(run1("Elu", {x}), {std::expm1(-2.0), std::expm1(-0.5), 0, 0.5, 2});
  const double alpha = 1.67326319217681884765625, gamma = 1.05070102214813232421875;
  expect_near(run1("Selu", {x}), {gamma * alpha * std::expm1(-2.0),
                                  gamma * alpha * std::expm1(-0.5), 0, gamma * 0.5, gamma * 2});
  expect_near(run1("Selu", {f32({1})}, {}, 1), {1.0507});  // Selu-1's rounded default
  expect_near(run1("Celu", {x}, {Attribute::make_float("alpha", 2)}),
              {2 * std::expm1(-1.0), 2 * std::expm1(-0.25), 0, 0.5, 2});
  expect_near(run1("Sigmoid", {f32({0, 2, -2, -200, 200})}),
              {0.5, 1 / (1 + std::exp(-2.0)), 1 / (1 + std::exp(2.0)), 0, 1});
  expect_near(run1("HardSigmoid", {x}), {0.1, 0.4, 0.5, 0.6, 0.9});
  expect_near(run1("HardSigmoid", {f32({-10, 10})}), {0, 1});
  expect_near(run1("HardSwish", {f32({-4, -1, 0, 1, 4})}), {0, -1.0 / 3, 0, 2.0 / 3, 4});
  expect_near(run1("Softplus", {f32({0, 1, -1, 100, -100})}),
              {std::log(2.0), std::log1p(std::exp(1.0)), std::log1p(std::exp(-1.0)), 100,
               std::exp(-100.0)});
  expect_near(run1("Softsign", {x}), {-2.0 / 3, -1.0 / 3, 0, 1.0 / 3, 2.0 / 3});
  expect_near(run1("ThresholdedRelu", {f32({0.5, 1, 1.5})}), {0, 0, 1.5});
  expect_near(
      run1("Shrink", {x}, {Attribute::make_float("lambd", 1), Attribute::make_float("bias", 0.5)}),
      {-1.5, 0, 0, 0, 1.5});
  EXPECT_EQ(
      values<int32_t>(run1("Shrink", {i32({-3, 0, 3})},
                           {Attribute::make_float("lambd", 1), Attribute::make_float("bias", 1)})),
      (std::vector<int32_t>{-2, 0, 2}));
  expect_near(run1("Mish", {f32({0, 1})}, {}, 18), {0, std::tanh(std::log1p(std::exp(1.0)))});
}

TEST(Activation, PReluBroadcastsTheSlope) {
  Tensor x = f32({-1, 2, -3, 4, -5, 6}, {1, 2, 3});
  expect_near(run1("PRelu", {x, f32({0.5})}), {-0.5, 2, -1.5, 4, -2.5, 6});
  // Slope [2,1] per channel (numpy broadcasting).
  expect_near(run1("PRelu", {x, f32({0.1f, 10}, {2, 1})}), {-0.1, 2, -0.3, 4, -50, 6});
  // Opset 6: a 1-D slope of channel size is per channel.
  expect_near(run1("PRelu", {x, f32({0.1f, 10})}, {}, 6), {-0.1, 2, -0.3, 4, -50, 6});
  EXPECT_EQ(values<int32_t>(run1("PRelu", {i32({-4, 4}), i32({3})})),
            (std::vector<int32_t>{-12, 4}));
}

// ---------------------------------------------------------------- logic

TEST(Compare, ResultsAreBoolAndNaNComparesFalse) {
  Tensor a = f32({1, 2, 3, kNaN});
  Tensor b = f32({2});
  EXPECT_EQ(values<bool>(run1("Equal", {a, f32({1, 3, 3, kNaN})})),
            (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(values<bool>(run1("Less", {a, b})), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(values<bool>(run1("LessOrEqual", {a, b})),
            (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(values<bool>(run1("Greater", {a, b})), (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(values<bool>(run1("GreaterOrEqual", {a, b})),
            (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(values<bool>(run1("Equal", {boolean({true, false}), boolean({true})})),
            (std::vector<bool>{true, false}));
  Tensor s = Tensor::from<std::string>({"a", "bc"});
  EXPECT_EQ(values<bool>(run1("Equal", {s, Tensor::from<std::string>({"bc"})})),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(values<bool>(run1(
                "Less", {Tensor::from<uint64_t>({1, ~uint64_t{0}}), Tensor::from<uint64_t>({2})})),
            (std::vector<bool>{true, false}));
  // Broadcast result shape.
  EXPECT_EQ(run1("Greater", {f32({1, 2}, {2, 1}), f32({1, 2, 3})}).shape(), (Shape{2, 3}));
  EXPECT_NE(error_of([] { run1("Less", {boolean({true}), boolean({true})}); }), "");
}

TEST(Logic, AndOrXorNot) {
  Tensor a = boolean({true, true, false, false});
  Tensor b = boolean({true, false, true, false});
  EXPECT_EQ(values<bool>(run1("And", {a, b})), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(values<bool>(run1("Or", {a, b})), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(values<bool>(run1("Xor", {a, b})), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(values<bool>(run1("Not", {a})), (std::vector<bool>{false, false, true, true}));
  // [2,1] and [2]: 2x2.
  Tensor r = run1("And", {boolean({true, false}, {2, 1}), boolean({true, false})});
  EXPECT_EQ(values<bool>(r), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(error_of([] {
              run1("And", {i32({1}), i32({1})});
            }),
            "And: element type int32 is not supported");
}

// ---------------------------------------------------------------- coverage

// Every since_version (up to opset 17) of every element-wise operator has a
// kernel registered at exactly that version. The table comes from the ONNX
// operator changelog.
TEST(Coverage, EverySchemaVersionUpToOpset17IsRegistered) {
  const std::vector<std::pair<std::string, std::vector<int64_t>>> expected = {
      {"Add", {1, 6, 7, 13, 14}},
      {"Sub", {1, 6, 7, 13, 14}},
      {"Mul", {1, 6, 7, 13, 14}},
      {"Div", {1, 6, 7, 13, 14}},
      {"Pow", {1, 7, 12, 13, 15}},
      {"Mod", {10, 13}},
      {"Neg", {1, 6, 13}},
      {"Abs", {1, 6, 13}},
      {"Reciprocal", {1, 6, 13}},
      {"Floor", {1, 6, 13}},
      {"Ceil", {1, 6, 13}},
      {"Round", {11}},
      {"Sqrt", {1, 6, 13}},
      {"Exp", {1, 6, 13}},
      {"Log", {1, 6, 13}},
      {"Sin", {7}},
      {"Cos", {7}},
      {"Tan", {7}},
      {"Asin", {7}},
      {"Acos", {7}},
      {"Atan", {7}},
      {"Sinh", {9}},
      {"Cosh", {9}},
      {"Tanh", {1, 6, 13}},
      {"Asinh", {9}},
      {"Acosh", {9}},
      {"Atanh", {9}},
      {"Erf", {9, 13}},
      {"Sign", {9, 13}},
      {"Sum", {1, 6, 8, 13}},
      {"Mean", {1, 6, 8, 13}},
      {"Max", {1, 6, 8, 12, 13}},
      {"Min", {1, 6, 8, 12, 13}},
      {"IsNaN", {9, 13}},
      {"IsInf", {10}},
      {"BitShift", {11}},
      {"Clip", {1, 6, 11, 12, 13}},
      {"Relu", {1, 6, 13, 14}},
      {"LeakyRelu", {1, 6, 16}},
      {"PRelu", {1, 6, 7, 9, 16}},
      {"Elu", {1, 6}},
      {"Selu", {1, 6}},
      {"Celu", {12}},
      {"Sigmoid", {1, 6, 13}},
      {"HardSigmoid", {1, 6}},
      {"HardSwish", {14}},
      {"Softplus", {1}},
      {"Softsign", {1}},
      {"ThresholdedRelu", {10}},
      {"Shrink", {9}},
      {"Equal", {1, 7, 11, 13}},
      {"Less", {1, 7, 9, 13}},
      {"LessOrEqual", {12, 16}},
      {"Greater", {1, 7, 9, 13}},
      {"GreaterOrEqual", {12, 16}},
      {"And", {1, 7}},
      {"Or", {1, 7}},
      {"Xor", {1, 7}},
      {"Not", {1}},
      {"Cast", {1, 6, 9, 13}},
      {"CastLike", {15}}};
  const auto entries = KernelRegistry::builtin().entries();
  for (const auto& [op, versions] : expected) {
    for (int64_t v : versions) {
      EXPECT_NE(std::find(entries.begin(), entries.end(), std::make_tuple(std::string(), op, v)),
                entries.end())
          << op << "-" << v;
    }
  }
}

}  // namespace
}  // namespace onnxscript::eval
