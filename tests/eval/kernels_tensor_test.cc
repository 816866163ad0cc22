// Tests for the tensor-manipulation kernels (src/eval/kernels/tensor/).
// Expected values are worked out by hand from the ONNX operator spec.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using A = ir::Attribute;

using test_util::values;

Tensor iota_f(std::vector<int64_t> shape) {
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

Tensor i64(std::initializer_list<int64_t> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<int64_t>(v, std::move(shape));
}

// Runs `op` expecting a KernelError whose message contains `fragment`.
void expect_error(std::string_view op, std::initializer_list<RuntimeValue> inputs,
                  std::initializer_list<A> attrs, const std::string& fragment, int64_t version = 17,
                  size_t outputs = 1) {
  try {
    run_op(op, inputs, attrs, outputs, version);
    ADD_FAILURE() << op << " did not fail";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr(std::string(op) + ": ")) << "the message names the op";
    EXPECT_THAT(e.what(), HasSubstr(fragment));
  }
}

TEST(Reshape, InfersMinusOneCopiesZeroAndSharesStorage) {
  Tensor x = iota_f({2, 3, 4});
  auto out = run_op("Reshape", {x, i64({0, -1})});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 12}));
  EXPECT_EQ(out[0].tensor().storage(), x.storage());
}

TEST(Reshape, AllowZeroMakesZeroAnEmptyDimension) {
  Tensor x(DataType::kFloat, {0, 3});
  auto out = run_op("Reshape", {x, i64({3, 0})}, {A::make_int("allowzero", 1)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{3, 0}));
  expect_error("Reshape", {iota_f({2, 3}), i64({4, -1})}, {}, "cannot infer");
  expect_error("Reshape", {iota_f({2, 3}), i64({-1, -1})}, {}, "more than one -1");
}

TEST(Reshape, Version1ReadsTheShapeAttribute) {
  auto out = run_op("Reshape", {iota_f({6})}, {A::make_ints("shape", {3, 2})}, 1, 1);
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{3, 2}));
}

TEST(Transpose, DefaultReversesAndPermMoves) {
  auto out = run_op("Transpose", {iota_f({2, 3})});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 3, 1, 4, 2, 5));
  // [2,3,4] with perm (1,0,2): out[j][i][k] = in[i][j][k]; out[1][0][2] = in[0][1][2] = 6.
  out = run_op("Transpose", {iota_f({2, 3, 4})}, {A::make_ints("perm", {1, 0, 2})});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{3, 2, 4}));
  EXPECT_EQ(values<float>(out[0])[1 * 8 + 0 * 4 + 2], 6.0f);
  expect_error("Transpose", {iota_f({2, 3})}, {A::make_ints("perm", {0, 0})}, "repeats axis");
}

TEST(Transpose, MovesStrings) {
  Tensor s(DataType::kString, {2, 2});
  for (int i = 0; i < 4; ++i) s.data<std::string>()[i] = std::string(1, static_cast<char>('a' + i));
  auto out = run_op("Transpose", {s});
  EXPECT_THAT(values<std::string>(out[0]), ElementsAre("a", "c", "b", "d"));
}

TEST(Concat, JoinsOnNegativeAxisAndChecksShapes) {
  auto out = run_op("Concat", {iota_f({2, 1}), iota_f({2, 2})}, {A::make_int("axis", -1)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 0, 1, 1, 2, 3));
  expect_error("Concat", {iota_f({2, 1}), iota_f({3, 1})}, {A::make_int("axis", 1)},
               "incompatible");
  expect_error("Concat", {iota_f({2, 1})}, {A::make_int("axis", 2)}, "out of range");
}

TEST(Split, EqualPartsAndExplicitSizes) {
  auto out = run_op("Split", {iota_f({6})}, {}, 3);
  EXPECT_THAT(values<float>(out[2]), ElementsAre(4, 5));
  Tensor sizes = i64({1, 2});
  std::vector<RuntimeValue> in{iota_f({2, 3}), sizes};
  std::vector<A> attrs{A::make_int("axis", 1)};
  auto parts = run_op("Split", in, attrs, 2, 13);
  EXPECT_THAT(values<float>(parts[0]), ElementsAre(0, 3));
  EXPECT_THAT(values<float>(parts[1]), ElementsAre(1, 2, 4, 5));
  // v11: sizes come from the attribute.
  parts = run_op("Split", {iota_f({3})}, {A::make_ints("split", {2, 1})}, 2, 11);
  EXPECT_THAT(values<float>(parts[0]), ElementsAre(0, 1));
  expect_error("Split", {iota_f({5})}, {}, "cannot be split equally", 13, 2);
}

