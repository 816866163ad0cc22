// Samples of the counting family (src/lib/torch_lib/ops/counting.cc): histc
// (given ranges, the data's range, values on the bin edges, float and double,
// empty and 0-D), bincount (weights of each type, minlength, empty, int32)
// and unique_consecutive (flattened or along a dim, each optional output).

#include <cmath>

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 71000;
  return seed++;
}

Value floats(std::vector<float> values, Ints shape) {
  return Value(Tensor::from_span<float>(values, ir::Dims(shape.begin(), shape.end())));
}

Value longs(std::vector<int64_t> values, Ints shape) {
  return Value(Tensor::from_span<int64_t>(values, ir::Dims(shape.begin(), shape.end())));
}

void add_histc(SampleTable& t) {
  const char* name = "aten::histc";
  t.add(name, "defaults omitted: 100 bins over the data's range", {f32({40}, next_seed())});
  t.add(name, "5 bins over [-1, 2], rank 2", {f32({4, 5}, next_seed()), 5, -1.0, 2.0});
  t.add(name, "double, rank 3, integer bounds", {f64({2, 3, 4}, next_seed()), 7, -2, 2});
  t.add(name, "keywords", {f32({12}, next_seed())}, {{"bins", 3}, {"min", -1.5}, {"max", 1.5}});
  t.add(name, "values on the bin edges", {floats({0, 0.5, 1, 1.5, 2, 2.5, -0.5}, {7}), 4, 0, 2});
  t.add(name, "one value: the range widened by 1", {floats({2, 2, 2}, {3}), 4});
  t.add(name, "min == max: the data's range", {f32({3, 3}, next_seed()), 6, 1.0, 1.0});
  t.add(name, "0-D", {f32({}, next_seed()), 3, -3, 3});
  t.add(name, "empty", {f32({0, 2}, next_seed()), 3, 0, 1});
  // No NaN: LibTorch 1.13 counts a NaN in the first bin (its bin number is
  // a float-to-integer cast of NaN); torchlib counts it nowhere.
  t.add(name, "infinities outside", {floats({-INFINITY, 0.25, INFINITY, 1}, {4}), 2, 0, 1});
}

void add_bincount(SampleTable& t) {
  const char* name = "aten::bincount";
  t.add(name, "defaults omitted", {i64({15}, next_seed(), 0, 6)});
  t.add(name, "float weights", {i64({10}, next_seed(), 0, 4), f32({10}, next_seed())});
  t.add(name, "double weights, minlength", {i64({6}, next_seed(), 0, 3), f64({6}, next_seed()), 7});
  t.add(name, "int64 weights give double", {i64({5}, next_seed(), 0, 3), i64({5}, next_seed())});
  t.add(name, "minlength keyword below the values", {i64({8}, next_seed(), 0, 5)},
        {{"minlength", 2}});
  t.add(name, "empty, minlength 3", {i64({0}, next_seed()), Arg(), 3});
  t.add(name, "empty", {i64({0}, next_seed())});
  t.add(name, "int32", {i32({9}, next_seed(), 0, 4)});
}

void add_unique_consecutive(SampleTable& t) {
  const char* name = "aten::unique_consecutive";
  t.add(name, "defaults omitted", {i64({12}, next_seed(), 0, 1)});
  t.add(name, "return_inverse, rank 2", {i64({3, 4}, next_seed(), 0, 1), true});
  t.add(name, "return_counts, float", {floats({1.5, 1.5, -2, -2, -2, 0, 1.5}, {7}), false, true});
  t.add(name, "all outputs, int64 rank 3", {i64({2, 3, 2}, next_seed(), 0, 1), true, true});
  t.add(name, "all outputs, bool", {booleans({9}, next_seed()), true, true});
  t.add(name, "dim 0", {longs({0, 1, 0, 1, 1, 1, 0, 1, 0, 1}, {5, 2}), false, false, 0});
  t.add(name, "dim keyword -1", {longs({3, 3, 1, 1, 2, 2, 5, 5}, {2, 4})}, {{"dim", -1}});
  t.add(name, "dim 1 of rank 3, float", {f32({2, 3, 2}, next_seed()), true, true, 1});
  t.add(name, "NaN differs from NaN", {floats({NAN, NAN, 1, 1}, {4}), true, true});
  t.add(name, "empty", {i64({0}, next_seed()), true, true});
  t.add(name, "0-D", {i64({}, next_seed()), true, true});
}

}  // namespace

void add_counting_samples(SampleTable& t) {
  add_histc(t);
  add_bincount(t);
  add_unique_consecutive(t);
}

}  // namespace onnxscript::torch_lib::comparison
