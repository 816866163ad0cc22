// Cast and CastLike: every pair of element types, strings both ways, 16-bit
// float rounding, float8 saturation and int4 packing.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/support/float8.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Tensor cast(const Tensor& x, DataType to, int64_t version = 13, std::vector<Attribute> extra = {}) {
  std::vector<Attribute> attrs{Attribute::make_int("to", static_cast<int64_t>(to))};
  attrs.insert(attrs.end(), extra.begin(), extra.end());
  std::vector<RuntimeValue> in{x};
  return run_op("Cast", in, attrs, 1, version)[0].tensor();
}

template <typename T>
std::vector<T> values(const Tensor& t) {
  EXPECT_EQ(t.dtype(), ir::data_type_of<T>());
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

std::vector<std::string> strings(const Tensor& t) { return values<std::string>(t); }

using test_util::error_of;

TEST(Cast, IntegersWrapAndFloatsTruncate) {
  EXPECT_EQ(values<int8_t>(cast(Tensor::from<int16_t>({200, -129, 127}), DataType::kInt8)),
            (std::vector<int8_t>{-56, 127, 127}));
  EXPECT_EQ(values<uint8_t>(cast(Tensor::from<int32_t>({-1, 256, 300}), DataType::kUint8)),
            (std::vector<uint8_t>{255, 0, 44}));
  EXPECT_EQ(
      values<int32_t>(cast(Tensor::from<float>({1.9f, -1.9f, 0.5f, -0.0f}), DataType::kInt32)),
      (std::vector<int32_t>{1, -1, 0, 0}));
  // Out of range: defined (int64 minimum wrapped), never undefined behaviour.
  EXPECT_EQ(values<int32_t>(cast(Tensor::from<float>({kNaN, kInf, 1e20f}), DataType::kInt32)),
            (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(values<int64_t>(cast(Tensor::from<float>({kNaN}), DataType::kInt64))[0],
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(
      values<uint64_t>(cast(Tensor::from<double>({1.8446744073709550e19}), DataType::kUint64))[0],
      18446744073709549568ull);
  EXPECT_EQ(values<uint8_t>(cast(Tensor::from<float>({-1.0f}), DataType::kUint8))[0], 255);
  EXPECT_EQ(values<int64_t>(cast(Tensor::from<uint64_t>({~uint64_t{0}}), DataType::kInt64))[0], -1);
  // int64 -> float rounds once (2^24 + 1 is a tie -> even).
  EXPECT_EQ(values<float>(cast(Tensor::from<int64_t>({16777217, -3}), DataType::kFloat)),
            (std::vector<float>{16777216.0f, -3.0f}));
}

TEST(Cast, BoolBothWays) {
  EXPECT_EQ(values<bool>(cast(Tensor::from<float>({0.0f, -0.0f, 0.1f, kNaN, -2}), DataType::kBool)),
            (std::vector<bool>{false, false, true, true, true}));
  EXPECT_EQ(values<bool>(cast(Tensor::from<int8_t>({0, 3}), DataType::kBool)),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(values<float>(cast(Tensor::from<bool>({true, false}), DataType::kFloat)),
            (std::vector<float>{1, 0}));
  EXPECT_EQ(values<uint16_t>(cast(Tensor::from<bool>({true, false}), DataType::kUint16)),
            (std::vector<uint16_t>{1, 0}));
  EXPECT_EQ(
      static_cast<float>(values<float16>(cast(Tensor::from<bool>({true}), DataType::kFloat16))[0]),
      1.0f);
}

TEST(Cast, Float16AndBfloat16RoundToNearestEven) {
  auto half_bits = [](const Tensor& t) {
    std::vector<uint16_t> b;
    for (float16 h : values<float16>(t)) b.push_back(h.bits);
    return b;
  };
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even -> 1 (0x3c00);
  // 1 + 3*2^-11 -> 1 + 2^-9 (0x3c02); 65520 is halfway to the next binade
  // past the max -> inf; 2^-25 (half the smallest subnormal) -> 0; a bit more -> 1 ulp.
  Tensor f = Tensor::from<float>({1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65519.0f, 65520.0f,
                                  0x1p-25f, 0x1.01p-25f, -kInf, kNaN});
  std::vector<uint16_t> got = half_bits(cast(f, DataType::kFloat16));
  EXPECT_EQ(got[0], 0x3c00);
  EXPECT_EQ(got[1], 0x3c02);
  EXPECT_EQ(got[2], 0x7bff);
  EXPECT_EQ(got[3], 0x7c00);
  EXPECT_EQ(got[4], 0x0000);
  EXPECT_EQ(got[5], 0x0001);
  EXPECT_EQ(got[6], 0xfc00);
  EXPECT_EQ(got[7] & 0x7c00, 0x7c00);
  EXPECT_NE(got[7] & 0x03ff, 0);
  // double -> float16 rounds once: 1 + 2^-11 + 2^-40 is just above the tie,
  // so it rounds up; through float (which drops 2^-40) it would tie to 1.
  EXPECT_EQ(half_bits(cast(Tensor::from<double>({1.0 + 0x1p-11 + 0x1p-40}), DataType::kFloat16))[0],
            0x3c01);
  // bfloat16: 1 + 2^-8 ties to 1; 1 + 3*2^-8 ties up to 1 + 2^-6.
  Tensor b = cast(Tensor::from<float>({1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f}), DataType::kBfloat16);
  EXPECT_EQ(values<bfloat16>(b)[0].bits, 0x3f80);
  EXPECT_EQ(values<bfloat16>(b)[1].bits, 0x3f82);
  EXPECT_EQ(
      values<bfloat16>(cast(Tensor::from<double>({1.0 + 0x1p-8 + 0x1p-40}), DataType::kBfloat16))[0]
          .bits,
      0x3f81);
  // Widening is exact; float16 <-> bfloat16 goes through float.
  EXPECT_EQ(values<double>(
                cast(Tensor::from<float16>({float16::from_bits(0x3c01)}), DataType::kDouble))[0],
            1.0 + 0x1p-10);
  EXPECT_EQ(
      values<bfloat16>(cast(Tensor::from<float16>({float16(3.0f)}), DataType::kBfloat16))[0].bits,
      0x4040);
  EXPECT_EQ(values<int32_t>(cast(Tensor::from<float16>({float16(-2.5f)}), DataType::kInt32))[0],
            -2);
}

TEST(Cast, NumbersToStringsAsNumpyPrintsThem) {
  EXPECT_EQ(strings(cast(
                Tensor::from<float>({0.1f, 1.0f, -0.0f, 100.0f, 1e-5f, 1e16f, 1.5e16f, 123456789.0f,
                                     0.039187793f, 1e-4f, 3.4e38f, kNaN, kInf, -kInf}),
                DataType::kString)),
            (std::vector<std::string>{"0.1", "1.0", "-0.0", "100.0", "1e-05", "1e+16", "1.5e+16",
                                      "123456790.0", "0.039187793", "1e-04", "3.4e+38", "NaN",
                                      "INF", "-INF"}));
  EXPECT_EQ(strings(cast(Tensor::from<double>({0.1, 1.0 / 3, 0.0001, 1e100}), DataType::kString)),
            (std::vector<std::string>{"0.1", "0.3333333333333333", "0.0001", "1e+100"}));
  EXPECT_EQ(strings(cast(Tensor::from<float16>({float16(0.1f), float16(65504.0f), float16(1e-7f)}),
                         DataType::kString)),
            (std::vector<std::string>{"0.1", "65500.0", "1e-07"}));
  EXPECT_EQ(
      strings(cast(Tensor::from<int64_t>({-9223372036854775807LL - 1, 0, 42}), DataType::kString)),
      (std::vector<std::string>{"-9223372036854775808", "0", "42"}));
  EXPECT_EQ(strings(cast(Tensor::from<uint8_t>({255}), DataType::kString)),
            (std::vector<std::string>{"255"}));
  EXPECT_EQ(strings(cast(Tensor::from<bool>({true, false}), DataType::kString)),
            (std::vector<std::string>{"True", "False"}));
}

TEST(Cast, StringsToNumbers) {
  Tensor s = Tensor::from<std::string>({"0.47892547", " 2.5 ", "1e3", "-1E-2", "NaN", "INF", "+INF",
                                        "-INF", "inf", "-Infinity", "+7"});
  Tensor f = cast(s, DataType::kFloat);
  std::vector<float> v = values<float>(f);
  EXPECT_EQ(v[0], 0.47892547f);
  EXPECT_EQ(v[1], 2.5f);
  EXPECT_EQ(v[2], 1000.0f);
  EXPECT_EQ(v[3], -0.01f);
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_EQ(v[5], kInf);
  EXPECT_EQ(v[6], kInf);
  EXPECT_EQ(v[7], -kInf);
  EXPECT_EQ(v[8], kInf);
  EXPECT_EQ(v[9], -kInf);
  EXPECT_EQ(v[10], 7.0f);
  EXPECT_EQ(values<double>(cast(Tensor::from<std::string>({"0.1"}), DataType::kDouble))[0], 0.1);
  EXPECT_EQ(values<int32_t>(cast(Tensor::from<std::string>({"12", " -7", "+5", "100.5", "1e3"}),
                                 DataType::kInt32)),
            (std::vector<int32_t>{12, -7, 5, 100, 1000}));
  EXPECT_EQ(values<uint64_t>(
                cast(Tensor::from<std::string>({"18446744073709551615"}), DataType::kUint64))[0],
            ~uint64_t{0});
  EXPECT_EQ(
      values<bool>(cast(Tensor::from<std::string>({"True", "false", "0", "2"}), DataType::kBool)),
      (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(values<float16>(cast(Tensor::from<std::string>({"0.1"}), DataType::kFloat16))[0].bits,
            float16(0.1f).bits);
  EXPECT_EQ(error_of([] { cast(Tensor::from<std::string>({"hello"}), DataType::kFloat); }),
            "Cast: cannot convert the string \"hello\" to float");
  EXPECT_NE(error_of([] { cast(Tensor::from<std::string>({""}), DataType::kInt64); }), "");
  EXPECT_NE(error_of([] { cast(Tensor::from<std::string>({"1.5x"}), DataType::kDouble); }), "");
  // Round trip of a float through its text is exact.
  Tensor x = Tensor::from<float>({0.1f, 3.14159274f, 1e-40f, -6.02e23f});
  EXPECT_TRUE(cast(cast(x, DataType::kString), DataType::kFloat).same_contents(x));
}

// Every pair of the Cast-13 types runs, and 1 converts to 1 in every type.
TEST(Cast, AllPairsOfTypes) {
  const DataType types[] = {DataType::kFloat,    DataType::kDouble, DataType::kFloat16,
                            DataType::kBfloat16, DataType::kInt8,   DataType::kInt16,
                            DataType::kInt32,    DataType::kInt64,  DataType::kUint8,
                            DataType::kUint16,   DataType::kUint32, DataType::kUint64,
                            DataType::kBool,     DataType::kString};
  Tensor one = Tensor::from<int64_t>({1, 0}, {2});
  for (DataType from : types) {
    Tensor x = cast(one, from);
    for (DataType to : types) {
      Tensor y = cast(x, to);
      EXPECT_EQ(y.dtype(), to);
      EXPECT_EQ(y.shape(), (std::vector<int64_t>{2}));
      Tensor back = cast(y, DataType::kInt64);
      EXPECT_EQ(values<int64_t>(back), (std::vector<int64_t>{1, 0}))
          << ir::data_type_name(from) << " -> " << ir::data_type_name(to);
    }
  }
}

TEST(Cast, SameTypeSharesStorageAndErrors) {
  Tensor x = Tensor::from<float>({1});
  EXPECT_EQ(cast(x, DataType::kFloat).storage(), x.storage());
  EXPECT_EQ(error_of([&] { cast(x, DataType::kComplex64); }),
            "Cast: cannot cast from float to complex64");
  EXPECT_EQ(error_of([&] { cast(x, static_cast<DataType>(99)); }),
            "Cast: attribute 'to' is 99, which is not an element type");
  EXPECT_NE(error_of([&] { run_op("Cast", {RuntimeValue(x)}); }), "");  // 'to' missing
  // Cast-1 named the type with a string.
  std::vector<RuntimeValue> in{x};
  std::vector<Attribute> attrs{Attribute::make_string("to", "INT64")};
  EXPECT_EQ(run_op("Cast", in, attrs, 1, 1)[0].tensor().dtype(), DataType::kInt64);
}

TEST(Cast, Float8WithSaturate) {
  Tensor x = Tensor::from<float>({1.0f, 500.0f, -kInf, 0.3f});
  Tensor y = cast(x, DataType::kFloat8E4M3FN, 19);
  ASSERT_EQ(y.dtype(), DataType::kFloat8E4M3FN);
  const uint8_t* b = y.data<uint8_t>();
  EXPECT_EQ(b[0], 0x38);
  EXPECT_EQ(b[1], 0x7e);  // saturated to 448
  EXPECT_EQ(b[2], 0xfe);
  EXPECT_EQ(b[3], float8e4m3fn(0.3f).bits);
  Tensor n = cast(x, DataType::kFloat8E4M3FN, 19, {Attribute::make_int("saturate", 0)});
  EXPECT_EQ(n.data<uint8_t>()[1], 0x7f);  // NaN
  Tensor e5 = cast(x, DataType::kFloat8E5M2, 19, {Attribute::make_int("saturate", 0)});
  EXPECT_EQ(e5.data<uint8_t>()[2], 0xfc);  // -inf
  // Back to float is exact; float8 -> other types goes through float.
  std::vector<float> back = values<float>(cast(y, DataType::kFloat, 19));
  EXPECT_EQ(back,
            (std::vector<float>{1.0f, 448.0f, -448.0f, static_cast<float>(float8e4m3fn(0.3f))}));
  EXPECT_EQ(values<int32_t>(cast(y, DataType::kInt32, 19)),
            (std::vector<int32_t>{1, 448, -448, 0}));
  EXPECT_EQ(strings(cast(y, DataType::kString, 19))[1], "448.0");
  // float8 -> float8 of another format.
  Tensor z = cast(y, DataType::kFloat8E5M2FNUZ, 19);
  EXPECT_EQ(static_cast<float>(float8e5m2fnuz::from_bits(z.data<uint8_t>()[1])), 448.0f);
  // Strings parse as float first.
  Tensor s = cast(Tensor::from<std::string>({"240", "1000"}), DataType::kFloat8E4M3FNUZ, 19);
  EXPECT_EQ(s.data<uint8_t>()[0], 0x7f);
  EXPECT_EQ(s.data<uint8_t>()[1], 0x7f);
}

TEST(Cast, Int4PacksAndSaturates) {
  Tensor x = Tensor::from<float>({-9.0f, 2.5f, 3.5f, 7.0f, 100.0f});
  Tensor y = cast(x, DataType::kInt4, 21);
  ASSERT_EQ(y.dtype(), DataType::kInt4);
  const uint8_t* b = y.data<uint8_t>();
  // -8 (0x8) | 2 << 4; 4 | 7 << 4; 7 in the low nibble of the last byte.
  EXPECT_EQ(b[0], 0x28);
  EXPECT_EQ(b[1], 0x74);
  EXPECT_EQ(b[2] & 0x0f, 0x07);
  EXPECT_EQ(values<int32_t>(cast(y, DataType::kInt32, 21)), (std::vector<int32_t>{-8, 2, 4, 7, 7}));
  Tensor u = cast(Tensor::from<int32_t>({-3, 20, 9}), DataType::kUint4, 21);
  EXPECT_EQ(values<int64_t>(cast(u, DataType::kInt64, 21)), (std::vector<int64_t>{0, 15, 9}));
  EXPECT_EQ(values<int64_t>(cast(cast(Tensor::from<uint64_t>({~uint64_t{0}}), DataType::kInt4, 21),
                                 DataType::kInt64, 21)),
            (std::vector<int64_t>{7}));
}

TEST(CastLike, TakesTheTypeOfTheSecondInput) {
  std::vector<RuntimeValue> in{Tensor::from<float>({1.5f, -2.5f}), Tensor::from<int8_t>({0})};
  Tensor y = run_op("CastLike", in, {}, 1, 15)[0].tensor();
  EXPECT_EQ(values<int8_t>(y), (std::vector<int8_t>{1, -2}));
  std::vector<RuntimeValue> in2{Tensor::from<float>({0.25f}), Tensor(DataType::kString, {0})};
  EXPECT_EQ(strings(run_op("CastLike", in2, {}, 1, 15)[0].tensor()),
            (std::vector<std::string>{"0.25"}));
}

}  // namespace
}  // namespace onnxscript::eval
