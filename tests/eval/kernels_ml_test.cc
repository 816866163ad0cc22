// Tests for the ai.onnx.ml kernels (src/eval/kernels/ml/). The ONNX backend
// node suite has no ml cases, so every expected value here is worked out by
// hand from the operator specification (libonnx 1.12 schemas), the arithmetic
// written out in the comments. Where the spec is silent the comment names the
// convention the kernel documents.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using A = ir::Attribute;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<RuntimeValue> ml(std::string_view op, std::vector<RuntimeValue> inputs,
                             std::vector<A> attrs, size_t outputs = 1, int64_t version = 1) {
  return run_op(op, inputs, attrs, outputs, version, "ai.onnx.ml");
}

// Runs an ml operator expecting a KernelError that names it and contains `fragment`.
void expect_error(std::string_view op, std::vector<RuntimeValue> inputs, std::vector<A> attrs,
                  const std::string& fragment, size_t outputs = 1, int64_t version = 1) {
  try {
    ml(op, std::move(inputs), std::move(attrs), outputs, version);
    ADD_FAILURE() << op << " did not fail (expected: " << fragment << ")";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ai.onnx.ml." + std::string(op) + ": "));
    EXPECT_THAT(e.what(), HasSubstr(fragment));
  }
}

using test_util::values;

std::vector<double> floats_of(const RuntimeValue& v) {
  const std::vector<float> f = values<float>(v);
  return std::vector<double>(f.begin(), f.end());
}

std::vector<int64_t> shape_of(const RuntimeValue& v) { return v.tensor().shape().to_vector(); }

Tensor f32(std::initializer_list<float> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<float>(v, std::move(shape));
}
Tensor f64(std::initializer_list<double> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<double>(v, std::move(shape));
}
Tensor i64(std::initializer_list<int64_t> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<int64_t>(v, std::move(shape));
}
Tensor strs(std::initializer_list<std::string> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<std::string>(v, std::move(shape));
}

// Float outputs are float32: compare with a relative-looking absolute bound.
auto near(std::vector<double> expected, double tol = 1e-6) {
  return Pointwise(DoubleNear(tol), std::move(expected));
}

// ---------------------------------------------------------------- ArrayFeatureExtractor

TEST(MlArrayFeatureExtractor, PicksColumnsOfTheLastAxis) {
  // X = [[1,2,3],[4,5,6]], Y = [2,0]: each row keeps columns 2 then 0.
  auto out = ml("ArrayFeatureExtractor", {f32({1, 2, 3, 4, 5, 6}, {2, 3}), i64({2, 0})}, {});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(3, 1, 6, 4));
  // A 1-D X is one row and gives [1, len(Y)]; Y may repeat and be 2-D (read flat).
  out = ml("ArrayFeatureExtractor", {strs({"a", "b", "c"}), i64({2, 2, 0, 1}, {2, 2})}, {});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 4}));
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("c", "c", "a", "b"));
}

TEST(MlArrayFeatureExtractor, OutOfRangeIndicesAreErrors) {
  expect_error("ArrayFeatureExtractor", {f32({1, 2, 3}), i64({3})}, {}, "outside [0, 3)");
  expect_error("ArrayFeatureExtractor", {f32({1, 2, 3}), i64({-1})}, {}, "outside [0, 3)");
  expect_error("ArrayFeatureExtractor", {f32({1, 2, 3}), Tensor::from<int32_t>({0})}, {}, "int64");
}

// ---------------------------------------------------------------- Binarizer

TEST(MlBinarizer, OneOnlyWhenStrictlyGreater) {
  // threshold 0.5: -1 -> 0, 0.5 -> 0 (not greater), 1 -> 1, 2 -> 1, NaN -> 0.
  auto out = ml("Binarizer", {f32({-1, 0.5f, 1, 2, kNaN})}, {A::make_float("threshold", 0.5f)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 0, 1, 1, 0));
  // Default threshold 0; integer types keep their type.
  out = ml("Binarizer", {i64({-3, 0, 7})}, {});
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(0, 0, 1));
  expect_error("Binarizer", {Tensor::from<int8_t>({1})}, {}, "not supported");
}

// ---------------------------------------------------------------- CastMap

TEST(MlCastMap, DenseSortsByKeyAndSparsePlacesByKey) {
  // {2: "2.5", 0: "-1"} sorted by key is ["-1", "2.5"] -> floats [-1, 2.5].
  RuntimeValue m = RuntimeValue::map(i64({2, 0}), strs({"2.5", "-1"}));
  auto out = ml("CastMap", {m}, {});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(-1.0f, 2.5f));
  // SPARSE, max_map 4: column k holds key k's value, the others 0.
  out = ml("CastMap", {m}, {A::make_string("map_form", "SPARSE"), A::make_int("max_map", 4)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(-1.0f, 0.0f, 2.5f, 0.0f));
  // Strings in SPARSE mode pad with "".
  out = ml("CastMap", {m},
           {A::make_string("map_form", "SPARSE"), A::make_int("max_map", 3),
            A::make_string("cast_to", "TO_STRING")});
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("-1", "", "2.5"));
}

TEST(MlCastMap, ConvertsWithTheRulesOfCast) {
  // float -> int64 truncates toward zero: 2.7 -> 2, -1.5 -> -1.
  RuntimeValue m = RuntimeValue::map(i64({0, 1}), f32({2.7f, -1.5f}));
  auto out = ml("CastMap", {m}, {A::make_string("cast_to", "TO_INT64")});
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(2, -1));
  // float -> string in shortest round-trip form.
  out = ml("CastMap", {RuntimeValue::map(i64({1, 0}), f32({0.5f, 2.0f}))},
           {A::make_string("cast_to", "TO_STRING")});
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("2.0", "0.5"));
}

TEST(MlCastMap, BadInputsAndAttributesAreErrors) {
  RuntimeValue m = RuntimeValue::map(i64({0, 4}), f32({1, 2}));
  expect_error("CastMap", {m}, {A::make_string("map_form", "SPARSE"), A::make_int("max_map", 4)},
               "key 4 is outside [0, max_map = 4)");
  expect_error("CastMap", {m}, {A::make_string("cast_to", "TO_BOOL")}, "cast_to 'TO_BOOL'");
  expect_error("CastMap", {m}, {A::make_string("map_form", "COO")}, "map_form 'COO'");
  expect_error("CastMap", {RuntimeValue::map(i64({0}), strs({"abc"}))}, {}, "abc");
  expect_error("CastMap", {RuntimeValue::map(i64({3, 3}), f32({1, 2}))}, {}, "key 3 twice");
  expect_error("CastMap", {RuntimeValue::map(strs({"a"}), f32({1}))}, {}, "keys must be int64");
  expect_error("CastMap", {f32({1})}, {}, "must be a map");
}

// ---------------------------------------------------------------- CategoryMapper

TEST(MlCategoryMapper, MapsBothWaysWithDefaults) {
  const std::vector<A> cats = {A::make_strings("cats_strings", {"a", "b", "c"}),
                               A::make_ints("cats_int64s", {1, 2, 3})};
  // strings -> ints: "b" -> 2, "z" unknown -> default_int64 (-1), "a" -> 1.
  auto out = ml("CategoryMapper", {strs({"b", "z", "a"})}, cats);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(2, -1, 1));
  std::vector<A> with_default = cats;
  with_default.push_back(A::make_int("default_int64", 99));
  out = ml("CategoryMapper", {strs({"z"})}, with_default);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(99));
  // ints -> strings keep the shape: 3 -> "c", 7 unknown -> "_Unused".
  out = ml("CategoryMapper", {i64({3, 7}, {1, 2})}, cats);
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 2}));
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("c", "_Unused"));
}

