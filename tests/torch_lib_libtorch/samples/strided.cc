// Samples of the strided reads (src/lib/torch_lib/ops/strided.cc):
// as_strided (overlapping windows, a storage offset, a 0-D result, stride 0,
// an empty size; float, int64 and bool) and im2col (batched and not,
// padding, dilation and stride, single ints for int[2], float and double).

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 72000;
  return seed++;
}

void add_as_strided(SampleTable& t) {
  const char* name = "aten::as_strided";
  t.add(name, "transposed 2x2 blocks", {f32({3, 4}, next_seed()), Ints{2, 2}, Ints{1, 2}});
  t.add(name, "overlapping windows, storage_offset 2",
        {f32({10}, next_seed()), Ints{3, 4}, Ints{2, 1}, 2});
  t.add(name, "0-D at offset 3", {f32({5}, next_seed()), Ints{}, Ints{}, 3});
  t.add(name, "int64, rank 3", {i64({24}, next_seed()), Ints{2, 3, 2}, Ints{12, 4, 1}});
  t.add(name, "bool, overlapping", {booleans({6}, next_seed()), Ints{2, 2}, Ints{1, 1}});
  t.add(name, "stride 0 repeats a row", {f32({2, 3}, next_seed()), Ints{4, 3}, Ints{0, 1}});
  t.add(name, "empty size", {f32({4}, next_seed()), Ints{0, 2}, Ints{1, 1}});
  t.add(name, "storage_offset keyword", {f64({2, 4}, next_seed()), Ints{3}, Ints{2}},
        {{"storage_offset", 1}});
}

void add_storage_offset(SampleTable& t) {
  t.add("aten::sym_storage_offset", "contiguous rank 2", {f32({2, 3}, next_seed())});
  t.add("aten::sym_storage_offset", "int64, 0-D", {i64({}, next_seed())});
}

void add_im2col(SampleTable& t) {
  const char* name = "aten::im2col";
  t.add(name, "2x2 kernel, stride 1",
        {f32({1, 2, 5, 5}, next_seed()), Ints{2, 2}, Ints{1, 1}, Ints{0, 0}, Ints{1, 1}});
  t.add(name, "padding, dilation and stride",
        {f32({2, 3, 6, 5}, next_seed()), Ints{3, 2}, Ints{2, 1}, Ints{1, 2}, Ints{2, 1}});
  t.add(name, "unbatched, single ints", {f32({2, 4, 4}, next_seed()), 2, 1, 1, 2});
  t.add(name, "double, padded 3x3",
        {f64({1, 1, 4, 4}, next_seed()), Ints{3, 3}, Ints{1, 1}, Ints{1, 1}, Ints{1, 1}});
  // No integer sample: LibTorch 1.13's im2col has float kernels only.
  t.add(name, "kernel the input's size",
        {f32({1, 2, 3, 3}, next_seed()), Ints{3, 3}, Ints{1, 1}, Ints{0, 0}, Ints{1, 1}});
}

}  // namespace

void add_strided_samples(SampleTable& t) {
  add_as_strided(t);
  add_im2col(t);
  add_storage_offset(t);
}

}  // namespace onnxscript::torch_lib::comparison
