// Hand-checked reference cases for the ai.onnx.ml operators, which the ONNX
// backend node suite does not cover at all. Each case runs in our Session and,
// when its inputs and outputs are tensors, in ONNX Runtime 1.30, against
// outputs derived by hand from the specification (the arithmetic is in the
// comments). ONNX Runtime's Node.js binding cannot pass maps or sequences, so
// CastMap, DictVectorizer and ZipMap run in our Session only. Cases where ONNX
// Runtime departs from the spec (or where the spec is silent and ONNX Runtime
// is inconsistent) run in our Session only and say why.
#include <gtest/gtest.h>

#include <limits>

#include "interop/reference_case.h"

namespace onnxscript::testing {
namespace {

using eval::RuntimeValue;
using ir::Attribute;
using ir::DataType;
using ir::Tensor;
using ir::Type;
using A = Attribute;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr const char* kMl = "ai.onnx.ml";
constexpr const char* kNoMaps =
    "ONNX Runtime's Node.js binding passes tensors only, not maps or sequences";

Type tensor(DataType dtype) { return Type::tensor(dtype); }
const Type kFloat = tensor(DataType::kFloat);
const Type kDouble = tensor(DataType::kDouble);
const Type kInt64 = tensor(DataType::kInt64);
const Type kString = tensor(DataType::kString);

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

// A case of one ml node with inputs X (and more) and the given outputs.
ReferenceCase ml_case(std::string name, const std::string& op, int64_t version,
                      std::vector<std::pair<std::string, Type>> inputs,
                      std::vector<std::pair<std::string, Type>> outputs, std::vector<A> attrs) {
  ReferenceCase c;
  c.name = std::move(name);
  c.model = single_node_model(kMl, op, version, inputs, outputs, std::move(attrs));
  return c;
}

// ---------------------------------------------------------------- feature operators

TEST(MlReference, ArrayFeatureExtractor) {
  // Rows [1,2,3], [4,5,6], columns 2 then 0 -> [[3,1],[6,4]].
  ReferenceCase c = ml_case("ArrayFeatureExtractor", "ArrayFeatureExtractor", 1,
                            {{"X", kFloat}, {"Y", kInt64}}, {{"Z", kFloat}}, {});
  c.inputs = {f32({1, 2, 3, 4, 5, 6}, {2, 3}), i64({2, 0})};
  c.expected = {f32({3, 1, 6, 4}, {2, 2})};
  expect_reference_case(c);
  // A 1-D string X gives one row: ["a","b","c"][1, 1] -> [["b","b"]].
  c = ml_case("ArrayFeatureExtractor strings", "ArrayFeatureExtractor", 1,
              {{"X", kString}, {"Y", kInt64}}, {{"Z", kString}}, {});
  c.inputs = {strs({"a", "b", "c"}), i64({1, 1})};
  c.expected = {strs({"b", "b"}, {1, 2})};
  expect_reference_case(c);
}

TEST(MlReference, Binarizer) {
  // threshold 0.5: only values strictly above it become 1.
  ReferenceCase c = ml_case("Binarizer", "Binarizer", 1, {{"X", kFloat}}, {{"Y", kFloat}},
                            {A::make_float("threshold", 0.5f)});
  c.inputs = {f32({-1, 0.5f, 0.6f, 2})};
  c.expected = {f32({0, 0, 1, 1})};
  expect_reference_case(c);
}

TEST(MlReference, CategoryMapper) {
  const std::vector<A> cats = {A::make_strings("cats_strings", {"a", "b", "c"}),
                               A::make_ints("cats_int64s", {1, 2, 3})};
  // "b" -> 2, "z" -> default_int64 -1, "a" -> 1.
  ReferenceCase c = ml_case("CategoryMapper to int", "CategoryMapper", 1, {{"X", kString}},
                            {{"Y", kInt64}}, cats);
  c.inputs = {strs({"b", "z", "a"})};
  c.expected = {i64({2, -1, 1})};
  expect_reference_case(c);
  // 3 -> "c", 7 -> default_string "_Unused".
  c = ml_case("CategoryMapper to string", "CategoryMapper", 1, {{"X", kInt64}}, {{"Y", kString}},
              cats);
  c.inputs = {i64({3, 7})};
  c.expected = {strs({"c", "_Unused"})};
  expect_reference_case(c);
}

TEST(MlReference, FeatureVectorizer) {
  // [[1,2],[3,4]] beside [[0.5],[1.5]] (one element type: the inputs share
  // T1), inputdimensions [2, 1] -> [[1, 2, 0.5], [3, 4, 1.5]] as float. With
  // [3, 1] the first input's missing third column is 0.
  ReferenceCase c =
      ml_case("FeatureVectorizer", "FeatureVectorizer", 1, {{"A", kDouble}, {"B", kDouble}},
              {{"Y", kFloat}}, {A::make_ints("inputdimensions", {2, 1})});
  c.inputs = {f64({1, 2, 3, 4}, {2, 2}), f64({0.5, 1.5}, {2, 1})};
  c.expected = {f32({1, 2, 0.5f, 3, 4, 1.5f}, {2, 3})};
  expect_reference_case(c);
  c = ml_case("FeatureVectorizer padding", "FeatureVectorizer", 1, {{"A", kDouble}, {"B", kDouble}},
              {{"Y", kFloat}}, {A::make_ints("inputdimensions", {3, 1})});
  c.inputs = {f64({1, 2, 3, 4}, {2, 2}), f64({0.5, 1.5}, {2, 1})};
  c.expected = {f32({1, 2, 0, 0.5f, 3, 4, 0, 1.5f}, {2, 4})};
  expect_reference_case(c);
}

TEST(MlReference, Imputer) {
  // NaN is replaced per feature by [10, 20]: [[1,NaN],[NaN,4]] -> [[1,20],[10,4]].
  ReferenceCase c = ml_case("Imputer", "Imputer", 1, {{"X", kFloat}}, {{"Y", kFloat}},
                            {A::make_float("replaced_value_float", kNaN),
                             A::make_floats("imputed_value_floats", {10, 20})});
  c.inputs = {f32({1, kNaN, kNaN, 4}, {2, 2})};
  c.expected = {f32({1, 20, 10, 4}, {2, 2})};
  expect_reference_case(c);
  // int64, one imputed value for all features: 0 -> 7.
  c = ml_case("Imputer int64", "Imputer", 1, {{"X", kInt64}}, {{"Y", kInt64}},
              {A::make_int("replaced_value_int64", 0), A::make_ints("imputed_value_int64s", {7})});
  c.inputs = {i64({0, 5, 0, 1}, {2, 2})};
  c.expected = {i64({7, 5, 7, 1}, {2, 2})};
  expect_reference_case(c);
}

TEST(MlReference, LabelEncoder) {
  // Version 1: the index in classes_strings; "q" -> default_int64 -1.
  ReferenceCase c = ml_case("LabelEncoder v1", "LabelEncoder", 1, {{"X", kString}}, {{"Y", kInt64}},
                            {A::make_strings("classes_strings", {"a", "b", "c"})});
  c.inputs = {strs({"c", "a", "q"})};
  c.expected = {i64({2, 0, -1})};
  expect_reference_case(c);
  // Version 2, the spec's example.
  c = ml_case("LabelEncoder v2", "LabelEncoder", 2, {{"X", kString}}, {{"Y", kInt64}},
              {A::make_strings("keys_strings", {"Amy", "Sally"}),
               A::make_ints("values_int64s", {5, 6}), A::make_int("default_int64", -1)});
  c.inputs = {strs({"Dori", "Amy", "Amy", "Sally", "Sally"})};
  c.expected = {i64({-1, 5, 5, 6, 6})};
  expect_reference_case(c);
  // int64 -> float with the default: 1 -> 0.5, 2 -> default_float 7.
  c = ml_case("LabelEncoder v2 floats", "LabelEncoder", 2, {{"X", kInt64}}, {{"Y", kFloat}},
              {A::make_ints("keys_int64s", {1, 3}), A::make_floats("values_floats", {0.5f, 1.5f}),
               A::make_float("default_float", 7)});
  c.inputs = {i64({1, 2, 3})};
  c.expected = {f32({0.5f, 7, 1.5f})};
  expect_reference_case(c);
  // A NaN key: the spec compares keys bit for bit, "so even a float NaN can be
  // mapped", so NaN -> "missing".
  c = ml_case("LabelEncoder v2 NaN key", "LabelEncoder", 2, {{"X", kFloat}}, {{"Y", kString}},
              {A::make_floats("keys_floats", {kNaN, 1}),
               A::make_strings("values_strings", {"missing", "one"})});
  c.inputs = {f32({kNaN, 1, 2})};
  c.expected = {strs({"missing", "one", "_Unused"})};
  c.not_in_onnxruntime_because =
      "ONNX Runtime 1.30 looks float keys up by value, so NaN never matches and gets the "
      "default, against the spec's bit-wise rule";
  expect_reference_case(c);
}

TEST(MlReference, Normalizer) {
  // Row [1, -3, 2]: MAX / 2 -> [0.5, -1.5, 1]; L1 / 6 -> [1/6, -1/2, 1/3];
  // L2 / sqrt(14) -> [0.2672612, -0.8017837, 0.5345225]. Row [0, 0, 0] stays.
  const std::vector<std::pair<std::string, Tensor>> norms = {
      {"MAX", f32({0.5f, -1.5f, 1, 0, 0, 0}, {2, 3})},
      {"L1", f32({1.0f / 6, -0.5f, 1.0f / 3, 0, 0, 0}, {2, 3})},
      {"L2", f32({0.2672612f, -0.8017837f, 0.5345225f, 0, 0, 0}, {2, 3})}};
  for (const auto& [norm, expected] : norms) {
    ReferenceCase c = ml_case("Normalizer " + norm, "Normalizer", 1, {{"X", kFloat}},
                              {{"Y", kFloat}}, {A::make_string("norm", norm)});
    c.inputs = {f32({1, -3, 2, 0, 0, 0}, {2, 3})};
    c.expected = {expected};
    expect_reference_case(c);
  }
}

TEST(MlReference, OneHotEncoder) {
  // cats [1, 3, 5]: 3 -> [0,1,0], 2 -> no category -> zeros, 5 -> [0,0,1].
  ReferenceCase c = ml_case("OneHotEncoder", "OneHotEncoder", 1, {{"X", kInt64}}, {{"Y", kFloat}},
                            {A::make_ints("cats_int64s", {1, 3, 5})});
  c.inputs = {i64({3, 2, 5}, {1, 3})};
  c.expected = {f32({0, 1, 0, 0, 0, 0, 0, 0, 1}, {1, 3, 3})};
  expect_reference_case(c);
  c = ml_case("OneHotEncoder strings", "OneHotEncoder", 1, {{"X", kString}}, {{"Y", kFloat}},
              {A::make_strings("cats_strings", {"a", "b"})});
  c.inputs = {strs({"b", "a"}, {2, 1})};
  c.expected = {f32({0, 1, 1, 0}, {2, 1, 2})};
  expect_reference_case(c);
}

TEST(MlReference, Scaler) {
  // (x - [1, 2]) * [2, 0.5]: [[3,4],[1,0]] -> [[4, 1], [0, -1]].
  ReferenceCase c = ml_case("Scaler", "Scaler", 1, {{"X", kFloat}}, {{"Y", kFloat}},
                            {A::make_floats("offset", {1, 2}), A::make_floats("scale", {2, 0.5f})});
  c.inputs = {f32({3, 4, 1, 0}, {2, 2})};
  c.expected = {f32({4, 1, 0, -1}, {2, 2})};
  expect_reference_case(c);
}

// ---------------------------------------------------------------- linear models

std::vector<A> three_class_linear(const std::string& transform) {
  // W = [[1,0],[0,1],[-1,-1]], b = [0, 0.5, 1], labels [10, 20, 30].
  return {A::make_floats("coefficients", {1, 0, 0, 1, -1, -1}),
          A::make_floats("intercepts", {0, 0.5f, 1}),
          A::make_ints("classlabels_ints", {10, 20, 30}),
          A::make_string("post_transform", transform)};
}

TEST(MlReference, LinearClassifier) {
  // x = [2,1]: scores [2, 1.5, -2] -> 10; x = [0,0]: [0, 0.5, 1] -> 30.
  ReferenceCase c = ml_case("LinearClassifier", "LinearClassifier", 1, {{"X", kFloat}},
                            {{"Y", kInt64}, {"Z", kFloat}}, three_class_linear("NONE"));
  c.inputs = {f32({2, 1, 0, 0}, {2, 2})};
  c.expected = {i64({10, 30}), f32({2, 1.5f, -2, 0, 0.5f, 1}, {2, 3})};
  expect_reference_case(c);
  // SOFTMAX of [2, 1.5, -2] = [0.6154428, 0.3732849, 0.0112722].
  c = ml_case("LinearClassifier softmax", "LinearClassifier", 1, {{"X", kFloat}},
              {{"Y", kInt64}, {"Z", kFloat}}, three_class_linear("SOFTMAX"));
  c.inputs = {f32({2, 1}, {1, 2})};
  c.expected = {i64({10}), f32({0.6154428f, 0.3732849f, 0.0112722f}, {1, 3})};
  expect_reference_case(c);
  // LOGISTIC: 1/(1+e^-s) of [2, 1.5, -2] = [0.8807971, 0.8175745, 0.1192029].
  c = ml_case("LinearClassifier logistic", "LinearClassifier", 1, {{"X", kFloat}},
              {{"Y", kInt64}, {"Z", kFloat}}, three_class_linear("LOGISTIC"));
  c.inputs = {f32({2, 1}, {1, 2})};
  c.expected = {i64({10}), f32({0.8807971f, 0.8175745f, 0.1192029f}, {1, 3})};
  expect_reference_case(c);
}

TEST(MlReference, LinearClassifierBinary) {
  // One coefficient row w = [1, -1], b = 0.5, labels ["neg", "pos"]:
  // x = [1,3] -> s = -1.5 -> "neg"; x = [3,1] -> s = 2.5 -> "pos". The labels
  // agree with ONNX Runtime; the scores are [-s, s] here (the second class
  // scores s, the first its opposite, as in ONNX's reference evaluator) while
  // ONNX Runtime writes [1 - s, s], a probability complement that does not fit
  // a raw margin. The spec says nothing of the one-row case.
  ReferenceCase c =
      ml_case("LinearClassifier binary", "LinearClassifier", 1, {{"X", kFloat}},
              {{"Y", kString}, {"Z", kFloat}},
              {A::make_floats("coefficients", {1, -1}), A::make_floats("intercepts", {0.5f}),
               A::make_strings("classlabels_strings", {"neg", "pos"})});
  c.inputs = {f32({1, 3, 3, 1}, {2, 2})};
  c.expected = {strs({"neg", "pos"}), f32({1.5f, -1.5f, -2.5f, 2.5f}, {2, 2})};
  c.not_in_onnxruntime_because =
      "ONNX Runtime scores a one-row binary LinearClassifier as [1 - s, s] (see the comment)";
  expect_reference_case(c);
}

TEST(MlReference, LinearRegressor) {
  // W = [[1,2],[3,4]], b = [1,-1]: x = [1,1] -> [4, 6]; x = [0,2] -> [5, 7].
  ReferenceCase c =
      ml_case("LinearRegressor", "LinearRegressor", 1, {{"X", kFloat}}, {{"Y", kFloat}},
              {A::make_floats("coefficients", {1, 2, 3, 4}), A::make_floats("intercepts", {1, -1}),
               A::make_int("targets", 2)});
  c.inputs = {f32({1, 1, 0, 2}, {2, 2})};
  c.expected = {f32({4, 6, 5, 7}, {2, 2})};
  expect_reference_case(c);
  // SOFTMAX over the two targets: [4, 6] -> [e^-2, 1] / (1 + e^-2) = [0.1192029, 0.8807971].
  c = ml_case("LinearRegressor softmax", "LinearRegressor", 1, {{"X", kFloat}}, {{"Y", kFloat}},
              {A::make_floats("coefficients", {1, 2, 3, 4}), A::make_floats("intercepts", {1, -1}),
               A::make_int("targets", 2), A::make_string("post_transform", "SOFTMAX")});
  c.inputs = {f32({1, 1}, {1, 2})};
  c.expected = {f32({0.1192029f, 0.8807971f}, {1, 2})};
  expect_reference_case(c);
}

// ---------------------------------------------------------------- SVMs

// The spec makes kernel_params optional ("zero if unused") but ONNX Runtime
// refuses to load an SVM without it, so the linear cases spell out the zeros.
const A kNoKernelParams = A::make_floats("kernel_params", {0, 0, 0});

TEST(MlReference, SVMRegressor) {
  // Linear: <[1,3], [2,-1]> + 0.5 = -0.5.
  ReferenceCase c = ml_case(
      "SVMRegressor linear", "SVMRegressor", 1, {{"X", kFloat}}, {{"Y", kFloat}},
      {A::make_floats("coefficients", {2, -1}), A::make_floats("rho", {0.5f}), kNoKernelParams});
  c.inputs = {f32({1, 3}, {1, 2})};
  c.expected = {f32({-0.5f}, {1, 1})};
  expect_reference_case(c);
  // RBF (gamma 0.5), vectors [0,0] and [1,1], coefficients [1, -1], rho 0.1:
  // [1,0] -> e^-0.5 - e^-0.5 + 0.1 = 0.1; [0,0] -> 1 - e^-1 + 0.1 = 0.7321206;
  // [1,1] -> e^-1 - 1 + 0.1 = -0.5321206.
  std::vector<A> rbf = {A::make_int("n_supports", 2),
                        A::make_floats("support_vectors", {0, 0, 1, 1}),
                        A::make_floats("coefficients", {1, -1}),
                        A::make_floats("rho", {0.1f}),
                        A::make_string("kernel_type", "RBF"),
                        A::make_floats("kernel_params", {0.5f, 0, 0})};
  c = ml_case("SVMRegressor rbf", "SVMRegressor", 1, {{"X", kFloat}}, {{"Y", kFloat}}, rbf);
  c.inputs = {f32({1, 0, 0, 0, 1, 1}, {3, 2})};
  c.expected = {f32({0.1f, 0.7321206f, -0.5321206f}, {3, 1})};
  expect_reference_case(c);
  // one_class: the signs of those scores.
  rbf.push_back(A::make_int("one_class", 1));
  c = ml_case("SVMRegressor one_class", "SVMRegressor", 1, {{"X", kFloat}}, {{"Y", kFloat}}, rbf);
  c.inputs = {f32({1, 0, 0, 0, 1, 1}, {3, 2})};
  c.expected = {f32({1, 1, -1}, {3, 1})};
  expect_reference_case(c);
  // POLY (gamma 1, coef0 1, degree 2), vector [1,0] with coefficient 2:
  // x = [2,3] -> 2 * (2 + 1)^2 = 18.
  c = ml_case("SVMRegressor poly", "SVMRegressor", 1, {{"X", kFloat}}, {{"Y", kFloat}},
              {A::make_int("n_supports", 1), A::make_floats("support_vectors", {1, 0}),
               A::make_floats("coefficients", {2}), A::make_floats("rho", {0}),
               A::make_string("kernel_type", "POLY"), A::make_floats("kernel_params", {1, 1, 2})});
  c.inputs = {f32({2, 3}, {1, 2})};
  c.expected = {f32({18}, {1, 1})};
  expect_reference_case(c);
}

// Three classes, one support vector each at -1, 0, 1 (LINEAR kernel),
// coefficient rows [1,-1,-1] and [1,1,-1] (libsvm layout); see
// tests/eval/kernels_ml_test.cc for the pairwise formulas.
std::vector<A> three_class_svc(std::vector<float> rho) {
  return {A::make_ints("classlabels_ints", {0, 1, 2}),
          A::make_ints("vectors_per_class", {1, 1, 1}),
          A::make_floats("support_vectors", {-1, 0, 1}),
          A::make_floats("coefficients", {1, -1, -1, 1, 1, -1}),
          A::make_floats("rho", rho),
          kNoKernelParams};
}

TEST(MlReference, SVMClassifierVotes) {
  // x = -2: pair scores [2, 4, 2], votes [2,1,0] -> 0.
  // x = 2: [-2, -4, -2], votes [0,1,2] -> 2.
  ReferenceCase c = ml_case("SVMClassifier votes", "SVMClassifier", 1, {{"X", kFloat}},
                            {{"Y", kInt64}, {"Z", kFloat}}, three_class_svc({0, 0, 0}));
  c.inputs = {f32({-2, 2}, {2, 1})};
  c.expected = {i64({0, 2}), f32({2, 4, 2, -2, -4, -2}, {2, 3})};
  expect_reference_case(c);
  // A three-way tie (x = 0, rho [1, -1, 1]: votes [1,1,1]) goes to class 0.
  c = ml_case("SVMClassifier tie", "SVMClassifier", 1, {{"X", kFloat}},
              {{"Y", kInt64}, {"Z", kFloat}}, three_class_svc({1, -1, 1}));
  c.inputs = {f32({0}, {1, 1})};
  c.expected = {i64({0}), f32({1, -1, 1}, {1, 3})};
  expect_reference_case(c);
}

TEST(MlReference, SVMClassifierProbabilities) {
  // x = 0, rho = [ln(5/3), ln(5/2), ln(3/2)], prob_a -1, prob_b 0: the pairwise
  // estimates logistic(rho) = [0.625, 5/7, 0.6] are exactly p_i / (p_i + p_j)
  // for p = [0.5, 0.3, 0.2]. libsvm's coupling iteration stops within about
  // 1e-3 of it (|Qp - pQp| < 0.005 / 3). Votes [2, 1, 0] -> class 0.
  std::vector<A> attrs = three_class_svc({0.5108256f, 0.9162907f, 0.4054651f});
  attrs.push_back(A::make_floats("prob_a", {-1, -1, -1}));
  attrs.push_back(A::make_floats("prob_b", {0, 0, 0}));
  ReferenceCase c = ml_case("SVMClassifier probabilities", "SVMClassifier", 1, {{"X", kFloat}},
                            {{"Y", kInt64}, {"Z", kFloat}}, attrs);
  c.inputs = {f32({0}, {1, 1})};
  c.expected = {i64({0}), f32({0.5f, 0.3f, 0.2f}, {1, 3})};
  c.tolerance = {0, 2e-3};
  expect_reference_case(c);
}

TEST(MlReference, SVMClassifierBinary) {
  // s = 0.5 + 2x (see kernels_ml_test.cc): x = 1 -> 2.5 votes class 0 ("a"),
  // Z = [-2.5, 2.5]; x = -1 -> -1.5 votes class 1 ("b"), Z = [1.5, -1.5].
  ReferenceCase c = ml_case(
      "SVMClassifier binary", "SVMClassifier", 1, {{"X", kFloat}}, {{"Y", kString}, {"Z", kFloat}},
      {A::make_strings("classlabels_strings", {"a", "b"}),
       A::make_ints("vectors_per_class", {1, 1}), A::make_floats("support_vectors", {1, -1}),
       A::make_floats("coefficients", {1, -1}), A::make_floats("rho", {0.5f}), kNoKernelParams});
  c.inputs = {f32({1, -1}, {2, 1})};
  c.expected = {strs({"a", "b"}), f32({-2.5f, 2.5f, 1.5f, -1.5f}, {2, 2})};
  expect_reference_case(c);
}

TEST(MlReference, SVMClassifierLinear) {
  // No vectors_per_class: rows [1,0], [0,1] and one rho 0.5 for both:
  // x = [3,1] -> [3.5, 1.5] -> 7; x = [0, 2] -> [0.5, 2.5] -> 8.
  ReferenceCase c = ml_case("SVMClassifier linear", "SVMClassifier", 1, {{"X", kFloat}},
                            {{"Y", kInt64}, {"Z", kFloat}},
                            {A::make_ints("classlabels_ints", {7, 8, 9}),
                             A::make_floats("coefficients", {1, 0, 0, 1, -1, -1}),
                             A::make_floats("rho", {0.5f}), kNoKernelParams});
  c.inputs = {f32({3, 1, 0, 2}, {2, 2})};
  // Third class: -(x0 + x1) + 0.5 = -3.5 and -1.5.
  c.expected = {i64({7, 8}), f32({3.5f, 1.5f, -3.5f, 0.5f, 2.5f, -1.5f}, {2, 3})};
  expect_reference_case(c);
}

// ---------------------------------------------------------------- tree ensembles

// tree 0: "f0 <= 0.5" -> leaf 1 / leaf 2; tree 1: "f1 > 2" -> leaf 1 / leaf 2.
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

std::vector<A> regressor(const std::string& aggregate, std::vector<int64_t> missing_tracks = {}) {
  // Leaves: tree 0 -> 1 / 2, tree 1 -> 10 / 20.
  std::vector<A> attrs = two_trees(std::move(missing_tracks));
  attrs.push_back(A::make_int("n_targets", 1));
  attrs.push_back(A::make_ints("target_treeids", {0, 0, 1, 1}));
  attrs.push_back(A::make_ints("target_nodeids", {1, 2, 1, 2}));
  attrs.push_back(A::make_ints("target_ids", {0, 0, 0, 0}));
  attrs.push_back(A::make_floats("target_weights", {1, 2, 10, 20}));
  attrs.push_back(A::make_string("aggregate_function", aggregate));
  return attrs;
}

TEST(MlReference, TreeEnsembleRegressor) {
  // x = [0.5, 3] reaches leaves (1, 10); x = [0.7, 2] reaches (2, 20).
  const std::vector<std::pair<std::string, Tensor>> aggregates = {
      {"SUM", f32({11, 22}, {2, 1})},
      {"AVERAGE", f32({5.5f, 11}, {2, 1})},
      {"MIN", f32({1, 2}, {2, 1})},
      {"MAX", f32({10, 20}, {2, 1})}};
  for (const auto& [aggregate, expected] : aggregates) {
    ReferenceCase c = ml_case("TreeEnsembleRegressor " + aggregate, "TreeEnsembleRegressor", 1,
                              {{"X", kFloat}}, {{"Y", kFloat}}, regressor(aggregate));
    c.inputs = {f32({0.5f, 3, 0.7f, 2}, {2, 2})};
    c.expected = {expected};
    expect_reference_case(c);
  }
  // base_values [100]: 111, 122.
  std::vector<A> with_base = regressor("SUM");
  with_base.push_back(A::make_floats("base_values", {100}));
  ReferenceCase c = ml_case("TreeEnsembleRegressor base_values", "TreeEnsembleRegressor", 1,
                            {{"X", kFloat}}, {{"Y", kFloat}}, with_base);
  c.inputs = {f32({0.5f, 3, 0.7f, 2}, {2, 2})};
  c.expected = {f32({111, 122}, {2, 1})};
  expect_reference_case(c);
}

TEST(MlReference, TreeEnsembleRegressorMissingValues) {
  // x = [NaN, 3]: tree 0's root has no track (false) -> leaf 2 (2) + 10 = 12;
  // with the root tracking true -> leaf 1 (1) + 10 = 11.
  ReferenceCase c = ml_case("TreeEnsembleRegressor NaN false", "TreeEnsembleRegressor", 1,
                            {{"X", kFloat}}, {{"Y", kFloat}}, regressor("SUM", {0, 0, 0, 0, 0, 0}));
  c.inputs = {f32({kNaN, 3}, {1, 2})};
  c.expected = {f32({12}, {1, 1})};
  expect_reference_case(c);
  c = ml_case("TreeEnsembleRegressor NaN true", "TreeEnsembleRegressor", 1, {{"X", kFloat}},
              {{"Y", kFloat}}, regressor("SUM", {1, 0, 0, 0, 0, 0}));
  c.inputs = {f32({kNaN, 3}, {1, 2})};
  c.expected = {f32({11}, {1, 1})};
  expect_reference_case(c);
}

TEST(MlReference, TreeEnsembleRegressorOpset3DoubleTensors) {
  // Thresholds and weights as double tensors; two targets. x = 0.100000001 is
  // above the double threshold 0.1 ("x <= 0.1" false -> leaf 2: 5 for target
  // 0, 7 for target 1); x = 0.05 takes leaf 1 (1 for target 0, nothing for 1).
  ReferenceCase c = ml_case(
      "TreeEnsembleRegressor opset 3", "TreeEnsembleRegressor", 3, {{"X", kDouble}},
      {{"Y", kFloat}},
      {A::make_ints("nodes_treeids", {0, 0, 0}), A::make_ints("nodes_nodeids", {0, 1, 2}),
       A::make_ints("nodes_featureids", {0, 0, 0}),
       A::make_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
       A::make_tensor("nodes_values_as_tensor", f64({0.1, 0, 0})),
       A::make_ints("nodes_truenodeids", {1, 0, 0}), A::make_ints("nodes_falsenodeids", {2, 0, 0}),
       A::make_int("n_targets", 2), A::make_ints("target_treeids", {0, 0, 0}),
       A::make_ints("target_nodeids", {1, 2, 2}), A::make_ints("target_ids", {0, 0, 1}),
       A::make_tensor("target_weights_as_tensor", f64({1, 5, 7}))});
  c.inputs = {f64({0.100000001, 0.05}, {2, 1})};
  c.expected = {f32({5, 7, 1, 0}, {2, 2})};
  expect_reference_case(c);
}

std::vector<A> three_class_trees(const std::string& transform) {
  // tree 0 leaf 1: class 0 += 0.6, class 1 += 0.4; leaf 2: class 2 += 1.0
  // tree 1 leaf 1: class 1 += 0.5; leaf 2: class 0 += 0.3, class 2 += 0.2
  std::vector<A> attrs = two_trees();
  attrs.push_back(A::make_ints("classlabels_int64s", {7, 8, 9}));
  attrs.push_back(A::make_ints("class_treeids", {0, 0, 0, 1, 1, 1}));
  attrs.push_back(A::make_ints("class_nodeids", {1, 1, 2, 1, 2, 2}));
  attrs.push_back(A::make_ints("class_ids", {0, 1, 2, 1, 0, 2}));
  attrs.push_back(A::make_floats("class_weights", {0.6f, 0.4f, 1.0f, 0.5f, 0.3f, 0.2f}));
  attrs.push_back(A::make_string("post_transform", transform));
  return attrs;
}

TEST(MlReference, TreeEnsembleClassifier) {
  // x = [0.5, 3]: [0.6, 0.4, 0] + [0, 0.5, 0] = [0.6, 0.9, 0] -> 8.
  // x = [1, 0]: [0, 0, 1] + [0.3, 0, 0.2] = [0.3, 0, 1.2] -> 9.
  ReferenceCase c = ml_case("TreeEnsembleClassifier", "TreeEnsembleClassifier", 1, {{"X", kFloat}},
                            {{"Y", kInt64}, {"Z", kFloat}}, three_class_trees("NONE"));
  c.inputs = {f32({0.5f, 3, 1, 0}, {2, 2})};
  c.expected = {i64({8, 9}), f32({0.6f, 0.9f, 0, 0.3f, 0, 1.2f}, {2, 3})};
  expect_reference_case(c);
  // SOFTMAX of [0.6, 0.9, 0] = [0.3449858, 0.4656821, 0.1893322].
  c = ml_case("TreeEnsembleClassifier softmax", "TreeEnsembleClassifier", 1, {{"X", kFloat}},
              {{"Y", kInt64}, {"Z", kFloat}}, three_class_trees("SOFTMAX"));
  c.inputs = {f32({0.5f, 3}, {1, 2})};
  c.expected = {i64({8}), f32({0.3449858f, 0.4656821f, 0.1893322f}, {1, 3})};
  expect_reference_case(c);
  // base_values [0.1, 0.2, 0.3] in opset 3: [0.7, 1.1, 0.3] -> 8.
  std::vector<A> with_base = three_class_trees("NONE");
  with_base.push_back(A::make_floats("base_values", {0.1f, 0.2f, 0.3f}));
  c = ml_case("TreeEnsembleClassifier base_values", "TreeEnsembleClassifier", 3, {{"X", kFloat}},
              {{"Y", kInt64}, {"Z", kFloat}}, with_base);
  c.inputs = {f32({0.5f, 3}, {1, 2})};
  c.expected = {i64({8}), f32({0.7f, 1.1f, 0.3f}, {1, 3})};
  expect_reference_case(c);
}

std::vector<A> binary_tree(float true_weight, float false_weight, const std::string& transform,
                           std::vector<float> base) {
  // One tree "f0 <= 0" -> leaf 1 / leaf 2, every vote for class 0 of ["no", "yes"].
  std::vector<A> attrs = {A::make_ints("nodes_treeids", {0, 0, 0}),
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
  if (!base.empty()) attrs.push_back(A::make_floats("base_values", base));
  return attrs;
}

TEST(MlReference, TreeEnsembleClassifierBinary) {
  // Margins (a negative weight) with base 0.1: x = -1 -> s = -1.1, x = 1 -> s = 0.9.
  // NONE: Z = [-s, s]; LOGISTIC: [logistic(-s), logistic(s)]
  //   = [0.7502601, 0.2497399] and [0.2890505, 0.7109495]. "yes" when s > 0.
  ReferenceCase c =
      ml_case("TreeEnsembleClassifier binary margin", "TreeEnsembleClassifier", 1, {{"X", kFloat}},
              {{"Y", kString}, {"Z", kFloat}}, binary_tree(-1.2f, 0.8f, "NONE", {0.1f}));
  c.inputs = {f32({-1, 1}, {2, 1})};
  c.expected = {strs({"no", "yes"}), f32({1.1f, -1.1f, -0.9f, 0.9f}, {2, 2})};
  expect_reference_case(c);
  c = ml_case("TreeEnsembleClassifier binary logistic", "TreeEnsembleClassifier", 1,
              {{"X", kFloat}}, {{"Y", kString}, {"Z", kFloat}},
              binary_tree(-1.2f, 0.8f, "LOGISTIC", {0.1f}));
  c.inputs = {f32({-1, 1}, {2, 1})};
  c.expected = {strs({"no", "yes"}), f32({0.7502601f, 0.2497399f, 0.2890505f, 0.7109495f}, {2, 2})};
  expect_reference_case(c);
  // Probabilities (no negative weight), NONE: s = 0.3 / 0.8, Z = [1 - s, s],
  // "yes" when s > 0.5.
  c = ml_case("TreeEnsembleClassifier binary probability", "TreeEnsembleClassifier", 1,
              {{"X", kFloat}}, {{"Y", kString}, {"Z", kFloat}},
              binary_tree(0.3f, 0.8f, "NONE", {}));
  c.inputs = {f32({-1, 1}, {2, 1})};
  c.expected = {strs({"no", "yes"}), f32({0.7f, 0.3f, 0.2f, 0.8f}, {2, 2})};
  expect_reference_case(c);
}

TEST(MlReference, TreeEnsembleClassifierWhereOnnxRuntimeDiffers) {
  // Two labels [10, 20] with votes for both classes: x = -1 -> leaf 1
  // [0.7, 0.3] -> 10; x = 1 -> leaf 2 [0.2, 0.8] -> 20. ONNX Runtime 1.30
  // answers 1 for both rows, a value that is not one of the labels.
  ReferenceCase c = ml_case(
      "TreeEnsembleClassifier two voted classes", "TreeEnsembleClassifier", 1, {{"X", kFloat}},
      {{"Y", kInt64}, {"Z", kFloat}},
      {A::make_ints("nodes_treeids", {0, 0, 0}), A::make_ints("nodes_nodeids", {0, 1, 2}),
       A::make_ints("nodes_featureids", {0, 0, 0}),
       A::make_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
       A::make_floats("nodes_values", {0, 0, 0}), A::make_ints("nodes_truenodeids", {1, 0, 0}),
       A::make_ints("nodes_falsenodeids", {2, 0, 0}), A::make_ints("classlabels_int64s", {10, 20}),
       A::make_ints("class_treeids", {0, 0, 0, 0}), A::make_ints("class_nodeids", {1, 1, 2, 2}),
       A::make_ints("class_ids", {0, 1, 0, 1}),
       A::make_floats("class_weights", {0.7f, 0.3f, 0.2f, 0.8f})});
  c.inputs = {f32({-1, 1}, {2, 1})};
  c.expected = {i64({10, 20}), f32({0.7f, 0.3f, 0.2f, 0.8f}, {2, 2})};
  c.not_in_onnxruntime_because = "ONNX Runtime 1.30 returns label 1 for both rows";
  expect_reference_case(c);
  // Binary, no negative weight, LOGISTIC: s = 0.3 -> Z = [logistic(-0.3),
  // logistic(0.3)] = [0.4255575, 0.5744425], so the top class is "yes".
  // ONNX Runtime writes the same Z but answers "no" (it tests s > 0.5).
  c = ml_case("TreeEnsembleClassifier binary logistic of probabilities", "TreeEnsembleClassifier",
              1, {{"X", kFloat}}, {{"Y", kString}, {"Z", kFloat}},
              binary_tree(0.3f, 0.8f, "LOGISTIC", {}));
  c.inputs = {f32({-1}, {1, 1})};
  c.expected = {strs({"yes"}), f32({0.4255575f, 0.5744425f}, {1, 2})};
  c.not_in_onnxruntime_because = "ONNX Runtime 1.30 labels this row \"no\" against its own Z";
  expect_reference_case(c);
}

// ---------------------------------------------------------------- map operators (Session only)

TEST(MlReference, CastMap) {
  // {2: 2.5, 0: -1} in key order is [-1, 2.5]; SPARSE with max_map 3 puts key
  // k in column k: [-1, 0, 2.5].
  const Type map_type = Type::map(DataType::kInt64, kFloat);
  ReferenceCase c = ml_case("CastMap sparse", "CastMap", 1, {{"X", map_type}}, {{"Y", kFloat}},
                            {A::make_string("map_form", "SPARSE"), A::make_int("max_map", 3)});
  c.inputs = {RuntimeValue::map(i64({2, 0}), f32({2.5f, -1}))};
  c.expected = {f32({-1, 0, 2.5f}, {1, 3})};
  c.not_in_onnxruntime_because = kNoMaps;
  expect_reference_case(c);
}

TEST(MlReference, DictVectorizer) {
  // The spec's example: vocabulary ["a","c","b","z"], {"a": 4, "c": 8} -> [4, 8, 0, 0].
  ReferenceCase c =
      ml_case("DictVectorizer", "DictVectorizer", 1, {{"X", Type::map(DataType::kString, kInt64)}},
              {{"Y", kInt64}}, {A::make_strings("string_vocabulary", {"a", "c", "b", "z"})});
  c.inputs = {RuntimeValue::map(strs({"a", "c"}), i64({4, 8}))};
  c.expected = {i64({4, 8, 0, 0}, {1, 4})};
  c.not_in_onnxruntime_because = kNoMaps;
  expect_reference_case(c);
}

TEST(MlReference, ZipMap) {
  // [[0.2, 0.8], [0.6, 0.4]] with labels [5, 6] -> [{5: 0.2, 6: 0.8}, {5: 0.6, 6: 0.4}].
  const Type map_type = Type::map(DataType::kInt64, kFloat);
  ReferenceCase c =
      ml_case("ZipMap", "ZipMap", 1, {{"X", kFloat}}, {{"Z", Type::sequence(map_type)}},
              {A::make_ints("classlabels_int64s", {5, 6})});
  c.inputs = {f32({0.2f, 0.8f, 0.6f, 0.4f}, {2, 2})};
  c.expected = {RuntimeValue::sequence(
      map_type, {RuntimeValue::map(i64({6, 5}), f32({0.8f, 0.2f})),  // maps compare by key
                 RuntimeValue::map(i64({5, 6}), f32({0.6f, 0.4f}))})};
  c.not_in_onnxruntime_because = kNoMaps;
  expect_reference_case(c);
}

}  // namespace
}  // namespace onnxscript::testing
