// Samples of the in-place division and subtraction and of division by a
// Scalar with a rounding mode. torchlib registers these next to their
// aliases in src/lib/torch_lib/ops/binary.cc; they sit here with the
// arithmetic they share their functions with (aten_div, aten_sub).

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 30000;
  return seed++;
}

}  // namespace

void add_arithmetic_samples(SampleTable& t) {
  // div.Scalar_mode: floor, trunc and None, on floats and integers.
  for (const char* mode : {"floor", "trunc"}) {
    const std::string m = mode;
    t.add("aten::div.Scalar_mode", "float by int, " + m, {f32({2, 4}, next_seed(), -9, 9), 2},
          {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "float by negative float, " + m,
          {f32({6}, next_seed(), -9, 9), -1.5}, {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "int64 by int, " + m, {i64({8}, next_seed(), -20, 20), 3},
          {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "int64 by negative int, " + m,
          {i64({8}, next_seed(), -20, 20), -4}, {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "double 0-D, " + m, {f64({}, next_seed(), -9, 9), 0.75},
          {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "rank 4, " + m, {f32({2, 1, 3, 2}, next_seed(), -9, 9), 4},
          {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "empty, " + m, {f32({0, 3}, next_seed()), 2},
          {{"rounding_mode", mode}});
    t.add("aten::div.Scalar_mode", "float16, " + m, {f16({5}, next_seed(), -9, 9), 2},
          {{"rounding_mode", mode}});
  }
  t.add("aten::div.Scalar_mode", "rounding_mode None (true division)", {f32({4}, next_seed()), 3},
        {{"rounding_mode", Arg()}});
  t.add("aten::div.Scalar_mode", "int64, rounding_mode None divides as float",
        {i64({5}, next_seed()), 2}, {{"rounding_mode", Arg()}});

  // In-place division: floating self (PyTorch cannot write a quotient into an
  // integer tensor).
  t.add("aten::div_.Tensor", "float same shape",
        {f32({2, 3}, next_seed()), nonzero_f32({2, 3}, next_seed())});
  t.add("aten::div_.Tensor", "broadcast other",
        {f32({2, 3, 4}, next_seed()), nonzero_f32({4}, next_seed())});
  t.add("aten::div_.Tensor", "0-D other", {f32({3, 2}, next_seed()), nonzero_f32({}, next_seed())});
  t.add("aten::div_.Tensor", "0-D", {f32({}, next_seed()), nonzero_f32({}, next_seed())});
  t.add("aten::div_.Tensor", "double", {f64({4}, next_seed()), f64({4}, next_seed(), 0.5, 3)});
  t.add("aten::div_.Tensor", "float16", {f16({4}, next_seed()), f16({4}, next_seed(), 0.5, 3)});
  t.add("aten::div_.Tensor", "empty", {f32({0, 2}, next_seed()), nonzero_f32({2}, next_seed())});
  t.add("aten::div_.Tensor", "rank 4 by rank 4 with size-1 dims",
        {f32({2, 3, 1, 2}, next_seed()), nonzero_f32({1, 3, 1, 1}, next_seed())});
  t.add("aten::div_.Scalar", "float by int", {f32({2, 3}, next_seed()), 4});
  t.add("aten::div_.Scalar", "float by float", {f32({5}, next_seed()), -0.25});
  t.add("aten::div_.Scalar", "double 0-D", {f64({}, next_seed()), 3});
  t.add("aten::div_.Scalar", "float16", {f16({4}, next_seed()), 2});
  t.add("aten::div_.Scalar", "empty", {f32({0}, next_seed()), 2});

  // In-place subtraction, with and without alpha.
  t.add("aten::sub_.Tensor", "float same shape",
        {f32({2, 3}, next_seed()), f32({2, 3}, next_seed())});
  t.add("aten::sub_.Tensor", "broadcast other",
        {f32({2, 3, 4}, next_seed()), f32({3, 1}, next_seed())});
  t.add("aten::sub_.Tensor", "alpha keyword int", {f32({4}, next_seed()), f32({4}, next_seed())},
        {{"alpha", 2}});
  t.add("aten::sub_.Tensor", "alpha keyword float", {f32({4}, next_seed()), f32({4}, next_seed())},
        {{"alpha", 0.5}});
  t.add("aten::sub_.Tensor", "int64, alpha 3", {i64({5}, next_seed()), i64({5}, next_seed())},
        {{"alpha", 3}});
  t.add("aten::sub_.Tensor", "double", {f64({3}, next_seed()), f64({3}, next_seed())});
  t.add("aten::sub_.Tensor", "float16", {f16({3}, next_seed()), f16({3}, next_seed())});
  t.add("aten::sub_.Tensor", "0-D", {f32({}, next_seed()), f32({}, next_seed())});
  t.add("aten::sub_.Tensor", "empty", {f32({2, 0}, next_seed()), f32({0}, next_seed())});
  t.add("aten::sub_.Tensor", "rank 4",
        {f32({2, 1, 2, 3}, next_seed()), f32({2, 1, 2, 3}, next_seed())});
  t.add("aten::sub_.Scalar", "float tensor, int scalar", {f32({2, 3}, next_seed()), 2});
  t.add("aten::sub_.Scalar", "float scalar, alpha", {f32({4}, next_seed()), 1.5, 2});
  t.add("aten::sub_.Scalar", "int64 tensor, int scalar, alpha", {i64({4}, next_seed()), 3, -2});
  t.add("aten::sub_.Scalar", "double 0-D", {f64({}, next_seed()), 0.25});
  t.add("aten::sub_.Scalar", "float16", {f16({3}, next_seed()), 1});
  t.add("aten::sub_.Scalar", "empty", {f32({0, 3}, next_seed()), 1});
}

}  // namespace onnxscript::torch_lib::comparison