TEST(MlCategoryMapper, MismatchedListsAreErrors) {
  expect_error("CategoryMapper", {strs({"a"})},
               {A::make_strings("cats_strings", {"a", "b"}), A::make_ints("cats_int64s", {1})},
               "cats_int64s has 1 entries but cats_strings has 2");
  expect_error("CategoryMapper", {f32({1})},
               {A::make_strings("cats_strings", {"a"}), A::make_ints("cats_int64s", {1})},
               "string or int64");
}

// ---------------------------------------------------------------- DictVectorizer

TEST(MlDictVectorizer, TheSpecExample) {
  // string_vocabulary ["a","c","b","z"], {"a": 4, "c": 8} -> [4, 8, 0, 0].
  auto out = ml("DictVectorizer", {RuntimeValue::map(strs({"c", "a"}), i64({8, 4}))},
                {A::make_strings("string_vocabulary", {"a", "c", "b", "z"})});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 4}));
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(4, 8, 0, 0));
}

TEST(MlDictVectorizer, IntegerKeysKeepTheValueTypeAndSkipUnknownKeys) {
  // int64_vocabulary [10, 20]: key 20 -> column 1; key 99 is not in it and is skipped.
  auto out = ml("DictVectorizer", {RuntimeValue::map(i64({20, 99}), f64({1.5, 7}))},
                {A::make_ints("int64_vocabulary", {10, 20})});
  EXPECT_THAT(values<double>(out[0]), ElementsAre(0.0, 1.5));
  out = ml("DictVectorizer", {RuntimeValue::map(i64({10}), strs({"x"}))},
           {A::make_ints("int64_vocabulary", {10, 20})});
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("x", ""));
}

TEST(MlDictVectorizer, VocabularyMustMatchTheKeys) {
  RuntimeValue m = RuntimeValue::map(strs({"a"}), f32({1}));
  expect_error("DictVectorizer", {m}, {A::make_ints("int64_vocabulary", {1})},
               "keys are string but the vocabulary is int64");
  expect_error("DictVectorizer", {m},
               {A::make_ints("int64_vocabulary", {1}), A::make_strings("string_vocabulary", {"a"})},
               "exactly one");
  expect_error("DictVectorizer", {m}, {}, "exactly one");
}

// ---------------------------------------------------------------- FeatureVectorizer

TEST(MlFeatureVectorizer, ConcatenatesColumnsPadsAndTruncates) {
  Tensor a = f64({1, 2, 3, 4}, {2, 2});  // [[1,2],[3,4]]
  Tensor b = f64({0.5, 1.5}, {2, 1});    // [[0.5],[1.5]]
  // inputdimensions [2, 1]: [[1,2,0.5],[3,4,1.5]] as float.
  auto out = ml("FeatureVectorizer", {a, b}, {A::make_ints("inputdimensions", {2, 1})});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2, 0.5f, 3, 4, 1.5f));
  // [3, 1]: a's missing third column is 0.
  out = ml("FeatureVectorizer", {a, b}, {A::make_ints("inputdimensions", {3, 1})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2, 0, 0.5f, 3, 4, 0, 1.5f));
  // [1, 1]: a's second column is dropped.
  out = ml("FeatureVectorizer", {a, b}, {A::make_ints("inputdimensions", {1, 1})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 0.5f, 3, 1.5f));
  // A 1-D input is one row.
  out = ml("FeatureVectorizer", {f32({7, 8})}, {A::make_ints("inputdimensions", {2})});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 2}));
}

TEST(MlFeatureVectorizer, MismatchesAreErrors) {
  expect_error("FeatureVectorizer", {f32({1, 2})}, {A::make_ints("inputdimensions", {1, 1})},
               "inputdimensions has 2 entries for 1 inputs");
  expect_error("FeatureVectorizer", {f32({1, 2}, {2, 1}), f32({1, 2, 3}, {3, 1})},
               {A::make_ints("inputdimensions", {1, 1})}, "input 1 has 3 rows but input 0 has 2");
  // The inputs are one variadic T1: their element types must agree.
  expect_error("FeatureVectorizer", {i64({1}), f64({1})}, {A::make_ints("inputdimensions", {1, 1})},
               "input 1 is double but input 0 is int64");
}

// ---------------------------------------------------------------- Imputer

TEST(MlImputer, ReplacesPerFeatureIncludingNaN) {
  // replaced NaN, imputed [10, 20] per feature: [[1,NaN],[NaN,4]] -> [[1,20],[10,4]].
  auto out = ml("Imputer", {f32({1, kNaN, kNaN, 4}, {2, 2})},
                {A::make_float("replaced_value_float", kNaN),
                 A::make_floats("imputed_value_floats", {10, 20})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 20, 10, 4));
  // int64 with one imputed value for every feature: 0 -> 7.
  out = ml("Imputer", {i64({0, 5, 0})},
           {A::make_int("replaced_value_int64", 0), A::make_ints("imputed_value_int64s", {7})});
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(7, 5, 7));
  // double compares with the float attribute widened: -1 -> 0.25.
  out = ml(
      "Imputer", {f64({-1, 2})},
      {A::make_float("replaced_value_float", -1), A::make_floats("imputed_value_floats", {0.25f})});
  EXPECT_THAT(values<double>(out[0]), ElementsAre(0.25, 2.0));
}

TEST(MlImputer, ImputedListMustFitTheFeatures) {
  expect_error("Imputer", {f32({1, 2}, {1, 2})},
               {A::make_floats("imputed_value_floats", {1, 2, 3})},
               "imputed_value_floats has 3 entries; it needs 1 or one per feature (2)");
  // A float input with only the integer list given has no float list.
  expect_error("Imputer", {f32({1})}, {A::make_ints("imputed_value_int64s", {1})},
               "imputed_value_floats has 0 entries");
}

// ---------------------------------------------------------------- LabelEncoder

TEST(MlLabelEncoder, Version1IndexesClassesStrings) {
  const A classes = A::make_strings("classes_strings", {"a", "b", "c"});
  // "c" is at index 2, "a" at 0, "q" is absent -> default_int64 -1.
  auto out = ml("LabelEncoder", {strs({"c", "a", "q"})}, {classes});
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(2, 0, -1));
  // 1 -> "b"; 5 and -1 are out of range -> default_string.
  out = ml("LabelEncoder", {i64({1, 5, -1})}, {classes, A::make_string("default_string", "none")});
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("b", "none", "none"));
}

TEST(MlLabelEncoder, Version2TheSpecExample) {
  // keys ["Amy","Sally"] -> [5, 6], default -1:
  // ["Dori","Amy","Amy","Sally","Sally"] -> [-1, 5, 5, 6, 6].
  auto out = ml("LabelEncoder", {strs({"Dori", "Amy", "Amy", "Sally", "Sally"})},
                {A::make_strings("keys_strings", {"Amy", "Sally"}),
                 A::make_ints("values_int64s", {5, 6}), A::make_int("default_int64", -1)},
                1, 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(-1, 5, 5, 6, 6));
}

TEST(MlLabelEncoder, Version2FloatKeysCompareBits) {
  // NaN is a key like any other; "2" is not a key -> default_string.
  auto out = ml("LabelEncoder", {f32({kNaN, 1, 2})},
                {A::make_floats("keys_floats", {kNaN, 1}),
                 A::make_strings("values_strings", {"missing", "one"})},
                1, 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("missing", "one", "_Unused"));
  // 0.0 and -0.0 differ bitwise: only +0 maps to 1.
  out = ml("LabelEncoder", {f32({-0.0f, 0.0f})},
           {A::make_floats("keys_floats", {0.0f}), A::make_ints("values_int64s", {1})}, 1, 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(-1, 1));
  // default_float defaults to -0.0 (the schema's default).
  out = ml("LabelEncoder", {i64({1, 2})},
           {A::make_ints("keys_int64s", {1}), A::make_floats("values_floats", {0.5f})}, 1, 2);
  const std::vector<float> v = values<float>(out[0]);
  EXPECT_EQ(v[0], 0.5f);
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_TRUE(std::signbit(v[1]));
  // The first of two equal keys wins.
  out = ml("LabelEncoder", {i64({4})},
           {A::make_ints("keys_int64s", {4, 4}), A::make_ints("values_int64s", {1, 2})}, 1, 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(1));
}