TEST(Slice, StepsNegativeStepsAndClamping) {
  // x = 0..9; [8:1:-3] = 8, 5, 2.
  auto out = run_op("Slice", {iota_f({10}), i64({8}), i64({1}), i64({0}), i64({-3})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(8, 5, 2));
  // Ends far beyond the axis clamp; negative starts count from the end.
  out = run_op("Slice", {iota_f({2, 5}), i64({-2}), i64({1000}), i64({-1})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(3, 4, 8, 9));
  // Backwards to the very start with INT_MIN-like ends.
  out = run_op("Slice", {iota_f({4}), i64({-1}), i64({INT64_MIN}), i64({0}), i64({-1})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(3, 2, 1, 0));
  // v1 uses attributes.
  out = run_op("Slice", {iota_f({2, 3})},
               {A::make_ints("starts", {1}), A::make_ints("ends", {3}), A::make_ints("axes", {1})},
               1, 1);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2, 4, 5));
  expect_error("Slice", {iota_f({4}), i64({0}), i64({4}), i64({0}), i64({0})}, {},
               "steps must not be 0");
}

TEST(Gather, NegativeIndicesAndOutputShape) {
  // data [3,2], indices [[0,-1]] on axis 0 -> [1,2,2].
  auto out = run_op("Gather", {iota_f({3, 2}), i64({0, -1}, {1, 2})});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 4, 5));
  out = run_op("Gather", {iota_f({3, 2}), Tensor::scalar<int32_t>(1)}, {A::make_int("axis", 1)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 3, 5));
  expect_error("Gather", {iota_f({3, 2}), i64({3})}, {}, "out of range");
}

TEST(GatherElements, PicksAlongAxis) {
  // Spec example: data [[1,2],[3,4]], indices [[0,0],[1,0]], axis 1 -> [[1,1],[4,3]].
  Tensor data = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  auto out = run_op("GatherElements", {data, i64({0, 0, 1, 0}, {2, 2})}, {A::make_int("axis", 1)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 1, 4, 3));
}

TEST(GatherND, BatchDims) {
  // Spec example 5: batch_dims=1, data [2,2,2], indices [[1],[0]] -> [[2,3],[4,5]].
  auto out =
      run_op("GatherND", {iota_f({2, 2, 2}), i64({1, 0}, {2, 1})}, {A::make_int("batch_dims", 1)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(2, 3, 4, 5));
  // Full index tuples: [[0,1],[1,0]] on [2,2] -> [1, 2].
  out = run_op("GatherND", {iota_f({2, 2}), i64({0, 1, 1, 0}, {2, 2})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2));
}

TEST(ScatterElements, ReductionAddAndMul) {
  Tensor data = Tensor::from<float>({1, 2, 3, 4, 5}, {1, 5});
  Tensor idx = i64({1, 1}, {1, 2});
  Tensor upd = Tensor::from<float>({1.1f, 2.1f}, {1, 2});
  auto out = run_op("ScatterElements", {data, idx, upd},
                    {A::make_int("axis", 1), A::make_string("reduction", "add")});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 5.2f, 3, 4, 5));
  out = run_op("ScatterElements", {data, idx, upd}, {A::make_int("axis", -1)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2.1f, 3, 4, 5));
  out = run_op("Scatter", {data, idx, upd}, {A::make_int("axis", 1)}, 1, 9);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2.1f, 3, 4, 5));
  EXPECT_THAT(values<float>(RuntimeValue(data)), ElementsAre(1, 2, 3, 4, 5)) << "input untouched";
}

TEST(ScatterND, WritesSlices) {
  // data 0..7 shape [8]; indices [[4],[3],[1],[7]]; updates 9,10,11,12.
  auto out = run_op("ScatterND",
                    {iota_f({8}), i64({4, 3, 1, 7}, {4, 1}), Tensor::from<float>({9, 10, 11, 12})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 11, 2, 10, 9, 5, 6, 12));
  auto mul = run_op("ScatterND", {iota_f({4}), i64({1, 1}, {2, 1}), Tensor::from<float>({3, 5})},
                    {A::make_string("reduction", "mul")});
  EXPECT_THAT(values<float>(mul[0]), ElementsAre(0, 15, 2, 3));
}

