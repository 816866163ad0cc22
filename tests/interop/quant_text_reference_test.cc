// Hand-checked reference cases for quantized matmuls and the text operators:
// MatMulInteger with per-row/per-column zero points, QLinearMatMul on int8,
// TfIdfVectorizer in IDF mode over strings, StringNormalizer upper-casing
// with caseless stop words. Each runs in our Session and in ONNX Runtime
// 1.30 against outputs derived by hand from the specification (the arithmetic
// is in the comments). The random generators are left out: no two
// implementations draw the same values, so there is nothing to compare but
// shapes and types, which the unit tests check.
#include <gtest/gtest.h>

#include "interop/reference_case.h"

namespace onnxscript::testing {
namespace {

using eval::RuntimeValue;
using ir::Attribute;
using ir::DataType;
using ir::Tensor;
using ir::Type;

Type tensor(DataType dtype) { return Type::tensor(dtype); }

ReferenceCase node_case(std::string name, const std::string& op, int64_t version,
                        std::vector<std::pair<std::string, Type>> inputs,
                        std::vector<std::pair<std::string, Type>> outputs,
                        std::vector<Attribute> attrs = {}) {
  ReferenceCase c;
  c.name = std::move(name);
  c.model = single_node_model("", op, version, inputs, outputs, std::move(attrs));
  return c;
}

TEST(QuantTextReference, MatMulIntegerPerColumnZeroPoint) {
  // A - 1 = [[0, 1], [2, 3]]; B - [5, 6] per column = [[5-5, 7-6], [9-5, 8-6]] = [[0, 1], [4, 2]]
  // Y = [[0*0 + 1*4, 0*1 + 1*2], [2*0 + 3*4, 2*1 + 3*2]] = [[4, 2], [12, 8]]
  const Type u8 = tensor(DataType::kUint8);
  ReferenceCase c = node_case("MatMulInteger per-column b_zero_point", "MatMulInteger", 10,
                              {{"A", u8}, {"B", u8}, {"a_zero_point", u8}, {"b_zero_point", u8}},
                              {{"Y", tensor(DataType::kInt32)}});
  c.inputs = {Tensor::from<uint8_t>({1, 2, 3, 4}, {2, 2}),
              Tensor::from<uint8_t>({5, 7, 9, 8}, {2, 2}), Tensor::scalar<uint8_t>(1),
              Tensor::from<uint8_t>({5, 6})};
  c.expected = {Tensor::from<int32_t>({4, 2, 12, 8}, {2, 2})};
  expect_reference_case(c);
}

TEST(QuantTextReference, MatMulIntegerPerRowZeroPoint) {
  // A - [1, 2] per row = [[1-1, 2-1], [3-2, 4-2]] = [[0, 1], [1, 2]]; B - [5, 6] = [[0, 1], [4, 2]]
  // Y = [[0*0 + 1*4, 0*1 + 1*2], [1*0 + 2*4, 1*1 + 2*2]] = [[4, 2], [8, 5]]
  const Type u8 = tensor(DataType::kUint8);
  ReferenceCase c = node_case("MatMulInteger per-row a_zero_point", "MatMulInteger", 10,
                              {{"A", u8}, {"B", u8}, {"a_zero_point", u8}, {"b_zero_point", u8}},
                              {{"Y", tensor(DataType::kInt32)}});
  c.inputs = {Tensor::from<uint8_t>({1, 2, 3, 4}, {2, 2}),
              Tensor::from<uint8_t>({5, 7, 9, 8}, {2, 2}), Tensor::from<uint8_t>({1, 2}),
              Tensor::from<uint8_t>({5, 6})};
  c.expected = {Tensor::from<int32_t>({4, 2, 8, 5}, {2, 2})};
  // The specification allows "an M element vector" for a 2-D A; ONNX Runtime
  // 1.30's CPU kernel refuses it.
  c.not_in_onnxruntime_because =
      "ONNX Runtime's MatMulInteger requires a scalar a_zero_point (\"input1 zero point must be a "
      "scalar or 1D tensor of size 1\"), although the specification allows one per row";
  expect_reference_case(c);
}

TEST(QuantTextReference, QLinearMatMulInt8) {
  // A int8 [[4, -2], [6, 8], [127, -128]] - 2 = [[2, -4], [4, 6], [125, -130]]
  // B int8 [[3], [1]] - 1 = [[2], [0]]
  // acc = [[4], [8], [250]]; acc * a_scale 0.5 * b_scale 0.25 / y_scale 0.125 = [4, 8, 250];
  // + y_zero_point -3 = [1, 5, 247], and 247 saturates to 127.
  const Type i8 = tensor(DataType::kInt8), f32 = tensor(DataType::kFloat);
  ReferenceCase c = node_case("QLinearMatMul int8", "QLinearMatMul", 10,
                              {{"a", i8},
                               {"a_scale", f32},
                               {"a_zero_point", i8},
                               {"b", i8},
                               {"b_scale", f32},
                               {"b_zero_point", i8},
                               {"y_scale", f32},
                               {"y_zero_point", i8}},
                              {{"y", i8}});
  c.inputs = {Tensor::from<int8_t>({4, -2, 6, 8, 127, -128}, {3, 2}),
              Tensor::scalar<float>(0.5f),
              Tensor::scalar<int8_t>(2),
              Tensor::from<int8_t>({3, 1}, {2, 1}),
              Tensor::scalar<float>(0.25f),
              Tensor::scalar<int8_t>(1),
              Tensor::scalar<float>(0.125f),
              Tensor::scalar<int8_t>(-3)};
  c.expected = {Tensor::from<int8_t>({1, 5, 127}, {3, 1})};
  expect_reference_case(c);
}

TEST(QuantTextReference, TfIdfVectorizerIdfOverStrings) {
  // Pool: 1-grams "a", "b" (ngram_counts[0] = 0), 2-grams ("a","b"), ("c","a")
  // (from pool item 2); output indexes 0..3, weights [0.5, 1.5, 2, 4].
  // IDF writes weight * min(count, 1):
  //   row [a, b, c, a]: a (twice), b, (a,b), (c,a) all occur -> [0.5, 1.5, 2, 4]
  //   row [b, b, d, e]: only b (twice) -> [0, 1.5, 0, 0]
  ReferenceCase c = node_case(
      "TfIdfVectorizer IDF pool_strings", "TfIdfVectorizer", 9, {{"X", tensor(DataType::kString)}},
      {{"Y", tensor(DataType::kFloat)}},
      {Attribute::make_string("mode", "IDF"), Attribute::make_int("min_gram_length", 1),
       Attribute::make_int("max_gram_length", 2), Attribute::make_int("max_skip_count", 0),
       Attribute::make_ints("ngram_counts", {0, 2}),
       Attribute::make_ints("ngram_indexes", {0, 1, 2, 3}),
       Attribute::make_strings("pool_strings", {"a", "b", "a", "b", "c", "a"}),
       Attribute::make_floats("weights", {0.5f, 1.5f, 2.0f, 4.0f})});
  c.inputs = {Tensor::from<std::string>({"a", "b", "c", "a", "b", "b", "d", "e"}, {2, 4})};
  c.expected = {Tensor::from<float>({0.5f, 1.5f, 2, 4, 0, 1.5f, 0, 0}, {2, 4})};
  expect_reference_case(c);
}

TEST(QuantTextReference, StringNormalizerUpperWithCaselessStopwords) {
  // Stop word "monday", compared without case: "Monday" and "MONDAY" go; the
  // rest are upper-cased. The locale is given because ONNX Runtime's default
  // (en_US.UTF-8) is not installed on every machine; C.UTF-8 is (glibc).
  ReferenceCase c = node_case(
      "StringNormalizer UPPER caseless stopwords", "StringNormalizer", 10,
      {{"X", tensor(DataType::kString)}}, {{"Y", tensor(DataType::kString)}},
      {Attribute::make_string("case_change_action", "UPPER"),
       Attribute::make_int("is_case_sensitive", 0), Attribute::make_string("locale", "C.UTF-8"),
       Attribute::make_strings("stopwords", {"monday"})});
  c.inputs = {Tensor::from<std::string>({"Monday", "tuesday", "MONDAY", "Wed"})};
  c.expected = {Tensor::from<std::string>({"TUESDAY", "WED"})};
  expect_reference_case(c);
}

}  // namespace
}  // namespace onnxscript::testing