TEST(MlLabelEncoder, Version2BadAttributesAreErrors) {
  expect_error("LabelEncoder", {strs({"a"})},
               {A::make_strings("keys_strings", {"a", "b"}), A::make_ints("values_int64s", {1})},
               "2 keys but 1 values", 1, 2);
  expect_error("LabelEncoder", {strs({"a"})},
               {A::make_strings("keys_strings", {"a"}), A::make_ints("keys_int64s", {1}),
                A::make_ints("values_int64s", {1})},
               "exactly one of keys_strings", 1, 2);
  expect_error("LabelEncoder", {i64({1})},
               {A::make_strings("keys_strings", {"a"}), A::make_ints("values_int64s", {1})},
               "X is int64 but the keys are string", 1, 2);
}

TEST(MlLabelEncoder, Version4TakesTensorsOfMoreTypesAndADefaultTensor) {
  // double keys -> int32 values, an absent key -> default_tensor's 7.
  auto out = ml("LabelEncoder", {RuntimeValue(Tensor::from<double>({2.5, 9, 1}))},
                {A::make_tensor("keys_tensor", Tensor::from<double>({1, 2.5})),
                 A::make_tensor("values_tensor", Tensor::from<int32_t>({10, 20})),
                 A::make_tensor("default_tensor", Tensor::from<int32_t>({7}))},
                1, 4);
  EXPECT_THAT(values<int32_t>(out[0]), ElementsAre(20, 7, 10));
  // int16 values without default_tensor: -1, as for every integer type.
  out = ml("LabelEncoder", {strs({"x", "y"})},
           {A::make_strings("keys_strings", {"x"}),
            A::make_tensor("values_tensor", Tensor::from<int16_t>({3}))},
           1, 4);
  EXPECT_THAT(values<int16_t>(out[0]), ElementsAre(3, -1));
  expect_error(
      "LabelEncoder", {i64({1})},
      {A::make_ints("keys_int64s", {1}), A::make_tensor("keys_tensor", Tensor::from<int64_t>({1})),
       A::make_ints("values_int64s", {1})},
      "exactly one of keys_strings, keys_int64s, keys_floats, keys_tensor", 1, 4);
}

// ---------------------------------------------------------------- LinearClassifier

std::vector<A> three_class_linear(std::string transform = "NONE") {
  // W = [[1,0],[0,1],[-1,-1]], b = [0, 0.5, 1], labels [10, 20, 30].
  return {A::make_floats("coefficients", {1, 0, 0, 1, -1, -1}),
          A::make_floats("intercepts", {0, 0.5f, 1}),
          A::make_ints("classlabels_ints", {10, 20, 30}),
          A::make_string("post_transform", transform)};
}

TEST(MlLinearClassifier, MulticlassTakesTheTopScore) {
  // x = [2,1]: scores [2, 1 + 0.5, -3 + 1] = [2, 1.5, -2] -> 10.
  // x = [0,0]: scores [0, 0.5, 1] -> 30.
  auto out = ml("LinearClassifier", {f32({2, 1, 0, 0}, {2, 2})}, three_class_linear(), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(10, 30));
  EXPECT_EQ(shape_of(out[1]), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(floats_of(out[1]), near({2, 1.5, -2, 0, 0.5, 1}));
  // SOFTMAX of [2, 1.5, -2]: exp(0), exp(-0.5), exp(-4) = 1, 0.60653, 0.01832;
  // sum 1.62485 -> [0.615443, 0.373285, 0.011272]. The label is unchanged.
  out = ml("LinearClassifier", {f32({2, 1})}, three_class_linear("SOFTMAX"), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(10));
  EXPECT_THAT(floats_of(out[1]), near({0.6154428, 0.3732849, 0.0112722}));
  // Integer features work the same; a tie picks the first class:
  // x = [1, 1] with W rows [1,0] and [0,1], b = 0 -> [1, 1] -> "a".
  out = ml("LinearClassifier", {i64({1, 1})},
           {A::make_floats("coefficients", {1, 0, 0, 1}),
            A::make_strings("classlabels_strings", {"a", "b"})},
           2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("a"));
}

TEST(MlLinearClassifier, BinaryWithOneCoefficientRow) {
  // w = [1, -1], b = 0.5: x = [1,3] -> s = -1.5 -> "neg", Z = [1.5, -1.5];
  // x = [3,1] -> s = 2.5 -> "pos", Z = [-2.5, 2.5].
  std::vector<A> attrs = {A::make_floats("coefficients", {1, -1}),
                          A::make_floats("intercepts", {0.5f}),
                          A::make_strings("classlabels_strings", {"neg", "pos"})};
  auto out = ml("LinearClassifier", {f32({1, 3, 3, 1}, {2, 2})}, attrs, 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("neg", "pos"));
  EXPECT_THAT(floats_of(out[1]), near({1.5, -1.5, -2.5, 2.5}));
  // LOGISTIC of [1.5, -1.5] = [0.817574, 0.182426].
  attrs.push_back(A::make_string("post_transform", "LOGISTIC"));
  out = ml("LinearClassifier", {f32({1, 3})}, attrs, 2);
  EXPECT_THAT(floats_of(out[1]), near({0.8175745, 0.1824255}));
}

TEST(MlLinearClassifier, ShapesMustAgree) {
  expect_error(
      "LinearClassifier", {f32({1, 2})},
      {A::make_floats("coefficients", {1, 2, 3}), A::make_ints("classlabels_ints", {0, 1})},
      "3 coefficients are not a whole number of rows of 2 features", 2);
  expect_error("LinearClassifier", {f32({1, 2})},
               {A::make_floats("coefficients", {1, 2, 3, 4}), A::make_floats("intercepts", {1}),
                A::make_ints("classlabels_ints", {0, 1})},
               "1 intercepts for 2 coefficient rows", 2);
  expect_error(
      "LinearClassifier", {f32({1, 2})},
      {A::make_floats("coefficients", {1, 2, 3, 4}), A::make_ints("classlabels_ints", {0, 1, 2})},
      "2 score columns for 3 class labels", 2);
  expect_error("LinearClassifier", {f32({1, 2})},
               {A::make_floats("coefficients", {1, 2}), A::make_ints("classlabels_ints", {0, 1}),
                A::make_strings("classlabels_strings", {"a", "b"})},
               "exactly one of", 2);
  expect_error("LinearClassifier", {f32({1, 2})},
               {A::make_floats("coefficients", {1, 2}), A::make_ints("classlabels_ints", {0, 1}),
                A::make_string("post_transform", "TANH")},
               "post_transform 'TANH'", 2);
}

// ---------------------------------------------------------------- LinearRegressor

TEST(MlLinearRegressor, TwoTargets) {
  // W = [[1,2],[3,4]], b = [1,-1]; x = [1,1] -> [1+2+1, 3+4-1] = [4, 6].
  auto out = ml("LinearRegressor", {f32({1, 1})},
                {A::make_floats("coefficients", {1, 2, 3, 4}),
                 A::make_floats("intercepts", {1, -1}), A::make_int("targets", 2)});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(4, 6));
  expect_error("LinearRegressor", {f32({1, 1})},
               {A::make_floats("coefficients", {1, 2, 3}), A::make_int("targets", 2)},
               "3 coefficients for 2 targets of 2 features; expected 4");
  expect_error("LinearRegressor", {f32({1, 1})},
               {A::make_floats("coefficients", {1, 2}), A::make_int("targets", INT64_MAX / 2)},
               "coefficients for");
}