TEST(Expand, BroadcastsBothWays) {
  auto out = run_op("Expand", {Tensor::from<float>({1, 2, 3}, {3, 1}), i64({2, 1, 2})});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3));
  expect_error("Expand", {iota_f({3}), i64({2})}, {}, "cannot be broadcast");
}

TEST(Tile, RepeatsEachAxis) {
  auto out = run_op("Tile", {iota_f({2, 2}), i64({1, 2})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 0, 1, 2, 3, 2, 3));
  out = run_op("Tile", {iota_f({2}), i64({3}), i64({0})}, {}, 1, 1);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 0, 1, 0, 1));
}

TEST(Pad, ConstantReflectEdgeAndCrop) {
  Tensor x = Tensor::from<float>({1, 2, 3});
  auto out = run_op("Pad", {x, i64({2, 1}), Tensor::scalar(9.0f)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(9, 9, 1, 2, 3, 9));
  out = run_op("Pad", {x, i64({2, 2})}, {A::make_string("mode", "reflect")});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(3, 2, 1, 2, 3, 2, 1));
  out = run_op("Pad", {x, i64({1, 2})}, {A::make_string("mode", "edge")});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 1, 2, 3, 3, 3));
  out = run_op("Pad", {x, i64({-1, 1})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(2, 3, 0));
  // v2 takes pads and value as attributes.
  out = run_op("Pad", {x}, {A::make_ints("pads", {1, 0}), A::make_float("value", 7)}, 1, 2);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(7, 1, 2, 3));
  expect_error("Pad", {x, i64({1})}, {}, "pads has 1 entries");
}

