// Samples of embedding_renorm, embedding_bag and its spellings
// (src/lib/torch_lib/ops/embedding_bag.cc): each mode, per_sample_weights, include_last_offset,
// empty bags, padding_idx (given, negative, None), int32 indices, float, double and float16
// weights, and defaults left out; the bookkeeping outputs compare too.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 74000;
  return seed++;
}

Value longs(std::vector<int64_t> values) {
  const auto n = static_cast<int64_t>(values.size());
  return Value(Tensor::from_span<int64_t>(values, {n}));
}

}  // namespace

void add_embedding_bag_samples(SampleTable& t) {
  const char* renorm = "aten::embedding_renorm";
  t.add(renorm, "2-norm, repeated rank-2 indices",
        {f32({5, 3}, next_seed()), Value(Tensor::from<int64_t>({1, 3, 3, 0}, {2, 2})), 2.0, 2.0});
  t.add(renorm, "1-norm, no row above max_norm",
        {f32({4, 2}, next_seed(), -0.5, 0.5), longs({2}), 5.0, 1.0});
  t.add(renorm, "3-norm, double", {f64({4, 3}, next_seed()), longs({0, 2}), 1.0, 3.0});

  // 8 indices into 6 rows in 4 bags, the second one empty.
  const Value indices = longs({0, 2, 4, 5, 4, 3, 1, 4});
  const Value offsets = longs({0, 3, 3, 6});
  const char* name = "aten::embedding_bag";
  t.add(name, "sum, defaults omitted", {f32({6, 3}, next_seed()), indices, offsets});
  t.add(name, "mean", {f32({6, 3}, next_seed()), indices, offsets, false, 1});
  t.add(name, "max", {f32({6, 3}, next_seed()), indices, offsets, false, 2});
  t.add(name, "sum, per_sample_weights",
        {f32({6, 2}, next_seed()), indices, offsets, false, 0, false, f32({8}, next_seed())});
  t.add(name, "mean, include_last_offset keyword",
        {f32({6, 4}, next_seed()), indices, longs({0, 3, 3, 6, 8}), false, 1},
        {{"include_last_offset", true}});
  t.add(name, "sum, include_last_offset",
        {f32({6, 4}, next_seed()), indices, longs({0, 2, 8}), false, 0, false, Arg(), true});
  t.add(name, "sum, double (LibTorch's slow path)", {f64({6, 3}, next_seed()), indices, offsets});
  t.add(name, "max, int32 indices and offsets",
        {f32({6, 2}, next_seed()), Value(Tensor::from<int32_t>({1, 1, 5, 0, 2}, {5})),
         Value(Tensor::from<int32_t>({0, 2}, {2})), false, 2});
  t.add(name, "sum, float16", {f16({6, 3}, next_seed()), indices, offsets});
  t.add(name, "mode keyword, one bag", {f32({6, 3}, next_seed()), indices, longs({0})},
        {{"mode", 1}});

  const char* padded = "aten::embedding_bag.padding_idx";
  t.add(padded, "sum, padding_idx 4",
        {f32({6, 3}, next_seed()), indices, offsets, false, 0, false, Arg(), false, 4});
  t.add(padded, "mean, padding_idx -2",
        {f32({6, 3}, next_seed()), indices, offsets, false, 1, false, Arg(), false, -2});
  t.add(padded, "max, padding_idx 0",
        {f32({6, 3}, next_seed()), indices, offsets, false, 2, false, Arg(), false, 0});
  t.add(padded, "sum, padding_idx None",
        {f32({6, 3}, next_seed()), indices, offsets, false, 0, false, Arg(), false, Arg()});

  for (const char* internal : {"aten::_embedding_bag", "aten::_embedding_bag_forward_only"}) {
    t.add(internal, "sum, defaults omitted", {f32({6, 3}, next_seed()), indices, offsets});
    t.add(internal, "mean, padding_idx 5",
          {f32({6, 3}, next_seed()), indices, offsets, false, 1, false, Arg(), false, 5});
    t.add(internal, "sum with weights, padding_idx keyword",
          {f32({6, 3}, next_seed()), indices, offsets, false, 0, false, f32({8}, next_seed())},
          {{"padding_idx", 3}});
    t.add(internal, "max", {f64({6, 2}, next_seed()), indices, offsets, false, 2});
  }
}

}  // namespace onnxscript::torch_lib::comparison