// Every post_transform on one score row [0, 1, 2] (identity weights).
TEST(MlPostTransform, EveryVariantOnOneRow) {
  auto run = [](std::string transform, Tensor x) {
    return floats_of(
        ml("LinearRegressor", {x},
           {A::make_floats("coefficients", {1, 0, 0, 0, 1, 0, 0, 0, 1}), A::make_int("targets", 3),
            A::make_string("post_transform", transform)})[0]);
  };
  Tensor x = f32({0, 1, 2});
  EXPECT_THAT(run("NONE", x), near({0, 1, 2}));
  // 1/(1+e^-s): 0.5, 0.731059, 0.880797.
  EXPECT_THAT(run("LOGISTIC", x), near({0.5, 0.7310586, 0.8807971}));
  // e^(s-2) / (e^-2 + e^-1 + 1): 0.090031, 0.244728, 0.665241.
  EXPECT_THAT(run("SOFTMAX", x), near({0.0900306, 0.2447285, 0.6652410}));
  // The zero stays 0; the rest is the softmax of [1, 2]: 0.268941, 0.731059.
  EXPECT_THAT(run("SOFTMAX_ZERO", x), near({0, 0.2689414, 0.7310586}));
  // A row of zeros stays zeros under SOFTMAX_ZERO.
  EXPECT_THAT(run("SOFTMAX_ZERO", f32({0, 0, 0})), near({0, 0, 0}));
  // Standard normal quantiles: Phi^-1(0.5) = 0, Phi^-1(0.8413447) = 1.0,
  // Phi^-1(0.025) = -1.959964 (to double precision, not an approximation).
  EXPECT_THAT(run("PROBIT", f32({0.5f, 0.8413447f, 0.025f})), near({0, 1.0, -1.959964}, 2e-6));
}

// ---------------------------------------------------------------- Normalizer

TEST(MlNormalizer, MaxL1L2PerRow) {
  Tensor x = f32({1, -3, 2, 0, 0, 0}, {2, 3});
  auto run = [&](std::string norm) {
    return floats_of(ml("Normalizer", {x}, {A::make_string("norm", norm)})[0]);
  };
  // MAX: max = 2 -> [0.5, -1.5, 1]; the zero row has a zero divisor and stays.
  EXPECT_THAT(run("MAX"), near({0.5, -1.5, 1, 0, 0, 0}));
  // L1: |1| + |-3| + |2| = 6 -> [1/6, -1/2, 1/3].
  EXPECT_THAT(run("L1"), near({1.0 / 6, -0.5, 1.0 / 3, 0, 0, 0}));
  // L2: sqrt(1 + 9 + 4) = 3.741657 -> [0.267261, -0.801784, 0.534522].
  EXPECT_THAT(run("L2"), near({0.2672612, -0.8017837, 0.5345225, 0, 0, 0}));
  // Integer input gives float; a 1-D input is one row.
  auto out = ml("Normalizer", {i64({2, 4})}, {A::make_string("norm", "L1")});
  EXPECT_THAT(floats_of(out[0]), near({1.0 / 3, 2.0 / 3}));
  expect_error("Normalizer", {x}, {A::make_string("norm", "L3")}, "norm 'L3'");
  expect_error("Normalizer", {f32({1}, {1, 1, 1})}, {}, "rank 3");
}

// ---------------------------------------------------------------- OneHotEncoder

TEST(MlOneHotEncoder, AddsACategoryAxis) {
  // cats [1,3,5]; X [[3, 2]] -> [[[0,1,0], [0,0,0]]] (2 is in no category, zeros=1).
  auto out = ml("OneHotEncoder", {i64({3, 2}, {1, 2})}, {A::make_ints("cats_int64s", {1, 3, 5})});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 0, 0, 0, 0));
  // Floats are truncated to integers: 5.7 -> 5.
  out = ml("OneHotEncoder", {f64({5.7})}, {A::make_ints("cats_int64s", {1, 3, 5})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 0, 1));
  out = ml("OneHotEncoder", {strs({"b", "a"})}, {A::make_strings("cats_strings", {"a", "b"})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 1, 0));
}

TEST(MlOneHotEncoder, UnknownCategoryFailsWithoutZeros) {
  expect_error("OneHotEncoder", {i64({2})},
               {A::make_ints("cats_int64s", {1}), A::make_int("zeros", 0)}, "in no category");
  expect_error("OneHotEncoder", {strs({"a"})}, {A::make_ints("cats_int64s", {1})},
               "a string input needs cats_strings");
  expect_error("OneHotEncoder", {i64({1})}, {}, "exactly one of");
}

// ---------------------------------------------------------------- Scaler

TEST(MlScaler, OffsetThenScale) {
  // offset [1,2], scale [2,0.5]: [[3,4],[1,0]] -> [[(3-1)*2, (4-2)*0.5], [0, (0-2)*0.5]].
  auto out = ml("Scaler", {f32({3, 4, 1, 0}, {2, 2})},
                {A::make_floats("offset", {1, 2}), A::make_floats("scale", {2, 0.5f})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(4, 1, 0, -1));
  // One entry applies to every feature: (2-1)*3, (5-1)*3.
  out = ml("Scaler", {i64({2, 5})}, {A::make_floats("offset", {1}), A::make_floats("scale", {3})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(3, 12));
  expect_error("Scaler", {f32({1, 2})}, {A::make_floats("scale", {1, 2, 3})},
               "scale has 3 entries; it needs 1 or one per feature (2)");
}

// ---------------------------------------------------------------- SVMRegressor

TEST(MlSvmRegressor, LinearAndKernelModels) {
  // Linear (n_supports 0): <[1,3], [2,-1]> + 0.5 = -0.5.
  auto out = ml("SVMRegressor", {f32({1, 3})},
                {A::make_floats("coefficients", {2, -1}), A::make_floats("rho", {0.5f})});
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 1}));
  EXPECT_THAT(floats_of(out[0]), near({-0.5}));
  // RBF, gamma 0.5, support vectors [0,0] and [1,1] with coefficients 1, -1, rho 0.1:
  //   x = [1,0]: |x-sv|^2 = 1 and 1 -> e^-0.5 - e^-0.5 + 0.1 = 0.1;
  //   x = [0,0]: 0 and 2 -> 1 - e^-1 + 0.1 = 0.732121;
  //   x = [1,1]: 2 and 0 -> e^-1 - 1 + 0.1 = -0.532121.
  std::vector<A> rbf = {A::make_int("n_supports", 2),
                        A::make_floats("support_vectors", {0, 0, 1, 1}),
                        A::make_floats("coefficients", {1, -1}),
                        A::make_floats("rho", {0.1f}),
                        A::make_string("kernel_type", "RBF"),
                        A::make_floats("kernel_params", {0.5f, 0, 0})};
  Tensor x = f32({1, 0, 0, 0, 1, 1}, {3, 2});
  EXPECT_THAT(floats_of(ml("SVMRegressor", {x}, rbf)[0]), near({0.1, 0.7321206, -0.5321206}));
  // one_class: the sign of the same scores as 1 / -1.
  rbf.push_back(A::make_int("one_class", 1));
  EXPECT_THAT(floats_of(ml("SVMRegressor", {x}, rbf)[0]), near({1, 1, -1}));
  // POLY (gamma 1, coef0 1, degree 2), one vector [1,0], coefficient 2: x = [2,3]
  // -> <x,sv> = 2 -> 2 * (1*2 + 1)^2 = 18.
  out = ml("SVMRegressor", {f32({2, 3})},
           {A::make_int("n_supports", 1), A::make_floats("support_vectors", {1, 0}),
            A::make_floats("coefficients", {2}), A::make_floats("rho", {0}),
            A::make_string("kernel_type", "POLY"), A::make_floats("kernel_params", {1, 1, 2})});
  EXPECT_THAT(floats_of(out[0]), near({18}));
  // SIGMOID (gamma 0.5, coef0 0.25): tanh(0.5 * 2 + 0.25) = 0.848284.
  out = ml("SVMRegressor", {f32({2, 3})},
           {A::make_int("n_supports", 1), A::make_floats("support_vectors", {1, 0}),
            A::make_floats("coefficients", {1}), A::make_floats("rho", {0}),
            A::make_string("kernel_type", "SIGMOID"),
            A::make_floats("kernel_params", {0.5f, 0.25f, 0})});
  EXPECT_THAT(floats_of(out[0]), near({0.8482836}));
}