TEST(SqueezeUnsqueeze, AxesFromAttributesAndInputs) {
  Tensor x(DataType::kFloat, {1, 3, 1});
  EXPECT_EQ(run_op("Squeeze", {x})[0].tensor().shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(run_op("Squeeze", {x, i64({-1})})[0].tensor().shape(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(run_op("Squeeze", {x}, {A::make_ints("axes", {0})}, 1, 11)[0].tensor().shape(),
            (std::vector<int64_t>{3, 1}));
  expect_error("Squeeze", {x, i64({1})}, {}, "cannot squeeze axis 1");
  EXPECT_EQ(run_op("Unsqueeze", {iota_f({3}), i64({0, -1})})[0].tensor().shape(),
            (std::vector<int64_t>{1, 3, 1}));
  EXPECT_EQ(
      run_op("Unsqueeze", {iota_f({3})}, {A::make_ints("axes", {1})}, 1, 1)[0].tensor().shape(),
      (std::vector<int64_t>{3, 1}));
  expect_error("Unsqueeze", {iota_f({3}), i64({0, 0})}, {}, "appears twice");
}

TEST(Flatten, AxisZeroAndNegative) {
  EXPECT_EQ(run_op("Flatten", {iota_f({2, 3, 4})}, {A::make_int("axis", 0)})[0].tensor().shape(),
            (std::vector<int64_t>{1, 24}));
  EXPECT_EQ(run_op("Flatten", {iota_f({2, 3, 4})}, {A::make_int("axis", -1)})[0].tensor().shape(),
            (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(run_op("Flatten", {iota_f({2, 3, 4})}, {A::make_int("axis", 3)})[0].tensor().shape(),
            (std::vector<int64_t>{24, 1}));
}

TEST(ShapeAndSize, StartEndClamp) {
  Tensor x(DataType::kFloat, {2, 3, 4});
  EXPECT_THAT(values<int64_t>(run_op("Shape", {x})[0]), ElementsAre(2, 3, 4));
  EXPECT_THAT(values<int64_t>(run_op("Shape", {x}, {A::make_int("start", -2)})[0]),
              ElementsAre(3, 4));
  EXPECT_THAT(
      values<int64_t>(run_op("Shape", {x}, {A::make_int("start", 1), A::make_int("end", 100)})[0]),
      ElementsAre(3, 4));
  EXPECT_THAT(values<int64_t>(run_op("Size", {x})[0]), ElementsAre(24));
}

TEST(ConstantOfShape, DefaultsToFloatZeroAndUsesValue) {
  auto out = run_op("ConstantOfShape", {i64({2})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 0));
  out = run_op("ConstantOfShape", {i64({2, 1})},
               {A::make_tensor("value", Tensor::from<int32_t>({7}))});
  EXPECT_THAT(values<int32_t>(out[0]), ElementsAre(7, 7));
  EXPECT_EQ(run_op("ConstantOfShape", {Tensor(DataType::kInt64, {0})})[0].tensor().rank(), 0);
}

TEST(Range, CountsAsCeil) {
  auto out = run_op("Range", {Tensor::scalar(1.0f), Tensor::scalar(2.0f), Tensor::scalar(0.3f)});
  EXPECT_EQ(out[0].tensor().numel(), 4);  // ceil(1 / 0.3) = 4
  auto ints = run_op("Range", {Tensor::scalar<int32_t>(10), Tensor::scalar<int32_t>(4),
                               Tensor::scalar<int32_t>(-3)});
  EXPECT_THAT(values<int32_t>(ints[0]), ElementsAre(10, 7));
  expect_error("Range",
               {Tensor::scalar<int32_t>(1), Tensor::scalar<int32_t>(4), Tensor::scalar<int32_t>(0)},
               {}, "delta must not be 0");
  expect_error("Range",
               {Tensor::scalar<uint8_t>(1), Tensor::scalar<uint8_t>(4), Tensor::scalar<uint8_t>(1)},
               {}, "uint8 is not supported");
}

TEST(OneHot, AxisAndNegativeIndices) {
  // indices [1, -1], depth 3, values [0, 5], axis 0 -> shape [3, 2].
  auto out = run_op("OneHot", {i64({1, -1}), Tensor::scalar(3.0f), Tensor::from<int32_t>({0, 5})},
                    {A::make_int("axis", 0)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_THAT(values<int32_t>(out[0]), ElementsAre(0, 0, 5, 0, 0, 5));
}

TEST(NonZero, CoordinatesInRowMajorOrder) {
  Tensor x = Tensor::from<int32_t>({1, 0, 0, 2}, {2, 2});
  auto out = run_op("NonZero", {x});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(0, 1, 0, 1));
}

TEST(Compress, WithAndWithoutAxis) {
  Tensor cond = Tensor::from<bool>({false, true});
  auto out = run_op("Compress", {iota_f({3, 2}), cond}, {A::make_int("axis", 1)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 3, 5));
  out = run_op("Compress", {iota_f({3, 2}), Tensor::from<bool>({false, true, true})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2));
}

TEST(Trilu, UpperLowerWithK) {
  Tensor x = Tensor::from<int64_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  EXPECT_THAT(values<int64_t>(run_op("Trilu", {x})[0]), ElementsAre(1, 2, 3, 0, 5, 6, 0, 0, 9));
  EXPECT_THAT(values<int64_t>(
                  run_op("Trilu", {x, Tensor::scalar<int64_t>(-1)}, {A::make_int("upper", 0)})[0]),
              ElementsAre(0, 0, 0, 4, 0, 0, 7, 8, 0));
}

TEST(EyeLike, OffsetDiagonalAndDtype) {
  auto out =
      run_op("EyeLike", {Tensor(DataType::kFloat, {2, 3})},
             {A::make_int("k", 1), A::make_int("dtype", static_cast<int64_t>(DataType::kInt32))});
  EXPECT_THAT(values<int32_t>(out[0]), ElementsAre(0, 1, 0, 0, 0, 1));
}

TEST(DepthToSpace, DcrAndCrdModes) {
  // [1, 4, 1, 1] with b=2: DCR puts channels 0..3 at (0,0),(0,1),(1,0),(1,1).
  auto out = run_op("DepthToSpace", {iota_f({1, 4, 1, 1})}, {A::make_int("blocksize", 2)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 1, 2, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 2, 3));
  // [1, 8, 1, 1]: DCR interleaves the two output channels, CRD keeps them in blocks.
  out = run_op("DepthToSpace", {iota_f({1, 8, 1, 1})}, {A::make_int("blocksize", 2)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 2, 4, 6, 1, 3, 5, 7));
  out = run_op("DepthToSpace", {iota_f({1, 8, 1, 1})},
               {A::make_int("blocksize", 2), A::make_string("mode", "CRD")});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
  auto back =
      run_op("SpaceToDepth",
             {run_op("DepthToSpace", {iota_f({1, 8, 2, 3})}, {A::make_int("blocksize", 2)})[0]},
             {A::make_int("blocksize", 2)});
  EXPECT_EQ(values<float>(back[0]), values<float>(RuntimeValue(iota_f({1, 8, 2, 3}))));
}

TEST(ReverseSequence, ReversesPrefixes) {
  // time_axis 0, batch_axis 1; x[t][b] = 2t + b over [3, 2]; lens [3, 1].
  auto out = run_op("ReverseSequence", {iota_f({3, 2}), i64({3, 1})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(4, 1, 2, 3, 0, 5));
}

TEST(Unique, SortedUnsortedAndAxis) {
  Tensor x = Tensor::from<float>({2, 1, 1, 3, 4, 3});
  auto out = run_op("Unique", {x}, {}, 4);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(values<int64_t>(out[1]), ElementsAre(1, 0, 3, 4));
  EXPECT_THAT(values<int64_t>(out[2]), ElementsAre(1, 0, 0, 2, 3, 2));
  EXPECT_THAT(values<int64_t>(out[3]), ElementsAre(2, 1, 2, 1));
  out = run_op("Unique", {x}, {A::make_int("sorted", 0)}, 4);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(2, 1, 3, 4));
  EXPECT_THAT(values<int64_t>(out[2]), ElementsAre(0, 1, 1, 2, 3, 2));
  // Rows of [[1,0],[1,0],[0,1]] along axis 0 -> [[0,1],[1,0]].
  out = run_op("Unique", {Tensor::from<int32_t>({1, 0, 1, 0, 0, 1}, {3, 2})},
               {A::make_int("axis", 0)}, 4);
  EXPECT_THAT(values<int32_t>(out[0]), ElementsAre(0, 1, 1, 0));
  EXPECT_THAT(values<int64_t>(out[3]), ElementsAre(1, 2));
}

TEST(TopK, LargestSmallestAndTies) {
  Tensor x = Tensor::from<float>({1, 3, 3, 2}, {1, 4});
  auto out = run_op("TopK", {x, i64({2})}, {}, 2);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(3, 3));
  EXPECT_THAT(values<int64_t>(out[1]), ElementsAre(1, 2)) << "ties go to the lower index";
  out = run_op("TopK", {x, i64({1})}, {A::make_int("largest", 0), A::make_int("axis", -1)}, 2);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1));
  out = run_op("TopK", {x}, {A::make_int("k", 3)}, 2, 1);
  EXPECT_THAT(values<int64_t>(out[1]), ElementsAre(1, 2, 3));
  expect_error("TopK", {x, i64({5})}, {}, "out of [0, 4]", 17, 2);
}

TEST(ArgMaxArgMin, KeepdimsAndSelectLast) {
  Tensor x = Tensor::from<int32_t>({2, 1, 2, 0, 5, 0}, {2, 3});
  EXPECT_THAT(values<int64_t>(run_op("ArgMax", {x}, {A::make_int("axis", 1)})[0]),
              ElementsAre(0, 1));
  auto last = run_op(
      "ArgMax", {x},
      {A::make_int("axis", -1), A::make_int("select_last_index", 1), A::make_int("keepdims", 0)});
  EXPECT_EQ(last[0].tensor().shape(), (std::vector<int64_t>{2}));
  EXPECT_THAT(values<int64_t>(last[0]), ElementsAre(2, 1));
  EXPECT_THAT(values<int64_t>(run_op("ArgMin", {x}, {A::make_int("axis", 0)})[0]),
              ElementsAre(1, 0, 1));
  expect_error("ArgMax", {x}, {A::make_int("axis", 2)}, "out of range");
}

TEST(CumSum, ExclusiveReverse) {
  Tensor x = Tensor::from<double>({1, 2, 3});
  EXPECT_THAT(values<double>(run_op("CumSum", {x, Tensor::scalar<int32_t>(0)})[0]),
              ElementsAre(1, 3, 6));
  EXPECT_THAT(values<double>(run_op("CumSum", {x, Tensor::scalar<int64_t>(-1)},
                                    {A::make_int("exclusive", 1), A::make_int("reverse", 1)})[0]),
              ElementsAre(5, 3, 0));
  expect_error("CumSum", {Tensor::from<int8_t>({1}), Tensor::scalar<int32_t>(0)}, {},
               "int8 is not supported");
}

}  // namespace
}  // namespace onnxscript::eval
