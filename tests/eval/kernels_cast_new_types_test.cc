// Cast and CastLike to and from float8e8m0, int2, uint2 and float4e2m1.
// The first test runs the ONNX 1.22 backend cases for these types (their
// tensors are in tests/data/onnx-1.22/cast_new_types; their Cast-25 models
// wait for version dispatch) on the kernels directly; the others pin the
// rounding modes, saturation, wrapping and every pair of types.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/tensor_io.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;

const std::filesystem::path kCases =
    std::filesystem::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22" / "cast_new_types";

Tensor cast(const Tensor& x, DataType to, std::vector<Attribute> extra = {}) {
  std::vector<Attribute> attrs{Attribute::make_int("to", static_cast<int64_t>(to))};
  attrs.insert(attrs.end(), extra.begin(), extra.end());
  std::vector<RuntimeValue> in{x};
  return run_op("Cast", in, attrs, 1, 21)[0].tensor();
}

std::string bytes_of(const Tensor& t) {
  return std::string(static_cast<const char*>(t.raw_data()), t.nbytes());
}

Tensor packed(DataType dtype, std::vector<int64_t> shape, std::string bytes) {
  Tensor t(dtype, std::move(shape));
  EXPECT_EQ(t.nbytes(), bytes.size());
  std::memcpy(t.raw_data(), bytes.data(), bytes.size());
  return t;
}

TEST(CastNewTypes, MatchesTheOnnx122Cases) {
  const char* cases[] = {"test_cast_FLOAT_to_INT2",
                         "test_cast_FLOAT16_to_INT2",
                         "test_cast_FLOAT_to_UINT2",
                         "test_cast_FLOAT16_to_UINT2",
                         "test_cast_INT2_to_FLOAT",
                         "test_cast_INT2_to_FLOAT16",
                         "test_cast_INT2_to_INT8",
                         "test_cast_UINT2_to_FLOAT",
                         "test_cast_e8m0_FLOAT16_to_FLOAT8E8M0",
                         "test_cast_e8m0_FLOAT8E8M0_to_FLOAT",
                         "test_cast_e8m0_FLOAT8E8M0_to_FLOAT16",
                         "test_cast_FLOAT4E2M1_to_FLOAT",
                         "test_cast_FLOAT4E2M1_to_FLOAT16",
                         "test_cast_FLOAT_to_FLOAT4E2M1",
                         "test_castlike_FLOAT16_to_FLOAT4E2M1",
                         "test_castlike_UINT2_to_FLOAT16"};
  for (const std::string name : cases) {
    SCOPED_TRACE(name);
    const auto dir = kCases / name;
    const Tensor input = load_value_pb(dir / "input_0.pb", "tensor").tensor();
    const Tensor expected = load_value_pb(dir / "output_0.pb", "tensor").tensor();
    Tensor actual;
    if (name.starts_with("test_castlike")) {
      const Tensor like = load_value_pb(dir / "input_1.pb", "tensor").tensor();
      ASSERT_EQ(like.dtype(), expected.dtype());
      std::vector<RuntimeValue> in{input, like};
      actual = run_op("CastLike", in, {}, 1, 21)[0].tensor();
    } else if (name.find("e8m0") != std::string::npos) {
      // The models say round_mode "up" and saturate 1 (the defaults) explicitly.
      actual =
          cast(input, expected.dtype(),
               {Attribute::make_string("round_mode", "up"), Attribute::make_int("saturate", 1)});
    } else {
      actual = cast(input, expected.dtype());
    }
    EXPECT_EQ(actual.dtype(), expected.dtype());
    EXPECT_EQ(actual.shape(), expected.shape());
    EXPECT_EQ(bytes_of(actual), bytes_of(expected))
        << to_string(input) << " -> " << to_string(actual) << ", expected " << to_string(expected);
  }
}

TEST(CastNewTypes, Float8E8M0RoundModesAndSaturation) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 3 lies between 2 and 4 (above the midpoint 3 is not: 1.5 * 2 = 3 is the tie).
  Tensor x = Tensor::from<float>(
      {1.0f, 3.0f, 2.9f, 3.1f, -3.0f, 0.0f, 0x1p-140f, 0x1.8p-127f, inf, nan, 0x1.fp127f});
  auto with = [&](const char* mode, int64_t saturate = 1) {
    return bytes_of(cast(
        x, DataType::kFloat8E8M0,
        {Attribute::make_string("round_mode", mode), Attribute::make_int("saturate", saturate)}));
  };
  // Default "up"; the sign is ignored; zero and tiny values give 2^-127.
  EXPECT_EQ(bytes_of(cast(x, DataType::kFloat8E8M0)), with("up"));
  EXPECT_EQ(with("up"), std::string("\x7f\x81\x81\x81\x81\x00\x00\x01\xfe\xff\xfe", 11));
  EXPECT_EQ(with("down"), std::string("\x7f\x80\x80\x80\x80\x00\x00\x00\xfe\xff\xfe", 11));
  EXPECT_EQ(with("nearest"), std::string("\x7f\x81\x80\x81\x81\x00\x00\x01\xfe\xff\xfe", 11));
  // Not saturating: infinity and what rounds past 2^127 are NaN.
  EXPECT_EQ(with("up", 0), std::string("\x7f\x81\x81\x81\x81\x00\x00\x01\xff\xff\xff", 11));
  EXPECT_EQ(with("down", 0), std::string("\x7f\x80\x80\x80\x80\x00\x00\x00\xff\xff\xfe", 11));
  EXPECT_NE(test_util::error_of([&] { with("sideways"); }).find("round_mode"), std::string::npos);
  // Back to float is exact; 0xFF is NaN.
  Tensor e = packed(DataType::kFloat8E8M0, {4}, std::string("\x00\x7f\xfe\xff", 4));
  Tensor f = cast(e, DataType::kFloat);
  EXPECT_EQ(f.data<float>()[0], 0x1p-127f);
  EXPECT_EQ(f.data<float>()[1], 1.0f);
  EXPECT_EQ(f.data<float>()[2], 0x1p127f);
  EXPECT_TRUE(std::isnan(f.data<float>()[3]));
  // A double just above a power of two is not rounded down to it first.
  Tensor d = Tensor::from<double>({1.0 + 0x1p-40});
  EXPECT_EQ(bytes_of(cast(d, DataType::kFloat8E8M0)), "\x80");
  // CastLike passes round_mode on.
  std::vector<RuntimeValue> in{Tensor::from<float>({3.0f}), Tensor(DataType::kFloat8E8M0, {0})};
  std::vector<Attribute> down{Attribute::make_string("round_mode", "down")};
  EXPECT_EQ(bytes_of(run_op("CastLike", in, down, 1, 21)[0].tensor()), "\x80");
}