TEST(MlSvmRegressor, ShapesMustAgree) {
  expect_error("SVMRegressor", {f32({1, 2})},
               {A::make_int("n_supports", 2), A::make_floats("support_vectors", {0, 0, 1, 1}),
                A::make_floats("coefficients", {1, 2, 3}), A::make_floats("rho", {0})},
               "3 coefficients for 2 support vectors");
  expect_error("SVMRegressor", {f32({1, 2})},
               {A::make_int("n_supports", 2), A::make_floats("support_vectors", {0, 0, 1}),
                A::make_floats("coefficients", {1, 2}), A::make_floats("rho", {0})},
               "3 support_vectors values for 2 vectors of 2 features");
  expect_error("SVMRegressor", {f32({1, 2})}, {A::make_floats("coefficients", {1, 2})}, "rho");
  expect_error("SVMRegressor", {f32({1, 2})},
               {A::make_floats("coefficients", {1, 2}), A::make_floats("rho", {0}),
                A::make_string("kernel_type", "CUBIC")},
               "kernel_type 'CUBIC'");
  expect_error("SVMRegressor", {f32({1, 2})},
               {A::make_floats("coefficients", {1, 2}), A::make_floats("rho", {0}),
                A::make_floats("kernel_params", {1})},
               "kernel_params has 1 entries");
}

// ---------------------------------------------------------------- SVMClassifier

// Three classes with one support vector each on a line: class 0 at -1, class 1
// at 0, class 2 at 1 (LINEAR kernel, k_v = x * sv_v). Coefficient rows
// (libsvm layout [L-1, V]): row0 = [1, -1, -1], row1 = [1, 1, -1]. The pairs:
//   (0,1): rho0 + row0[0] k0 + row0[1] k1
//   (0,2): rho1 + row1[0] k0 + row0[2] k2
//   (1,2): rho2 + row1[1] k1 + row1[2] k2
std::vector<A> three_class_svc(std::vector<float> rho) {
  return {A::make_ints("classlabels_ints", {0, 1, 2}), A::make_ints("vectors_per_class", {1, 1, 1}),
          A::make_floats("support_vectors", {-1, 0, 1}),
          A::make_floats("coefficients", {1, -1, -1, 1, 1, -1}), A::make_floats("rho", rho)};
}

TEST(MlSvmClassifier, OneVsOneVoting) {
  // x = -2: k = [2, 0, -2]; (0,1): 2 > 0 votes 0; (0,2): 2 + 2 = 4 votes 0;
  //   (1,2): 0 + 2 = 2 votes 1 -> votes [2,1,0] -> class 0, Z = [2, 4, 2].
  // x = 2: k = [-2, 0, 2]; (0,1): -2 votes 1; (0,2): -4 votes 2; (1,2): -2
  //   votes 2 -> votes [0,1,2] -> class 2, Z = [-2, -4, -2].
  auto out = ml("SVMClassifier", {f32({-2, 2}, {2, 1})}, three_class_svc({0, 0, 0}), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(0, 2));
  EXPECT_EQ(shape_of(out[1]), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(floats_of(out[1]), near({2, 4, 2, -2, -4, -2}));
}

TEST(MlSvmClassifier, TiedVotesPickTheLowestClass) {
  // x = 0 makes every kernel 0, so s = rho: [1, -1, 1] -> (0,1) votes 0,
  // (0,2) votes 2, (1,2) votes 1 -> votes [1,1,1] -> class 0.
  auto out = ml("SVMClassifier", {f32({0}, {1, 1})}, three_class_svc({1, -1, 1}), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(0));
  // [-1, 1, -1]: (0,1) votes 1, (0,2) votes 0, (1,2) votes 2 -> tie again -> 0.
  out = ml("SVMClassifier", {f32({0}, {1, 1})}, three_class_svc({-1, 1, -1}), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(0));
}

TEST(MlSvmClassifier, ProbabilitiesByPairwiseCoupling) {
  // x = 0 again, so s_ij = rho_ij. With prob_a = -1, prob_b = 0 the Platt
  // estimate is r_ij = 1 / (1 + e^(-s)) = logistic(s). Choosing
  // rho = [ln(5/3), ln(5/2), ln(3/2)] gives r01 = 0.625, r02 = 5/7, r12 = 0.6,
  // which are p_i / (p_i + p_j) for p = [0.5, 0.3, 0.2]: the coupling's exact
  // solution. libsvm's iteration stops once |Qp - pQp| < 0.005 / 3, which
  // leaves about 1e-3 of error. Votes: every s > 0 -> [2, 1, 0] -> class 0.
  std::vector<A> attrs = three_class_svc({0.5108256f, 0.9162907f, 0.4054651f});
  attrs.push_back(A::make_floats("prob_a", {-1, -1, -1}));
  attrs.push_back(A::make_floats("prob_b", {0, 0, 0}));
  auto out = ml("SVMClassifier", {f32({0}, {1, 1})}, attrs, 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(0));
  EXPECT_EQ(shape_of(out[1]), (std::vector<int64_t>{1, 3}));
  EXPECT_THAT(floats_of(out[1]), near({0.5, 0.3, 0.2}, 2e-3));
  // All pairwise estimates 0.5 (rho 0): p = [1/3, 1/3, 1/3], already the start point.
  attrs = three_class_svc({0, 0, 0});
  attrs.push_back(A::make_floats("prob_a", {-1, -1, -1}));
  attrs.push_back(A::make_floats("prob_b", {0, 0, 0}));
  out = ml("SVMClassifier", {f32({0}, {1, 1})}, attrs, 2);
  EXPECT_THAT(floats_of(out[1]), near({1.0 / 3, 1.0 / 3, 1.0 / 3}));
}

TEST(MlSvmClassifier, BinaryScoresAndProbabilities) {
  // Two classes, vectors [1] (class 0) and [-1] (class 1), coefficients
  // [1, -1], rho 0.5: s = 0.5 + 1 * x + (-1) * (-x) = 0.5 + 2x.
  // x = 1: s = 2.5 > 0 votes class 0 -> "a", Z = [-2.5, 2.5];
  // x = -1: s = -1.5 votes class 1 -> "b", Z = [1.5, -1.5].
  std::vector<A> attrs = {A::make_strings("classlabels_strings", {"a", "b"}),
                          A::make_ints("vectors_per_class", {1, 1}),
                          A::make_floats("support_vectors", {1, -1}),
                          A::make_floats("coefficients", {1, -1}), A::make_floats("rho", {0.5f})};
  auto out = ml("SVMClassifier", {f32({1, -1}, {2, 1})}, attrs, 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("a", "b"));
  EXPECT_THAT(floats_of(out[1]), near({-2.5, 2.5, 1.5, -1.5}));
  // prob_a -1, prob_b 0: r01 = logistic(2.5) = 0.924142 and the coupling of
  // two classes is exactly [r01, 1 - r01].
  attrs.push_back(A::make_floats("prob_a", {-1}));
  attrs.push_back(A::make_floats("prob_b", {0}));
  out = ml("SVMClassifier", {f32({1}, {1, 1})}, attrs, 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("a"));
  EXPECT_THAT(floats_of(out[1]), near({0.9241418, 0.0758582}, 1e-6));
}

TEST(MlSvmClassifier, LinearModeScoresEachClass) {
  // No vectors_per_class: rows [1,0] and [0,1], one rho 0.5 for both:
  // x = [3,1] -> [3.5, 1.5] -> class 7.
  auto out = ml("SVMClassifier", {f32({3, 1})},
                {A::make_ints("classlabels_ints", {7, 8}),
                 A::make_floats("coefficients", {1, 0, 0, 1}), A::make_floats("rho", {0.5f})},
                2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(7));
  EXPECT_THAT(floats_of(out[1]), near({3.5, 1.5}));
}

TEST(MlSvmClassifier, ShapesMustAgree) {
  // Absurd counts are refused before any arithmetic on them can overflow.
  expect_error("SVMClassifier", {f32({0}, {1, 1})},
               {A::make_ints("classlabels_ints", {0, 1}),
                A::make_ints("vectors_per_class", {INT64_MAX, INT64_MAX}),
                A::make_floats("support_vectors", {1, 2}), A::make_floats("coefficients", {1, 2}),
                A::make_floats("rho", {0})},
               "more vectors than there are coefficients", 2);
  expect_error("SVMClassifier", {f32({0}, {1, 1})}, three_class_svc({0, 0}),
               "rho has 2 entries; 3 classes need one per pair (3)", 2);
  std::vector<A> attrs = three_class_svc({0, 0, 0});
  attrs.push_back(A::make_floats("prob_a", {1, 1, 1}));
  expect_error("SVMClassifier", {f32({0}, {1, 1})}, attrs, "prob_a has 3 entries but prob_b has 0",
               2);
  expect_error(
      "SVMClassifier", {f32({0}, {1, 1})},
      {A::make_ints("classlabels_ints", {0, 1, 2}), A::make_ints("vectors_per_class", {1, 2}),
       A::make_floats("support_vectors", {1, 2, 3}), A::make_floats("coefficients", {1, 2, 3}),
       A::make_floats("rho", {0, 0, 0})},
      "vectors_per_class has 2 entries for 3 class labels", 2);
  expect_error(
      "SVMClassifier", {f32({0}, {1, 1})},
      {A::make_ints("classlabels_ints", {0, 1, 2}), A::make_ints("vectors_per_class", {1, 1, 1}),
       A::make_floats("support_vectors", {1, 2, 3}), A::make_floats("coefficients", {1, 2, 3}),
       A::make_floats("rho", {0, 0, 0})},
      "3 coefficients; an SVC model of 3 classes and 3 vectors needs 6", 2);
}

// ---------------------------------------------------------------- TreeEnsembleRegressor

// Two trees over features [f0, f1]:
//   tree 0: node 0 "f0 <= 0.5" -> true: leaf 1, false: leaf 2
//   tree 1: node 0 "f1 > 2"    -> true: leaf 1, false: leaf 2
std::vector<A> two_trees(std::vector<int64_t> missing_tracks = {}) {
  std::vector<A> attrs = {
      A::make_ints("nodes_treeids", {0, 0, 0, 1, 1, 1}),
      A::make_ints("nodes_nodeids", {0, 1, 2, 0, 1, 2}),
      A::make_ints("nodes_featureids", {0, 0, 0, 1, 0, 0}),
      A::make_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "LEAF"}),
      A::make_floats("nodes_values", {0.5f, 0, 0, 2, 0, 0}),
      A::make_ints("nodes_truenodeids", {1, 0, 0, 1, 0, 0}),
      A::make_ints("nodes_falsenodeids", {2, 0, 0, 2, 0, 0})};
  if (!missing_tracks.empty())
    attrs.push_back(A::make_ints("nodes_missing_value_tracks_true", missing_tracks));
  return attrs;
}

