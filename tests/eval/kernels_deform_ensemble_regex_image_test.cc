// Tests for DeformConv-19/22, ai.onnx.ml TreeEnsemble-5, RegexFullMatch-20
// and ImageDecoder-20. Expected values are worked out by hand in the
// comments, or come from an independent path: DeformConv with zero offsets
// is Conv, and the image streams are built here byte by byte (BMP, PNM) or
// taken from the ONNX 1.22 test data (the other formats) to be damaged.
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/tensor_io.h"

namespace onnxscript::eval {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using A = ir::Attribute;

using test_util::error_of;
using test_util::values;

std::vector<RuntimeValue> run(std::string_view op, std::vector<RuntimeValue> inputs,
                              std::vector<A> attrs, int64_t version, std::string_view domain = "") {
  return run_op(op, inputs, attrs, 1, version, domain);
}

std::vector<double> as_doubles(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = element_as_double(t, i);
  return out;
}

// ---------------------------------------------------------------- DeformConv

// With every offset 0 and no mask, DeformConv samples the grid Conv reads.
void expect_conv_with_zero_offsets(std::vector<int64_t> x_shape, std::vector<int64_t> w_shape,
                                   std::vector<A> attrs, int64_t offset_group, bool bias) {
  const Tensor x = Tensor::rand(x_shape, 1);
  const Tensor w = Tensor::rand(w_shape, 2);
  const Tensor b = Tensor::rand({w_shape[0]}, 3);
  std::vector<RuntimeValue> conv_in{x, w};
  if (bias) conv_in.push_back(b);
  const Tensor conv = run("Conv", conv_in, attrs, 11)[0].tensor();
  const size_t nd = x_shape.size() - 2;
  int64_t taps = 1;
  for (size_t d = 2; d < w_shape.size(); ++d) taps *= w_shape[d];
  std::vector<int64_t> off_shape{x_shape[0], offset_group * static_cast<int64_t>(nd) * taps};
  for (size_t d = 2; d < conv.shape().size(); ++d) off_shape.push_back(conv.shape()[d]);
  const Tensor offset = Tensor::zeros(DataType::kFloat, off_shape);
  std::vector<A> deform_attrs = attrs;
  deform_attrs.push_back(A::make_int("offset_group", offset_group));
  std::vector<RuntimeValue> in{x, w, offset};
  if (bias) in.push_back(b);
  for (int64_t version : {19, 22}) {
    const Tensor y = run("DeformConv", in, deform_attrs, version)[0].tensor();
    EXPECT_EQ(y.shape(), conv.shape());
    EXPECT_THAT(as_doubles(y), Pointwise(DoubleNear(1e-5), as_doubles(conv)));
  }
}

TEST(DeformConv, ZeroOffsetsEqualConv2d) {
  expect_conv_with_zero_offsets(
      {2, 4, 5, 6}, {6, 2, 3, 2},
      {A::make_int("group", 2), A::make_ints("pads", {1, 0, 2, 1}), A::make_ints("strides", {2, 1}),
       A::make_ints("dilations", {1, 2})},
      2, true);
  expect_conv_with_zero_offsets({1, 3, 4, 4}, {2, 3, 2, 2}, {}, 3, false);
}

TEST(DeformConv, ZeroOffsetsEqualConv1dAnd3d) {
  expect_conv_with_zero_offsets({1, 2, 7}, {3, 2, 3}, {A::make_ints("pads", {1, 1})}, 1, true);
  expect_conv_with_zero_offsets({1, 2, 3, 4, 3}, {2, 1, 2, 2, 2},
                                {A::make_int("group", 2), A::make_ints("pads", {0, 1, 0, 1, 0, 1})},
                                2, false);
}

// X = [[1, 2], [3, 4]], a 1x1 kernel of weight 1, every tap moved by
// (dy, dx) = (0.5, 0.25). Bilinear samples, zero outside X:
//   (0.5, 0.25): 0.5 * (0.75 * 1 + 0.25 * 2) + 0.5 * (0.75 * 3 + 0.25 * 4) = 2.25
//   (0.5, 1.25): 0.5 * (0.75 * 2) + 0.5 * (0.75 * 4)                       = 2.25
//   (1.5, 0.25): 0.5 * (0.75 * 3 + 0.25 * 4)                               = 1.625
//   (1.5, 1.25): 0.5 * (0.75 * 4)                                          = 1.5
// A mask of 0.5 on the first output halves it; a bias of 1 adds 1.
TEST(DeformConv, BilinearSamplingMaskAndBias) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  const Tensor w = Tensor::from<float>({1}, {1, 1, 1, 1});
  const Tensor offset =
      Tensor::from<float>({0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 0.25f, 0.25f, 0.25f}, {1, 2, 2, 2});
  EXPECT_THAT(values<float>(run("DeformConv", {x, w, offset}, {}, 19)[0]),
              ElementsAre(2.25f, 2.25f, 1.625f, 1.5f));
  const Tensor b = Tensor::from<float>({1}, {1});
  const Tensor mask = Tensor::from<float>({0.5f, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_THAT(values<float>(run("DeformConv", {x, w, offset, b, mask}, {}, 22)[0]),
              ElementsAre(2.125f, 3.25f, 2.625f, 2.5f));
  // An offset of -1 or more pixels off the edge reads only padding: 0.
  const Tensor far = Tensor::from<float>({-1, -1, -1, -1, 0, 0, 0, 0}, {1, 2, 2, 2});
  EXPECT_THAT(values<float>(run("DeformConv", {x, w, far}, {}, 22)[0]), ElementsAre(0, 0, 1, 2));
}

TEST(DeformConv, OtherTypes) {
  const Tensor x = Tensor::from<double>({1, 2, 3, 4}, {1, 1, 2, 2});
  const Tensor w = Tensor::from<double>({1}, {1, 1, 1, 1});
  const Tensor offset = Tensor::from<double>({0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0}, {1, 2, 2, 2});
  // dy = 0.5: row 0 averages rows 0 and 1, row 1 is half of row 1.
  EXPECT_THAT(values<double>(run("DeformConv", {x, w, offset}, {}, 19)[0]),
              ElementsAre(2, 3, 1.5, 2));
  const Tensor h = run_op("Cast", {x}, {A::make_int("to", 10)})[0].tensor();
  const Tensor ho = run_op("Cast", {offset}, {A::make_int("to", 10)})[0].tensor();
  const Tensor hw = run_op("Cast", {w}, {A::make_int("to", 10)})[0].tensor();
  const Tensor y = run("DeformConv", {h, hw, ho}, {}, 19)[0].tensor();
  EXPECT_EQ(y.dtype(), DataType::kFloat16);
  EXPECT_THAT(as_doubles(y), ElementsAre(2, 3, 1.5, 2));
}

TEST(DeformConv, Errors) {
  const Tensor x = Tensor::zeros(DataType::kFloat, {1, 2, 3, 3});
  const Tensor w = Tensor::zeros(DataType::kFloat, {1, 2, 2, 2});
  const Tensor good = Tensor::zeros(DataType::kFloat, {1, 8, 2, 2});
  EXPECT_THAT(error_of([&] {
                run("DeformConv", {x, w, Tensor::zeros(DataType::kFloat, {1, 4, 2, 2})}, {}, 19);
              }),
              HasSubstr("offset has shape [1,4,2,2] but must be [1,8,2,2]"));
  EXPECT_THAT(error_of([&] {
                run("DeformConv", {x, w, good}, {A::make_int("offset_group", 3)}, 19);
              }),
              HasSubstr("offset_group 3 must divide the 2 input channels"));
  EXPECT_THAT(error_of([&] {
                run("DeformConv",
                    {x, w, good, RuntimeValue(), Tensor::zeros(DataType::kFloat, {1, 3, 2, 2})}, {},
                    22);
              }),
              HasSubstr("mask has shape [1,3,2,2] but must be [1,4,2,2]"));
  const Tensor bx = run_op("Cast", {x}, {A::make_int("to", 16)})[0].tensor();
  const Tensor bw = run_op("Cast", {w}, {A::make_int("to", 16)})[0].tensor();
  const Tensor bo = run_op("Cast", {good}, {A::make_int("to", 16)})[0].tensor();
  EXPECT_THAT(error_of([&] {
                run("DeformConv", {bx, bw, bo}, {}, 19);
              }),
              HasSubstr("bfloat16 needs DeformConv-22"));
  EXPECT_EQ(run("DeformConv", {bx, bw, bo}, {}, 22)[0].tensor().dtype(), DataType::kBfloat16);
}

// ---------------------------------------------------------------- TreeEnsemble

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Tensor modes(std::vector<uint8_t> m) {
  Tensor t(DataType::kUint8, {static_cast<int64_t>(m.size())});
  for (size_t i = 0; i < m.size(); ++i) t.data<uint8_t>()[i] = m[i];
  return t;
}

// Two trees over features [x0, x1], two targets.
//   tree 0 (root node 0): x0 <= 1 (NaN goes true) ? leaf 0 (t0: 1)
//                         : node 1: x1 in {2, 5} ? leaf 1 (t1: 10) : leaf 2 (t0: 100)
//   tree 1 (root node 2): x1 > 3 ? leaf 3 (t0: 1000) : leaf 3  (a one-leaf tree
//                         written as a node with both children the leaf)
std::vector<A> two_trees(int64_t aggregate, int64_t post_transform) {
  return {A::make_ints("nodes_featureids", {0, 1, 1}),
          A::make_tensor("nodes_modes", modes({0, 6, 3})),
          A::make_tensor("nodes_splits", Tensor::from<float>({1, 0, 3}, {3})),
          A::make_ints("nodes_truenodeids", {0, 1, 3}),
          A::make_ints("nodes_trueleafs", {1, 1, 1}),
          A::make_ints("nodes_falsenodeids", {1, 2, 3}),
          A::make_ints("nodes_falseleafs", {0, 1, 1}),
          A::make_ints("nodes_missing_value_tracks_true", {1, 0, 0}),
          A::make_tensor("membership_values", Tensor::from<float>({2, 5, kNaN}, {3})),
          A::make_ints("leaf_targetids", {0, 1, 0, 0}),
          A::make_tensor("leaf_weights", Tensor::from<float>({1, 10, 100, 1000}, {4})),
          A::make_ints("tree_roots", {0, 2}),
          A::make_int("n_targets", 2),
          A::make_int("aggregate_function", aggregate),
          A::make_int("post_transform", post_transform)};
}

TEST(TreeEnsemble, BranchesMembershipMissingValuesAndAggregates) {
  // Rows: [0, 0]   tree 0 -> leaf 0 (t0 1),   tree 1 -> leaf 3 (t0 1000)
  //       [2, 5]   tree 0 -> leaf 1 (t1 10),  tree 1 -> leaf 3
  //       [2, 4]   tree 0 -> leaf 2 (t0 100), tree 1 -> leaf 3
  //       [NaN, 4] tree 0 -> leaf 0 (NaN tracks true), tree 1 -> leaf 3
  const Tensor x = Tensor::from<float>({0, 0, 2, 5, 2, 4, kNaN, 4}, {4, 2});
  // SUM
  EXPECT_THAT(values<float>(run("TreeEnsemble", {x}, two_trees(1, 0), 5, "ai.onnx.ml")[0]),
              ElementsAre(1001, 0, 1000, 10, 1100, 0, 1001, 0));
  // AVERAGE: divided by the 2 trees.
  EXPECT_THAT(values<float>(run("TreeEnsemble", {x}, two_trees(0, 0), 5, "ai.onnx.ml")[0]),
              ElementsAre(500.5f, 0, 500, 5, 550, 0, 500.5f, 0));
  // MIN and MAX per target; a target no leaf voted for stays 0.
  EXPECT_THAT(values<float>(run("TreeEnsemble", {x}, two_trees(2, 0), 5, "ai.onnx.ml")[0]),
              ElementsAre(1, 0, 1000, 10, 100, 0, 1, 0));
  EXPECT_THAT(values<float>(run("TreeEnsemble", {x}, two_trees(3, 0), 5, "ai.onnx.ml")[0]),
              ElementsAre(1000, 0, 1000, 10, 1000, 0, 1000, 0));
}

TEST(TreeEnsemble, PostTransformAndTypes) {
  // LOGISTIC (2) of the SUM row [1000, 10] is [1, 1 / (1 + e^-10)].
  const Tensor x = Tensor::from<double>({2, 5}, {1, 2});
  std::vector<A> attrs = two_trees(1, 2);
  attrs[2] = A::make_tensor("nodes_splits", Tensor::from<double>({1, 0, 3}, {3}));
  attrs[8] = A::make_tensor("membership_values", Tensor::from<double>({2, 5}, {2}));
  attrs[10] = A::make_tensor("leaf_weights", Tensor::from<double>({1, 10, 100, 1000}, {4}));
  const auto y = values<double>(run("TreeEnsemble", {x}, attrs, 5, "ai.onnx.ml")[0]);
  EXPECT_THAT(y, ElementsAre(DoubleNear(1.0, 1e-12), DoubleNear(1 / (1 + std::exp(-10.0)), 1e-12)));
  // SOFTMAX (1) of [1000, 10]: [1, e^-990] (e^-990 underflows to 0).
  attrs[14] = A::make_int("post_transform", 1);
  EXPECT_THAT(values<double>(run("TreeEnsemble", {x}, attrs, 5, "ai.onnx.ml")[0]),
              ElementsAre(1.0, 0.0));
  // float16: one row [F], the same tree, output float16 [1, 2].
  auto half = [](const Tensor& t) {
    return run_op("Cast", {t}, {A::make_int("to", 10)})[0].tensor();
  };
  attrs = two_trees(1, 0);
  attrs[2] = A::make_tensor("nodes_splits", half(Tensor::from<float>({1, 0, 3}, {3})));
  attrs[8] = A::make_tensor("membership_values", half(Tensor::from<float>({2, 5}, {2})));
  attrs[10] = A::make_tensor("leaf_weights", half(Tensor::from<float>({1, 10, 100, 1000}, {4})));
  const Tensor hy =
      run("TreeEnsemble", {half(Tensor::from<float>({2, 4}, {2}))}, attrs, 5, "ai.onnx.ml")[0]
          .tensor();
  EXPECT_EQ(hy.dtype(), DataType::kFloat16);
  EXPECT_EQ(hy.shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_THAT(as_doubles(hy), ElementsAre(1100, 0));
}

TEST(TreeEnsemble, Errors) {
  const Tensor x = Tensor::from<float>({0, 0}, {1, 2});
  auto error_with = [&](size_t index, A replacement) {
    std::vector<A> attrs = two_trees(1, 0);
    attrs[index] = std::move(replacement);
    return error_of([&] { run("TreeEnsemble", {x}, attrs, 5, "ai.onnx.ml"); });
  };
  EXPECT_THAT(error_with(1, A::make_tensor("nodes_modes", modes({0, 7, 3}))),
              HasSubstr("nodes_modes entry 7 of node 1 is not a mode"));
  EXPECT_THAT(error_with(3, A::make_ints("nodes_truenodeids", {0, 1, 4})),
              HasSubstr("node 2 has true child 4, outside the 4 leaves"));
  EXPECT_THAT(error_with(5, A::make_ints("nodes_falsenodeids", {3, 2, 3})),
              HasSubstr("node 0 has false child 3, outside the 3 nodes"));
  EXPECT_THAT(error_with(9, A::make_ints("leaf_targetids", {0, 2, 0, 0})),
              HasSubstr("leaf_targetids entry 2 is outside [0, 2)"));
  EXPECT_THAT(error_with(2, A::make_tensor("nodes_splits", Tensor::from<double>({1, 0, 3}, {3}))),
              HasSubstr("attribute 'nodes_splits' holds double but X is float"));
  EXPECT_THAT(error_with(8, A::make_tensor("membership_values", Tensor::from<float>({}, {0}))),
              HasSubstr("node 1 is BRANCH_MEMBER but membership_values has no set left"));
  EXPECT_THAT(error_with(0, A::make_ints("nodes_featureids", {0, 2, 1})),
              HasSubstr("node 1 reads feature 2, but X has 2 features"));
  EXPECT_THAT(error_with(13, A::make_int("aggregate_function", 4)),
              HasSubstr("aggregate_function 4 is not one of"));
  // A node that is its own child never reaches a leaf.
  std::vector<A> attrs = two_trees(1, 0);
  attrs[5] = A::make_ints("nodes_falsenodeids", {0, 2, 3});
  EXPECT_THAT(error_of([&] {
                run("TreeEnsemble", {Tensor::from<float>({5, 0}, {1, 2})}, attrs, 5, "ai.onnx.ml");
              }),
              HasSubstr("has a cycle"));
}

// ---------------------------------------------------------------- RegexFullMatch

Tensor strings(std::vector<std::string> s, std::vector<int64_t> shape) {
  Tensor t(DataType::kString, std::move(shape));
  for (size_t i = 0; i < s.size(); ++i) t.data<std::string>()[i] = s[i];
  return t;
}

TEST(RegexFullMatch, MatchesTheWholeString) {
  // "a+b?" matches all of "aaa" and "ab", but only part of "baaa" and "aabb".
  const Tensor x = strings({"aaa", "baaa", "ab", "aabb", ""}, {5});
  EXPECT_THAT(values<bool>(run("RegexFullMatch", {x}, {A::make_string("pattern", "a+b?")}, 20)[0]),
              ElementsAre(true, false, true, false, false));
  // RE2 syntax: \d, alternation and a named class.
  const Tensor y = strings({"x12", "y7", "x", "z1"}, {2, 2});
  const auto out = run("RegexFullMatch", {y}, {A::make_string("pattern", R"((x|y)\d+)")}, 20)[0];
  EXPECT_EQ(out.tensor().shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(values<bool>(out), ElementsAre(true, true, false, false));
}

TEST(RegexFullMatch, Errors) {
  const Tensor x = strings({"a"}, {1});
  EXPECT_THAT(error_of([&] { run("RegexFullMatch", {x}, {A::make_string("pattern", "(a")}, 20); }),
              HasSubstr("pattern '(a' is not a valid RE2 expression: missing )"));
  EXPECT_THAT(error_of([&] { run("RegexFullMatch", {x}, {}, 20); }),
              HasSubstr("'pattern' is required"));
  EXPECT_THAT(error_of([&] {
                run("RegexFullMatch", {Tensor::zeros(DataType::kFloat, {1})},
                    {A::make_string("pattern", "a")}, 20);
              }),
              HasSubstr("X must be a string tensor"));
}

// ---------------------------------------------------------------- ImageDecoder

Tensor bytes_tensor(const std::string& s) {
  Tensor t(DataType::kUint8, {static_cast<int64_t>(s.size())});
  for (size_t i = 0; i < s.size(); ++i) t.data<uint8_t>()[i] = static_cast<uint8_t>(s[i]);
  return t;
}

std::vector<uint8_t> decode(const Tensor& stream, const char* format, int64_t h, int64_t w,
                            int64_t c) {
  const auto out = run("ImageDecoder", {stream}, {A::make_string("pixel_format", format)}, 20)[0];
  EXPECT_EQ(out.tensor().shape(), (std::vector<int64_t>{h, w, c}));
  return values<uint8_t>(out);
}

std::string le32(uint32_t v) {
  return std::string{static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                     static_cast<char>(v >> 24)};
}
std::string le16(uint16_t v) {
  return std::string{static_cast<char>(v), static_cast<char>(v >> 8)};
}

// A BMP with a 40-byte info header; `pixels` are the stored rows, padded.
std::string bmp(int32_t width, int32_t height, uint16_t bits, const std::string& palette,
                const std::string& pixels) {
  const uint32_t offset = 14 + 40 + static_cast<uint32_t>(palette.size());
  std::string s =
      "BM" + le32(offset + static_cast<uint32_t>(pixels.size())) + le32(0) + le32(offset);
  s += le32(40) + le32(static_cast<uint32_t>(width)) + le32(static_cast<uint32_t>(height)) +
       le16(1) + le16(bits) + le32(0) + le32(static_cast<uint32_t>(pixels.size())) + le32(2835) +
       le32(2835) + le32(static_cast<uint32_t>(palette.size() / 4)) + le32(0);
  return s + palette + pixels;
}

TEST(ImageDecoder, Bmp24And8And32Bits) {
  // 2x2, 24 bits, bottom-up: the first stored row is the bottom one. Pixels
  // are stored B, G, R; each 6-byte row is padded to 8.
  const std::string rows = std::string("\x00\x00\xff\x00\xff\x00", 6) + std::string(2, '\0') +
                           std::string("\xff\x00\x00\xc8\x96\x64", 6) + std::string(2, '\0');
  const Tensor b24 = bytes_tensor(bmp(2, 2, 24, "", rows));
  // Top row: blue (0,0,255), (R,G,B) = (100,150,200); bottom: red, green.
  EXPECT_THAT(decode(b24, "RGB", 2, 2, 3),
              ElementsAre(0, 0, 255, 100, 150, 200, 255, 0, 0, 0, 255, 0));
  EXPECT_THAT(decode(b24, "BGR", 2, 2, 3),
              ElementsAre(255, 0, 0, 200, 150, 100, 0, 0, 255, 0, 255, 0));
  // Luma 0.299 R + 0.587 G + 0.114 B, rounded: blue 29.07 -> 29,
  // (100,150,200) 140.75 -> 141, red 76.245 -> 76, green 149.685 -> 150.
  EXPECT_THAT(decode(b24, "Grayscale", 2, 2, 1), ElementsAre(29, 141, 76, 150));

  // 3x1, 8 bits through a two-entry colour table (B, G, R, 0), top-down
  // (negative height); the 3-byte row is padded to 4.
  const std::string palette("\x10\x20\x30\x00\xfe\xfd\xfc\x00", 8);
  const Tensor b8 = bytes_tensor(bmp(3, -1, 8, palette, std::string("\x01\x00\x01\x00", 4)));
  EXPECT_THAT(decode(b8, "RGB", 1, 3, 3), ElementsAre(252, 253, 254, 48, 32, 16, 252, 253, 254));
  // A pixel index past the table is an error, not a read out of bounds.
  const Tensor bad = bytes_tensor(bmp(3, -1, 8, palette, std::string("\x05\x00\x01\x00", 4)));
  EXPECT_THAT(error_of([&] { decode(bad, "RGB", 1, 3, 3); }),
              HasSubstr("pixel index 5 is outside the colour table"));

  // 1x1, 32 bits (B, G, R, unused).
  const Tensor b32 = bytes_tensor(bmp(1, 1, 32, "", std::string("\x01\x02\x03\x04", 4)));
  EXPECT_THAT(decode(b32, "RGB", 1, 1, 3), ElementsAre(3, 2, 1));
}

TEST(ImageDecoder, PnmKinds) {
  // P3 with maxval 15: samples scale by 255 / 15 = 17; a comment is skipped.
  EXPECT_THAT(decode(bytes_tensor("P3\n# two pixels\n2 1\n15\n0 1 2  15 14 13\n"), "RGB", 1, 2, 3),
              ElementsAre(0, 17, 34, 255, 238, 221));
  // P2 gray replicates into R, G and B.
  EXPECT_THAT(decode(bytes_tensor("P2 1 2 255 7 9"), "RGB", 2, 1, 3),
              ElementsAre(7, 7, 7, 9, 9, 9));
  // P5 with maxval 1000 takes two bytes per sample: 500 -> 127.5 -> 128.
  EXPECT_THAT(decode(bytes_tensor(std::string("P5 1 1 1000\n\x01\xf4", 14)), "Grayscale", 1, 1, 1),
              ElementsAre(128));
  // P1 and P4: 1 is black. P4 packs 8 pixels a byte, rows byte-aligned.
  EXPECT_THAT(decode(bytes_tensor("P1 3 1 101"), "Grayscale", 1, 3, 1), ElementsAre(0, 255, 0));
  EXPECT_THAT(decode(bytes_tensor(std::string("P4 2 2\n\x80\x40", 9)), "Grayscale", 2, 2, 1),
              ElementsAre(0, 255, 255, 0));
  // P6 raw RGB.
  EXPECT_THAT(decode(bytes_tensor("P6 1 1 255\nabc"), "RGB", 1, 1, 3), ElementsAre('a', 'b', 'c'));
  EXPECT_THAT(error_of([&] { decode(bytes_tensor("P2 1 1 9 10"), "RGB", 1, 1, 3); }),
              HasSubstr("a sample 10 is above maxval 9"));
}

// PNG streams written for this test (Python's zlib and struct, one IDAT
// each, filter 0): the pixels are the bytes put into them.
std::string png_rgb() {  // 2x1 RGB 8-bit: (1, 2, 3), (250, 251, 252)
  return std::string(
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00"
      "\x00\x02\x00\x00\x00\x01\x08\x02\x00\x00\x00\x7b\x40\xe8\xdd\x00\x00\x00"
      "\x0f\x49\x44\x41\x54\x78\x9c\x63\x60\x64\x62\xfe\xf5\xfb\x0f\x00\x06\x03"
      "\x02\xf8\x4e\x96\xad\xb6\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
      72);
}
std::string png_rgba() {  // 2x1 RGBA 8-bit: (10, 20, 30, 0), (40, 50, 60, 128)
  return std::string(
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00"
      "\x00\x02\x00\x00\x00\x01\x08\x06\x00\x00\x00\xf4\x22\x7f\x8a\x00\x00\x00"
      "\x11\x49\x44\x41\x54\x78\x9c\x63\xe0\x12\x91\x63\xd0\x30\xb2\x69\x00\x00"
      "\x03\xc7\x01\x53\xce\xe3\xb4\x45\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42"
      "\x60\x82",
      74);
}
std::string png_palette() {  // 3x1 indices 1, 0, 1 into PLTE (9, 8, 7), (100, 110, 120)
  return std::string(
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00"
      "\x00\x03\x00\x00\x00\x01\x08\x03\x00\x00\x00\x2c\x3e\xe4\x86\x00\x00\x00"
      "\x06\x50\x4c\x54\x45\x09\x08\x07\x64\x6e\x78\xc5\xb1\x47\xa4\x00\x00\x00"
      "\x0c\x49\x44\x41\x54\x78\x9c\x63\x60\x64\x60\x04\x00\x00\x08\x00\x03\x0e"
      "\xd8\xec\xf1\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
      87);
}
std::string png_gray16() {  // 3x1 gray 16-bit: 0x0000, 0x8080, 0xffff
  return std::string(
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00"
      "\x00\x03\x00\x00\x00\x01\x10\x00\x00\x00\x00\x6e\x1b\x97\x2b\x00\x00\x00"
      "\x0f\x49\x44\x41\x54\x78\x9c\x63\x60\x60\x68\x68\xf8\xff\x1f\x00\x06\x84"
      "\x02\xff\x46\x60\xde\xb6\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
      72);
}

TEST(ImageDecoder, PngColourTypesAndDepths) {
  EXPECT_THAT(decode(bytes_tensor(png_rgb()), "RGB", 1, 2, 3), ElementsAre(1, 2, 3, 250, 251, 252));
  // The alpha channel is dropped, not composited: the colours stay as stored.
  EXPECT_THAT(decode(bytes_tensor(png_rgba()), "RGB", 1, 2, 3),
              ElementsAre(10, 20, 30, 40, 50, 60));
  EXPECT_THAT(decode(bytes_tensor(png_palette()), "BGR", 1, 3, 3),
              ElementsAre(120, 110, 100, 7, 8, 9, 120, 110, 100));
  // 16-bit samples scale by 255 / 65535: 0x8080 = 32896 -> 128.
  EXPECT_THAT(decode(bytes_tensor(png_gray16()), "Grayscale", 1, 3, 1), ElementsAre(0, 128, 255));
  // Cut anywhere after the signature, the stream is refused.
  const std::string full = png_rgba();
  for (size_t len = 8; len < full.size(); ++len)
    EXPECT_THAT(error_of([&] { decode(bytes_tensor(full.substr(0, len)), "RGB", 1, 2, 3); }),
                HasSubstr("cannot decode the PNG stream"))
        << "length " << len;
  // A damaged chunk CRC is refused.
  std::string bad = png_rgb();
  bad[30] = static_cast<char>(bad[30] ^ 1);
  EXPECT_THAT(error_of([&] { decode(bytes_tensor(bad), "RGB", 1, 2, 3); }),
              HasSubstr("cannot decode the PNG stream"));
}

std::filesystem::path image_case(const std::string& name) {
  return std::filesystem::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22/node" /
         ("test_image_decoder_decode_" + name) / "test_data_set_0";
}

// Every format, cut short every 37 bytes and with its body overwritten
// by garbage, gives a KernelError naming the format or decodes to some
// image, and never reads out of bounds (this binary runs under ASan).
TEST(ImageDecoder, TruncatedAndGarbageStreamsFailCleanly) {
  const std::pair<const char*, const char*> cases[] = {
      {"jpeg_rgb", "JPEG"}, {"bmp_rgb", "BMP"},   {"jpeg2k_rgb", "JPEG 2000"},
      {"pnm_rgb", "PNM"},   {"tiff_rgb", "TIFF"}, {"webp_rgb", "WebP"}};
  for (const auto& [name, format] : cases) {
    SCOPED_TRACE(name);
    const Tensor full = load_value_pb(image_case(name) / "input_0.pb").tensor();
    const auto* bytes = full.data<uint8_t>();
    const int64_t n = full.numel();
    // The whole stream decodes to the expected 32x32 image.
    const Tensor expected = load_value_pb(image_case(name) / "output_0.pb").tensor();
    EXPECT_EQ(decode(full, "RGB", 32, 32, 3),
              std::vector<uint8_t>(expected.data<uint8_t>(),
                                   expected.data<uint8_t>() + expected.numel()));
    for (int64_t len = 4; len < n; len += 37) {
      Tensor cut(DataType::kUint8, {len});
      std::copy(bytes, bytes + len, cut.data<uint8_t>());
      // Four bytes are too few to recognise a JP2 or WebP signature; the
      // rest are recognised and then refused by their decoder.
      const std::string message = error_of([&] { decode(cut, "RGB", 32, 32, 3); });
      EXPECT_THAT(message, HasSubstr(len > 4 || (std::string(format) != "JPEG 2000" &&
                                                 std::string(format) != "WebP")
                                         ? std::string("cannot decode the ") + format + " stream"
                                         : std::string("is not a JPEG, PNG")))
          << "length " << len;
    }
    Tensor garbage = full.clone();
    for (int64_t i = 24; i < n; ++i) garbage.data<uint8_t>()[i] = static_cast<uint8_t>(i * 131 + 7);
    try {
      run("ImageDecoder", {garbage}, {}, 20);
    } catch (const KernelError& e) {
      EXPECT_THAT(e.what(), HasSubstr(std::string("cannot decode the ") + format + " stream"));
    }
  }
}

TEST(ImageDecoder, UnknownAndEmptyStreams) {
  EXPECT_THAT(error_of([&] { decode(bytes_tensor("GIF89a...."), "RGB", 0, 0, 3); }),
              HasSubstr("not a JPEG, PNG, TIFF, WebP, JPEG 2000, BMP or PNM image (first bytes "
                        "47 49 46 38 39 61 2e 2e)"));
  EXPECT_THAT(error_of([&] { decode(Tensor(DataType::kUint8, {0}), "RGB", 0, 0, 3); }),
              HasSubstr("encoded_stream is empty"));
  EXPECT_THAT(error_of([&] { decode(bytes_tensor("P6 1 1 255\nab"), "RGB", 1, 1, 3); }),
              HasSubstr("cannot decode the PNM stream: the PNM data is truncated"));
  EXPECT_THAT(error_of([&] { decode(bytes_tensor("P6 1 1 255\nabc"), "HSV", 1, 1, 3); }),
              HasSubstr("pixel_format 'HSV' is not one of RGB, BGR, Grayscale"));
  // A header claiming 100000 x 100000 pixels is refused before allocating.
  EXPECT_THAT(error_of([&] { decode(bytes_tensor("P5 100000 100000 255\n"), "RGB", 1, 1, 3); }),
              HasSubstr("larger than the 2^28 pixels supported"));
}

}  // namespace
}  // namespace onnxscript::eval
