// Tensor factories, numpy-style printing and .npy reading/writing.
#include "onnxscript/eval/tensor_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "onnxscript/eval/conformance.h"

namespace onnxscript::eval {
namespace {

using ::testing::HasSubstr;

TEST(TensorFactories, ArangeZerosOnesFullAt) {
  Tensor a = Tensor::arange<int64_t>(2, 11, 3);
  EXPECT_EQ(a.shape(), std::vector<int64_t>{3});
  EXPECT_EQ(a.at<int64_t>({2}), 8);
  EXPECT_EQ(Tensor::arange<float>(0, 1, 0.25f).numel(), 4);
  EXPECT_EQ(Tensor::arange<int32_t>(5, 0).numel(), 0);
  EXPECT_THROW(Tensor::arange<int32_t>(0, 5, 0), ValidationError);

  Tensor z = Tensor::zeros(DataType::kDouble, {2, 3});
  EXPECT_EQ(z.at<double>({1, 2}), 0.0);
  Tensor o = Tensor::ones(DataType::kFloat16, {2});
  EXPECT_EQ(static_cast<float>(o.at<float16>({-1})), 1.0f);
  Tensor o8 = Tensor::ones(DataType::kFloat8E4M3FN, {3});
  EXPECT_EQ(element_as_double(o8, 2), 1.0);
  Tensor o4 = Tensor::ones(DataType::kInt4, {3});
  EXPECT_EQ(element_as_double(o4, 2), 1.0);
  EXPECT_THROW(Tensor::ones(DataType::kString, {1}), TypeError);

  Tensor f = Tensor::full<int32_t>({2, 2}, 7);
  f.at<int32_t>({0, 1}) = 9;
  EXPECT_EQ(f.data<int32_t>()[1], 9);
  EXPECT_EQ(f.at<int32_t>({1, 1}), 7);
  EXPECT_THROW(f.at<int32_t>({2, 0}), ValidationError);
  EXPECT_THROW(f.at<int32_t>({0}), ValidationError);
  EXPECT_THROW(f.at<float>({0, 0}), ValidationError);
}

TEST(TensorFactories, RandIsSeededAndInRange) {
  Tensor a = Tensor::rand({100}, 42), b = Tensor::rand({100}, 42), c = Tensor::rand({100}, 43);
  EXPECT_TRUE(a.same_contents(b));
  EXPECT_FALSE(a.same_contents(c));
  for (int64_t i = 0; i < 100; ++i) {
    EXPECT_GE(a.data<float>()[i], 0.0f);
    EXPECT_LT(a.data<float>()[i], 1.0f);
  }
  EXPECT_THROW(Tensor::rand({2}, 0, DataType::kInt32), TypeError);
}

TEST(TensorPrint, FormatsLikeNumpy) {
  EXPECT_EQ(to_string(Tensor::from<float>({1, 2.5f, 3}, {3})), "[1.  2.5 3. ]");
  EXPECT_EQ(to_string(Tensor::from<float>({1, 2, 3, 4}, {2, 2})), "[[1. 2.]\n [3. 4.]]");
  EXPECT_EQ(to_string(Tensor::from<int64_t>({1, -20, 300})), "[  1 -20 300]");
  EXPECT_EQ(to_string(Tensor::from<bool>({true, false})), "[ True False]");
  EXPECT_EQ(to_string(Tensor::scalar<int32_t>(5)), "5");
  EXPECT_EQ(to_string(Tensor::from<std::string>({"a", "bc"})), "['a' 'bc']");
  EXPECT_EQ(to_string(Tensor::from<float>({NAN, 1.5f, -INFINITY})), "[ nan  1.5 -inf]");
  EXPECT_EQ(to_string(Tensor::from<double>({1e-5, 1.0})), "[1.e-05 1.e+00]");
  EXPECT_EQ(to_string(Tensor::arange<int32_t>(0, 8).reshaped({2, 2, 2})),
            "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
  std::ostringstream s;
  s << Tensor::from<int8_t>({1, 2});
  EXPECT_EQ(s.str(), "[1 2]");
}

TEST(TensorPrint, SummarizesLargeTensors) {
  EXPECT_EQ(to_string(Tensor::arange<int64_t>(0, 2000)), "[   0    1    2 ... 1997 1998 1999]");
  const std::string two_d = to_string(Tensor::arange<int64_t>(0, 2000).reshaped({1000, 2}));
  EXPECT_EQ(
      two_d,
      "[[   0    1]\n [   2    3]\n [   4    5]\n ...\n [1994 1995]\n [1996 1997]\n [1998 1999]]");
}

TEST(Npy, RoundTripsEveryNumpyType) {
  std::vector<Tensor> tensors = {Tensor::from<float>({1.5f, -2, 3}, {3, 1}),
                                 Tensor::from<double>({1, 2}),
                                 Tensor::from<int8_t>({-1, 2}),
                                 Tensor::from<int16_t>({-1}),
                                 Tensor::from<int32_t>({7}),
                                 Tensor::from<int64_t>({1, 2, 3, 4}, {2, 2}),
                                 Tensor::from<uint8_t>({255}),
                                 Tensor::from<uint16_t>({65535}),
                                 Tensor::from<uint32_t>({1}),
                                 Tensor::from<uint64_t>({1}),
                                 Tensor::from<bool>({true, false}),
                                 Tensor::from<float16>({float16(0.5f), float16(-1.0f)}),
                                 Tensor::from<std::complex<float>>({{1, 2}}),
                                 Tensor::from<std::complex<double>>({{3, -4}}),
                                 Tensor::scalar<float>(3),
                                 Tensor(DataType::kFloat, {0, 3}),
                                 Tensor::from<std::string>({"abc", "", "h\xc3\xa9llo"})};
  for (const Tensor& t : tensors) {
    const std::string bytes = npy_to_bytes(t);
    if (t.dtype() != DataType::kString) {
      EXPECT_EQ((bytes.size() - t.nbytes()) % 64, 0u) << "header is padded to 64 bytes";
    }
    Tensor back = npy_from_bytes(bytes);
    EXPECT_TRUE(back.same_contents(t))
        << ir::data_type_name(t.dtype()) << " " << to_string(t) << " vs " << to_string(back);
  }
  EXPECT_THROW(npy_to_bytes(Tensor()), TypeError);
}

TEST(Npy, ReadsBigEndianAndVersion2) {
  std::string header = "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }\n";
  std::string bytes = std::string("\x93NUMPY\x02\x00", 8);
  const uint32_t len = static_cast<uint32_t>(header.size());
  bytes.append(reinterpret_cast<const char*>(&len), 4);
  bytes += header;
  bytes += std::string("\x00\x00\x01\x02\xff\xff\xff\xfe", 8);
  Tensor t = npy_from_bytes(bytes);
  EXPECT_EQ(t.dtype(), DataType::kInt32);
  EXPECT_EQ(t.at<int32_t>({0}), 258);
  EXPECT_EQ(t.at<int32_t>({1}), -2);
}

std::string npy_with_header(const std::string& header,
                            const std::string& data = std::string(8, '\0')) {
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xFF);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}

TEST(Npy, MalformedFilesAreParseErrors) {
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
  ASSERT_NO_THROW(npy_from_bytes(npy_with_header(good)));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "bad magic"},
      {"NUMPY\x01\x00", "bad magic"},
      {std::string("\x93NUMPY\x01\x00\xff\x00{", 11), "truncated .npy header"},
      {std::string("\x93NUMPY\x09\x00\x00\x00", 10), "format version 9"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }\n"),
       "fortran_order"},
      {npy_with_header("{'descr': '<f4', 'shape': (2,), }\n"), "needs 'descr'"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}\n"),
       "unexpected key"},
      {npy_with_header("{'descr': '<x9', 'fortran_order': False, 'shape': (2,), }\n"),
       "unsupported .npy dtype"},
      {npy_with_header("{'descr': 'O', 'fortran_order': False, 'shape': (2,), }\n"),
       "unsupported .npy dtype"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }\n"),
       "expected a dimension"},
      {npy_with_header(
           "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n"),
       "dimension too large"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (4000000000, 4000000000, "
                       "4000000000), }\n"),
       "overflows"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }\n"),
       "True or False"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,) \n"),
       "expected ',' or '}'"},
      {npy_with_header("{'descr: '<f4'}"), "expected ':'"},
      {npy_with_header(good, std::string(7, '\0')), "7 bytes, the header announces 8"},
      {npy_with_header(good, std::string(9, '\0')), "9 bytes, the header announces 8"},
  };
  for (const auto& [bytes, expected] : cases) {
    try {
      npy_from_bytes(bytes, "bad.npy");
      ADD_FAILURE() << "no error for: " << expected;
    } catch (const ParseError& e) {
      EXPECT_THAT(e.what(), HasSubstr("bad.npy")) << expected;
      EXPECT_THAT(e.what(), HasSubstr(expected));
    }
  }
}