// Leaf values: tree 0 leaf 1 -> 1, leaf 2 -> 2; tree 1 leaf 1 -> 10, leaf 2 -> 20.
std::vector<A> regressor(std::string aggregate, std::vector<int64_t> missing_tracks = {}) {
  std::vector<A> attrs = two_trees(missing_tracks);
  attrs.push_back(A::make_int("n_targets", 1));
  attrs.push_back(A::make_ints("target_treeids", {0, 0, 1, 1}));
  attrs.push_back(A::make_ints("target_nodeids", {1, 2, 1, 2}));
  attrs.push_back(A::make_ints("target_ids", {0, 0, 0, 0}));
  attrs.push_back(A::make_floats("target_weights", {1, 2, 10, 20}));
  attrs.push_back(A::make_string("aggregate_function", aggregate));
  return attrs;
}

TEST(MlTreeEnsembleRegressor, TracesEachTreeAndAggregates) {
  // x = [0.5, 3]: tree 0: 0.5 <= 0.5 -> leaf 1 (1); tree 1: 3 > 2 -> leaf 1 (10).
  // x = [0.7, 2]: tree 0: false -> leaf 2 (2); tree 1: 2 > 2 false -> leaf 2 (20).
  Tensor x = f32({0.5f, 3, 0.7f, 2}, {2, 2});
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("SUM"))[0]), near({11, 22}));
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("AVERAGE"))[0]),
              near({5.5, 11}));
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("MIN"))[0]), near({1, 2}));
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("MAX"))[0]), near({10, 20}));
  // base_values adds after aggregation: 11 + 100, 22 + 100.
  std::vector<A> with_base = regressor("SUM");
  with_base.push_back(A::make_floats("base_values", {100}));
  auto out = ml("TreeEnsembleRegressor", {x}, with_base);
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{2, 1}));
  EXPECT_THAT(floats_of(out[0]), near({111, 122}));
  // Opset 3 is the same kernel.
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("SUM"), 1, 3)[0]),
              near({11, 22}));
}

TEST(MlTreeEnsembleRegressor, MissingValuesFollowTheirTrack) {
  // x = [NaN, 3]: tree 0 sees NaN at its root. With no tracks (default false)
  // it goes to the false leaf (2) -> 2 + 10 = 12; with the root's track true,
  // to leaf 1 -> 1 + 10 = 11.
  Tensor x = f32({kNaN, 3});
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("SUM"))[0]), near({12}));
  EXPECT_THAT(floats_of(ml("TreeEnsembleRegressor", {x}, regressor("SUM", {1, 0, 0, 0, 0, 0}))[0]),
              near({11}));
}

// One tree, root "f0 <mode> 1" with leaves 1 (true, weight 1) and 2 (false, weight 0).
std::vector<float> one_split(std::string mode, Tensor x, int64_t missing_track = 0) {
  return values<float>(
      ml("TreeEnsembleRegressor", {x},
         {A::make_ints("nodes_treeids", {0, 0, 0}), A::make_ints("nodes_nodeids", {0, 1, 2}),
          A::make_ints("nodes_featureids", {0, 0, 0}),
          A::make_strings("nodes_modes", {mode, "LEAF", "LEAF"}),
          A::make_floats("nodes_values", {1, 0, 0}), A::make_ints("nodes_truenodeids", {1, 0, 0}),
          A::make_ints("nodes_falsenodeids", {2, 0, 0}),
          A::make_ints("nodes_missing_value_tracks_true", {missing_track, 0, 0}),
          A::make_int("n_targets", 1), A::make_ints("target_treeids", {0, 0}),
          A::make_ints("target_nodeids", {1, 2}), A::make_ints("target_ids", {0, 0}),
          A::make_floats("target_weights", {1, 0})})[0]);
}