TEST(CastNewTypes, TwoBitIntegersRoundThenWrap) {
  Tensor x = Tensor::from<float>(
      {-3.0f, 2.0f, 1.5f, 2.5f, -0.5f, 5.0f, std::numeric_limits<float>::quiet_NaN()});
  // int2: -3 -> 1, 2 -> -2, 1.5 -> 2 -> -2, 2.5 -> 2 -> -2, -0.5 -> 0, 5 -> 1, NaN -> 0.
  Tensor i2 = cast(x, DataType::kInt2);
  EXPECT_EQ(i2.nbytes(), 2u);
  std::vector<int64_t> expect{1, -2, -2, -2, 0, 1, 0};
  Tensor back = cast(i2, DataType::kInt64);
  EXPECT_EQ(std::vector<int64_t>(back.data<int64_t>(), back.data<int64_t>() + 7), expect);
  Tensor u2 = cast(Tensor::from<int32_t>({-1, 4, 7, 3, 258}), DataType::kUint2);
  Tensor ub = cast(u2, DataType::kInt32);
  EXPECT_EQ(std::vector<int32_t>(ub.data<int32_t>(), ub.data<int32_t>() + 5),
            (std::vector<int32_t>{3, 0, 3, 3, 2}));
  // Packed four to a byte, the first element lowest; unused bits stay zero.
  EXPECT_EQ(bytes_of(u2), std::string("\xf3\x02", 2));
  // From strings, bools, and between the 2-bit and 4-bit types.
  EXPECT_EQ(bytes_of(cast(Tensor::from<std::string>({"1", "-2", "3"}), DataType::kInt2)),
            std::string("\x39", 1));
  EXPECT_EQ(bytes_of(cast(Tensor::from<bool>({true, false, true}), DataType::kUint2)),
            std::string("\x11", 1));
  Tensor i4 = cast(i2, DataType::kInt4);
  Tensor i4b = cast(i4, DataType::kInt64);
  EXPECT_EQ(std::vector<int64_t>(i4b.data<int64_t>(), i4b.data<int64_t>() + 7), expect);
}

TEST(CastNewTypes, Float4E2M1RoundsToNearestEvenAndSaturates) {
  Tensor x = Tensor::from<double>({0.25, 0.25 + 0x1p-40, 0.75, 2.5, 5.0, 7.0, -100.0, -0.0});
  Tensor f4 = cast(x, DataType::kFloat4E2M1);
  Tensor back = cast(f4, DataType::kFloat);
  std::vector<float> got(back.data<float>(), back.data<float>() + 8);
  EXPECT_EQ(got, (std::vector<float>{0.0f, 0.5f, 1.0f, 2.0f, 4.0f, 6.0f, -6.0f, -0.0f}));
  EXPECT_TRUE(std::signbit(got[7]));
  EXPECT_EQ(bytes_of(cast(Tensor::from<float>({std::numeric_limits<float>::quiet_NaN()}),
                          DataType::kFloat4E2M1)),
            "\x08");
}

TEST(CastNewTypes, EveryPairOfTypesKeepsSmallValues) {
  const DataType types[] = {DataType::kFloat,      DataType::kFloat16,    DataType::kInt8,
                            DataType::kUint8,      DataType::kInt64,      DataType::kBool,
                            DataType::kString,     DataType::kBfloat16,   DataType::kFloat8E4M3FN,
                            DataType::kFloat8E8M0, DataType::kFloat4E2M1, DataType::kInt4,
                            DataType::kUint4,      DataType::kInt2,       DataType::kUint2};
  // 1 is in every type (float8e8m0 has no zero, so only 1 here).
  Tensor one = Tensor::from<int64_t>({1, 1, 1}, {3});
  for (DataType from : types) {
    Tensor x = cast(one, from);
    ASSERT_EQ(x.dtype(), from);
    for (DataType to : types) {
      Tensor y = cast(x, to);
      EXPECT_EQ(y.dtype(), to);
      Tensor back = cast(y, DataType::kInt64);
      EXPECT_EQ(std::vector<int64_t>(back.data<int64_t>(), back.data<int64_t>() + 3),
                (std::vector<int64_t>{1, 1, 1}))
          << ir::data_type_name(from) << " -> " << ir::data_type_name(to);
    }
  }
}

}  // namespace
}  // namespace onnxscript::eval