TEST(Npy, FilesAreWrittenAndReadAndMissingFilesAreIoErrors) {
  const auto dir = std::filesystem::temp_directory_path() / "onnxscript_npy_test";
  std::filesystem::create_directories(dir);
  Tensor t = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  save_npy(t, dir / "t.npy");
  EXPECT_TRUE(load_npy(dir / "t.npy").same_contents(t));
  EXPECT_TRUE(load_value(dir / "t.npy").tensor().same_contents(t));
  EXPECT_THROW(load_npy(dir / "missing.npy"), IoError);
  std::filesystem::remove_all(dir);
}

// Maps as test data (ONNX MapProto), alone and inside a SequenceProto, as
// ZipMap outputs them: written, read back by kind hint and by guessing.
TEST(TestData, MapsAndSequencesOfMapsRoundTrip) {
  const RuntimeValue map =
      RuntimeValue::map(Tensor::from<std::string>({"a", "b"}), Tensor::from<float>({0.25f, 0.75f}));
  for (std::string_view hint : {"map", ""}) {
    const RuntimeValue back = value_from_proto_bytes(value_to_proto_bytes(map, "m"), hint);
    ASSERT_TRUE(back.is_map()) << "hint '" << hint << "': " << back.describe();
    EXPECT_TRUE(back.map().keys.same_contents(map.map().keys));
    EXPECT_TRUE(back.map().values.same_contents(map.map().values));
  }
  const ir::Type map_type = ir::Type::map(DataType::kInt64, ir::Type::tensor(DataType::kFloat));
  const RuntimeValue seq = RuntimeValue::sequence(
      map_type, {RuntimeValue::map(Tensor::from<int64_t>({5, 6}), Tensor::from<float>({1, 2})),
                 RuntimeValue::map(Tensor::from<int64_t>({5, 6}), Tensor::from<float>({3, 4}))});
  for (std::string_view hint : {"sequence", ""}) {
    const RuntimeValue back = value_from_proto_bytes(value_to_proto_bytes(seq), hint);
    ASSERT_TRUE(back.is_sequence()) << "hint '" << hint << "': " << back.describe();
    ASSERT_EQ(back.sequence().items.size(), 2u);
    EXPECT_EQ(back.sequence().elem_type, map_type);
    EXPECT_EQ(compare_values(seq, back), "");
  }
}

// Maps have no order: the same pairs stored in another order are equal, and a
// different value under a key is reported.
TEST(TestData, MapsCompareAsSetsOfPairs) {
  const RuntimeValue ab =
      RuntimeValue::map(Tensor::from<std::string>({"a", "b"}), Tensor::from<float>({1, 2}));
  const RuntimeValue ba =
      RuntimeValue::map(Tensor::from<std::string>({"b", "a"}), Tensor::from<float>({2, 1}));
  EXPECT_EQ(compare_values(ab, ba), "");
  const RuntimeValue other =
      RuntimeValue::map(Tensor::from<std::string>({"b", "a"}), Tensor::from<float>({1, 2}));
  EXPECT_THAT(compare_values(ab, other), HasSubstr("values"));
  const RuntimeValue c =
      RuntimeValue::map(Tensor::from<std::string>({"a", "c"}), Tensor::from<float>({1, 2}));
  EXPECT_THAT(compare_values(ab, c), HasSubstr("keys"));
}

}  // namespace
}  // namespace onnxscript::eval