TEST(MlTreeEnsembleRegressor, EveryBranchMode) {
  // Rows 0, 1, 2 against threshold 1: 1 where the comparison holds.
  Tensor x = f32({0, 1, 2}, {3, 1});
  EXPECT_THAT(one_split("BRANCH_LEQ", x), ElementsAre(1, 1, 0));
  EXPECT_THAT(one_split("BRANCH_LT", x), ElementsAre(1, 0, 0));
  EXPECT_THAT(one_split("BRANCH_GTE", x), ElementsAre(0, 1, 1));
  EXPECT_THAT(one_split("BRANCH_GT", x), ElementsAre(0, 0, 1));
  EXPECT_THAT(one_split("BRANCH_EQ", x), ElementsAre(0, 1, 0));
  EXPECT_THAT(one_split("BRANCH_NEQ", x), ElementsAre(1, 0, 1));
  // NaN follows the track even for NEQ (where NaN != 1 would be true).
  EXPECT_THAT(one_split("BRANCH_NEQ", f32({kNaN}, {1, 1})), ElementsAre(0));
  EXPECT_THAT(one_split("BRANCH_NEQ", f32({kNaN}, {1, 1}), 1), ElementsAre(1));
  // Integer features compare as numbers.
  EXPECT_THAT(one_split("BRANCH_LEQ", i64({1, 2}, {2, 1})), ElementsAre(1, 0));
}

TEST(MlTreeEnsembleRegressor, MultipleTargetsAndDoubleThresholdsInOpset3) {
  // nodes_values_as_tensor holds the threshold 0.1 in double. x = 0.100000001
  // (double) is above it, so "x <= 0.1" is false (weight 5 at leaf 2); as a
  // float 0.1f = 0.10000000149 the test would be true. Leaf 2 also votes 7
  // for target 1.
  std::vector<A> attrs = {A::make_ints("nodes_treeids", {0, 0, 0}),
                          A::make_ints("nodes_nodeids", {0, 1, 2}),
                          A::make_ints("nodes_featureids", {0, 0, 0}),
                          A::make_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
                          A::make_tensor("nodes_values_as_tensor", f64({0.1, 0, 0})),
                          A::make_ints("nodes_truenodeids", {1, 0, 0}),
                          A::make_ints("nodes_falsenodeids", {2, 0, 0}),
                          A::make_int("n_targets", 2),
                          A::make_ints("target_treeids", {0, 0, 0}),
                          A::make_ints("target_nodeids", {1, 2, 2}),
                          A::make_ints("target_ids", {0, 0, 1}),
                          A::make_tensor("target_weights_as_tensor", f64({1, 5, 7}))};
  auto out = ml("TreeEnsembleRegressor", {f64({0.100000001})}, attrs, 1, 3);
  EXPECT_EQ(shape_of(out[0]), (std::vector<int64_t>{1, 2}));
  EXPECT_THAT(floats_of(out[0]), near({5, 7}));
  // Opset 1 does not know the _as_tensor forms: the thresholds are missing.
  expect_error("TreeEnsembleRegressor", {f64({0.1})}, attrs, "nodes_values has 0 entries", 1, 1);
  // Both forms at once is an error.
  attrs.push_back(A::make_floats("nodes_values", {0.1f, 0, 0}));
  expect_error("TreeEnsembleRegressor", {f64({0.1})}, attrs, "not both", 1, 3);
}

TEST(MlTreeEnsembleRegressor, MalformedTreesAreErrors) {
  Tensor x = f32({1, 1});
  auto with = [](std::vector<A> attrs, A replacement) {
    bool replaced = false;
    for (A& a : attrs)
      if (a.name == replacement.name) {
        a = replacement;
        replaced = true;
      }
    EXPECT_TRUE(replaced) << replacement.name;
    return attrs;
  };
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_ints("nodes_nodeids", {0, 1, 2})),
               "nodes_nodeids has 3 entries but nodes_treeids has 6");
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_ints("nodes_truenodeids", {9, 0, 0, 1, 0, 0})),
               "true child 9, which is not a node of the tree");
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_ints("nodes_featureids", {0, 0, 0, 5, 0, 0})),
               "reads feature 5, but X has 2 features");
  expect_error(
      "TreeEnsembleRegressor", {x},
      with(regressor("SUM"), A::make_strings("nodes_modes", {"BRANCH_XX", "LEAF", "LEAF",
                                                             "BRANCH_GT", "LEAF", "LEAF"})),
      "'BRANCH_XX' is not a known mode");
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_ints("target_ids", {0, 0, 0, 1})),
               "target_ids entry 1 is outside [0, 1)");
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_ints("target_nodeids", {1, 2, 1, 7})),
               "node 7 of tree 1, which does not exist");
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_floats("target_weights", {1})), "differ in length");
  expect_error("TreeEnsembleRegressor", {x},
               with(regressor("SUM"), A::make_string("aggregate_function", "MEDIAN")),
               "aggregate_function 'MEDIAN'");
  std::vector<A> two_bases = regressor("SUM");
  two_bases.push_back(A::make_floats("base_values", {1, 2}));
  expect_error("TreeEnsembleRegressor", {x}, two_bases, "base_values has 2 entries for 1 targets");
  std::vector<A> no_targets = regressor("SUM");
  std::erase_if(no_targets, [](const A& a) { return a.name == "n_targets"; });
  expect_error("TreeEnsembleRegressor", {x}, no_targets, "n_targets must be given");
  // A cycle: tree 0's node 1 is a branch whose true child is the root.
  std::vector<A> cyclic =
      with(regressor("SUM"), A::make_strings("nodes_modes", {"BRANCH_LEQ", "BRANCH_LEQ", "LEAF",
                                                             "BRANCH_GT", "LEAF", "LEAF"}));
  cyclic = with(cyclic, A::make_ints("nodes_truenodeids", {1, 0, 0, 1, 0, 0}));
  expect_error("TreeEnsembleRegressor", {f32({0, 0})}, cyclic, "cycle");
}

// ---------------------------------------------------------------- TreeEnsembleClassifier

// The two trees above voting for classes [7, 8, 9]:
//   tree 0 leaf 1: class 0 += 0.6, class 1 += 0.4;  leaf 2: class 2 += 1.0
//   tree 1 leaf 1: class 1 += 0.5;                  leaf 2: class 0 += 0.3, class 2 += 0.2
std::vector<A> three_class_trees(std::string transform = "NONE") {
  std::vector<A> attrs = two_trees();
  attrs.push_back(A::make_ints("classlabels_int64s", {7, 8, 9}));
  attrs.push_back(A::make_ints("class_treeids", {0, 0, 0, 1, 1, 1}));
  attrs.push_back(A::make_ints("class_nodeids", {1, 1, 2, 1, 2, 2}));
  attrs.push_back(A::make_ints("class_ids", {0, 1, 2, 1, 0, 2}));
  attrs.push_back(A::make_floats("class_weights", {0.6f, 0.4f, 1.0f, 0.5f, 0.3f, 0.2f}));
  attrs.push_back(A::make_string("post_transform", transform));
  return attrs;
}

TEST(MlTreeEnsembleClassifier, SumsVotesPerClass) {
  // x = [0.5, 3]: tree 0 leaf 1 [0.6, 0.4, 0] + tree 1 leaf 1 [0, 0.5, 0]
  //   = [0.6, 0.9, 0] -> class 8.
  // x = [1, 0]: tree 0 leaf 2 [0, 0, 1] + tree 1 leaf 2 [0.3, 0, 0.2]
  //   = [0.3, 0, 1.2] -> class 9.
  Tensor x = f32({0.5f, 3, 1, 0}, {2, 2});
  auto out = ml("TreeEnsembleClassifier", {x}, three_class_trees(), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(8, 9));
  EXPECT_EQ(shape_of(out[1]), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(floats_of(out[1]), near({0.6, 0.9, 0, 0.3, 0, 1.2}));
  // SOFTMAX of [0.6, 0.9, 0]: e^-0.3, 1, e^-0.9 over their sum -> [0.344986, 0.465682, 0.189332].
  out = ml("TreeEnsembleClassifier", {f32({0.5f, 3})}, three_class_trees("SOFTMAX"), 2);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(8));
  EXPECT_THAT(floats_of(out[1]), near({0.3449858, 0.4656821, 0.1893322}));
  // base_values [0.1, 0.2, 0.3]: [0.7, 1.1, 0.3] -> still 8; opset 3 the same.
  std::vector<A> with_base = three_class_trees();
  with_base.push_back(A::make_floats("base_values", {0.1f, 0.2f, 0.3f}));
  out = ml("TreeEnsembleClassifier", {f32({0.5f, 3})}, with_base, 2, 3);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(8));
  EXPECT_THAT(floats_of(out[1]), near({0.7, 1.1, 0.3}));
}

// One tree "f0 <= 0" with leaf 1 (true) and leaf 2 (false), every vote for
// class 0 of labels ["no", "yes"]: the binary case.
std::vector<A> binary_tree(float true_weight, float false_weight, std::string transform) {
  return {A::make_ints("nodes_treeids", {0, 0, 0}),
          A::make_ints("nodes_nodeids", {0, 1, 2}),
          A::make_ints("nodes_featureids", {0, 0, 0}),
          A::make_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
          A::make_floats("nodes_values", {0, 0, 0}),
          A::make_ints("nodes_truenodeids", {1, 0, 0}),
          A::make_ints("nodes_falsenodeids", {2, 0, 0}),
          A::make_strings("classlabels_strings", {"no", "yes"}),
          A::make_ints("class_treeids", {0, 0}),
          A::make_ints("class_nodeids", {1, 2}),
          A::make_ints("class_ids", {0, 0}),
          A::make_floats("class_weights", {true_weight, false_weight}),
          A::make_string("post_transform", transform)};
}

TEST(MlTreeEnsembleClassifier, BinaryCaseWithOneClassWeight) {
  Tensor x = f32({-1, 1}, {2, 1});
  // Margins (a negative weight), base 0.1: x = -1 -> s = -1.2 + 0.1 = -1.1,
  // x = 1 -> s = 0.8 + 0.1 = 0.9. NONE: Z = [-s, s], "yes" when s > 0.
  std::vector<A> attrs = binary_tree(-1.2f, 0.8f, "NONE");
  attrs.push_back(A::make_floats("base_values", {0.1f}));
  auto out = ml("TreeEnsembleClassifier", {x}, attrs, 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("no", "yes"));
  EXPECT_THAT(floats_of(out[1]), near({1.1, -1.1, -0.9, 0.9}));
  // LOGISTIC: [logistic(-s), logistic(s)] = [0.750260, 0.249740], [0.289050, 0.710950].
  attrs = binary_tree(-1.2f, 0.8f, "LOGISTIC");
  attrs.push_back(A::make_floats("base_values", {0.1f}));
  out = ml("TreeEnsembleClassifier", {x}, attrs, 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("no", "yes"));
  EXPECT_THAT(floats_of(out[1]), near({0.7502601, 0.2497399, 0.2890505, 0.7109495}));
  // Probabilities (weights all >= 0, NONE): s = 0.3 and 0.8, Z = [1 - s, s],
  // "yes" when s > 0.5.
  out = ml("TreeEnsembleClassifier", {x}, binary_tree(0.3f, 0.8f, "NONE"), 2);
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("no", "yes"));
  EXPECT_THAT(floats_of(out[1]), near({0.7, 0.3, 0.2, 0.8}));
}

TEST(MlTreeEnsembleClassifier, Opset3TensorWeightsAndMissingValues) {
  // The three-class ensemble with class_weights as a double tensor, and a NaN
  // f0 whose root tracks the true branch: x = [NaN, 0] -> tree 0 leaf 1
  // [0.6, 0.4, 0] + tree 1 leaf 2 [0.3, 0, 0.2] = [0.9, 0.4, 0.2] -> 7.
  std::vector<A> attrs = three_class_trees();
  for (A& a : attrs)
    if (a.name == "class_weights")
      a = A::make_tensor("class_weights_as_tensor", f64({0.6, 0.4, 1.0, 0.5, 0.3, 0.2}));
  attrs.push_back(A::make_ints("nodes_missing_value_tracks_true", {1, 0, 0, 0, 0, 0}));
  auto out = ml("TreeEnsembleClassifier", {f32({kNaN, 0})}, attrs, 2, 3);
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(7));
  EXPECT_THAT(floats_of(out[1]), near({0.9, 0.4, 0.2}));
}

TEST(MlTreeEnsembleClassifier, BadAttributesAreErrors) {
  Tensor x = f32({1, 1});
  std::vector<A> attrs = three_class_trees();
  attrs.push_back(A::make_floats("base_values", {1, 2}));
  expect_error("TreeEnsembleClassifier", {x}, attrs, "base_values has 2 entries for 3 classes", 2);
  attrs = three_class_trees();
  for (A& a : attrs)
    if (a.name == "class_ids") a = A::make_ints("class_ids", {0, 1, 3, 1, 0, 2});
  expect_error("TreeEnsembleClassifier", {x}, attrs, "class_ids entry 3 is outside [0, 3)", 2);
  attrs = three_class_trees();
  attrs.push_back(A::make_strings("classlabels_strings", {"a", "b", "c"}));
  expect_error("TreeEnsembleClassifier", {x}, attrs, "exactly one of", 2);
  expect_error("TreeEnsembleClassifier", {f32({1}, {1, 1, 1})}, three_class_trees(), "rank 3", 2);
}

// ---------------------------------------------------------------- ZipMap

TEST(MlZipMap, OneMapPerRow) {
  // [[0.2, 0.8], [0.6, 0.4]] with labels ["a", "b"] -> [{a: 0.2, b: 0.8}, {a: 0.6, b: 0.4}].
  auto out = ml("ZipMap", {f32({0.2f, 0.8f, 0.6f, 0.4f}, {2, 2})},
                {A::make_strings("classlabels_strings", {"a", "b"})});
  ASSERT_TRUE(out[0].is_sequence());
  const auto& maps = out[0].sequence().items;
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(out[0].sequence().elem_type.to_string(), "map(string, float)");
  EXPECT_THAT(values<std::string>(maps[0].map().keys), ElementsAre("a", "b"));
  EXPECT_THAT(values<float>(maps[0].map().values), ElementsAre(0.2f, 0.8f));
  EXPECT_THAT(values<float>(maps[1].map().values), ElementsAre(0.6f, 0.4f));
  // int64 keys; a 1-D X is one row.
  out = ml("ZipMap", {f32({1, 2})}, {A::make_ints("classlabels_int64s", {5, 6})});
  ASSERT_EQ(out[0].sequence().items.size(), 1u);
  EXPECT_THAT(values<int64_t>(out[0].sequence().items[0].map().keys), ElementsAre(5, 6));
  expect_error("ZipMap", {f32({1, 2, 3})}, {A::make_ints("classlabels_int64s", {5, 6})},
               "X has 3 columns but there are 2 labels");
  expect_error("ZipMap", {f64({1, 2})}, {A::make_ints("classlabels_int64s", {5, 6})},
               "float tensor");
}

}  // namespace
}  // namespace onnxscript::eval
