// Samples of the indexing family (src/lib/torch_lib/ops/indexing.cc):
// advanced indexing, index_put, the scatters, masked_scatter and
// repeat_interleave with tensor repeats.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

using Tensors = std::vector<Value>;

// An int64 index tensor with the given elements. A scatter without a
// reduction writes one source element per target only when its indices do
// not repeat along the scattered dim (otherwise which write wins is
// unspecified), so those samples spell their indices out.
Value idx(std::vector<int64_t> values, Ints shape) {
  return Value(Tensor::from_span<int64_t>(values, shape));
}

void add_index(SampleTable& t) {
  for (const char* name : {"aten::index.Tensor", "aten::index.Tensor_hacked_twin"}) {
    t.add(name, "one index on dim 0", {f32({4, 3}, 3000), Tensors{i64({2}, 3001, 0, 3)}});
    t.add(name, "two indices broadcast",
          {f32({4, 5}, 3002), Tensors{i64({2, 1}, 3003, 0, 3), i64({3}, 3004, 0, 4)}});
    t.add(name, "negative indices", {f32({5}, 3005), Tensors{i64({3}, 3006, -5, -1)}});
    t.add(name, "rank 2 index, int64 rank 3",
          {i64({3, 2, 2}, 3007), Tensors{i64({2, 2}, 3008, 0, 2)}});
    t.add(name, "bool mask", {f32({2, 3}, 3009), Tensors{booleans({2, 3}, 3010)}});
    t.add(name, "bool mask on dim 0", {f32({4, 2}, 3011), Tensors{booleans({4}, 3012)}});
    t.add(name, "0-D index", {f32({3, 2}, 3013), Tensors{i64({}, 3014, 0, 2)}});
    t.add(name, "empty index", {f32({3, 2}, 3015), Tensors{i64({0}, 3016, 0, 2)}});
    t.add(name, "float16", {f16({4, 2}, 3017), Tensors{i64({3}, 3018, 0, 3)}});
    t.add(name, "bool self", {booleans({5}, 3019), Tensors{i64({2}, 3020, 0, 4)}});
  }

  for (const char* name : {"aten::index_put", "aten::index_put.hacked_twin"}) {
    t.add(name, "rows, values broadcast",
          {f32({4, 3}, 3030), Tensors{idx({0, 2}, {2})}, f32({3}, 3031)});
    t.add(name, "elements by two indices",
          {f32({3, 4}, 3032), Tensors{idx({0, 1, 2}, {3}), idx({3, 0, 1}, {3})}, f32({3}, 3033)});
    t.add(name, "accumulate with repeated indices",
          {f32({5}, 3034), Tensors{idx({1, 1, 3, 1}, {4})}, f32({4}, 3035), true});
    t.add(name, "accumulate keyword, int64",
          {i64({3, 2}, 3036), Tensors{idx({2, 0, 2}, {3})}, i64({3, 2}, 3037)},
          {{"accumulate", true}});
    t.add(name, "negative index, 0-D value",
          {f32({4}, 3038), Tensors{idx({-1, 0}, {2})}, f32({}, 3039)});
    t.add(name, "bool mask", {f32({2, 3}, 3040), Tensors{booleans({2, 3}, 3041)}, f32({}, 3042)});
    t.add(name, "float16", {f16({3, 2}, 3043), Tensors{idx({1}, {1})}, f16({1, 2}, 3044)});
    t.add(name, "bool self", {booleans({4}, 3045), Tensors{idx({0, 3}, {2})}, booleans({2}, 3046)});
    t.add(name, "empty index", {f32({3}, 3047), Tensors{idx({}, {0})}, f32({0}, 3048)});
  }
}

void add_scatters(SampleTable& t) {
  // For self (3, 4), dim 0: index (2, 4) whose columns do not repeat.
  const Value rows = idx({0, 2, 1, 0, 2, 0, 0, 1}, {2, 4});
  // For self (3, 4), dim 1: index (3, 2) whose rows do not repeat.
  const Value cols = idx({3, 0, 1, 2, 0, 1}, {3, 2});
  // Repeated indices, for the reductions.
  const Value repeated = idx({0, 0, 2, 0, 2, 2, 0, 1}, {2, 4});

  t.add("aten::scatter.src", "dim 0", {f32({3, 4}, 3100), 0, rows, f32({2, 4}, 3101)});
  t.add("aten::scatter.src", "dim 1, larger src", {f32({3, 4}, 3102), 1, cols, f32({3, 5}, 3103)});
  t.add("aten::scatter.src", "negative dim, int64",
        {i64({3, 4}, 3104), -1, cols, i64({3, 2}, 3105)});
  t.add("aten::scatter.src", "rank 1", {f32({5}, 3106), 0, idx({4, 0}, {2}), f32({2}, 3107)});
  t.add("aten::scatter.src", "float16", {f16({3, 4}, 3108), 0, rows, f16({2, 4}, 3109)});
  t.add("aten::scatter.src", "bool", {booleans({3, 4}, 3110), 1, cols, booleans({3, 2}, 3111)});
  t.add("aten::scatter.src", "empty index", {f32({3}, 3112), 0, idx({}, {0}), f32({0}, 3113)});
  t.add("aten::scatter.value", "float by float", {f32({3, 4}, 3120), 0, rows, 1.5});
  t.add("aten::scatter.value", "float by int", {f32({3, 4}, 3121), 1, cols, 2});
  t.add("aten::scatter.value", "int64, negative dim", {i64({3, 4}, 3122), -2, rows, -7});
  t.add("aten::scatter.value", "float16", {f16({3, 4}, 3123), 1, cols, 0.25});
  t.add("aten::scatter.value", "bool", {booleans({3, 4}, 3124), 0, rows, true});

  for (const char* reduce : {"add", "multiply"}) {
    t.add("aten::scatter.reduce", std::string(reduce) + " dim 0",
          {f32({3, 4}, 3130), 0, repeated, f32({2, 4}, 3131)}, {{"reduce", reduce}});
    t.add("aten::scatter.reduce", std::string(reduce) + " dim 1, int64",
          {i64({3, 4}, 3132), 1, cols, i64({3, 2}, 3133)}, {{"reduce", reduce}});
    t.add("aten::scatter.value_reduce", std::string(reduce) + " float",
          {f32({3, 4}, 3134), 0, repeated, 1.5}, {{"reduce", reduce}});
    t.add("aten::scatter.value_reduce", std::string(reduce) + " int64 negative dim",
          {i64({3, 4}, 3135), -1, cols, 3}, {{"reduce", reduce}});
  }
  t.add("aten::scatter.reduce", "add float16", {f16({3, 4}, 3136), 0, repeated, f16({2, 4}, 3137)},
        {{"reduce", "add"}});

  t.add("aten::scatter_add", "repeated indices, dim 0",
        {f32({3, 4}, 3140), 0, repeated, f32({2, 4}, 3141)});
  t.add("aten::scatter_add", "dim 1, larger src", {f32({3, 4}, 3142), 1, cols, f32({3, 3}, 3143)});
  t.add("aten::scatter_add", "int64, negative dim",
        {i64({3, 4}, 3144), -2, repeated, i64({2, 4}, 3145)});
  t.add("aten::scatter_add", "rank 1 all to one place",
        {f32({3}, 3146), 0, idx({1, 1, 1}, {3}), f32({3}, 3147)});
  t.add("aten::scatter_add", "float16", {f16({3, 4}, 3148), 0, repeated, f16({2, 4}, 3149)});
  t.add("aten::scatter_add", "double", {f64({3, 4}, 3150), 1, cols, f64({3, 2}, 3151)});

  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    const std::string r = reduce;
    t.add("aten::scatter_reduce.two", r + " dim 0",
          {f32({3, 4}, 3160), 0, repeated, f32({2, 4}, 3161), reduce});
    t.add("aten::scatter_reduce.two", r + " without self",
          {f32({3, 4}, 3162), 0, repeated, f32({2, 4}, 3163), reduce}, {{"include_self", false}});
    t.add("aten::scatter_reduce.two", r + " int64 dim 1",
          {i64({3, 4}, 3164), 1, cols, i64({3, 2}, 3165), reduce});
  }
  t.add("aten::scatter_reduce.two", "sum float16",
        {f16({3, 4}, 3166), 0, repeated, f16({2, 4}, 3167), "sum"});
  t.add("aten::scatter_reduce.two", "amax rank 1, negative dim",
        {f32({4}, 3168), -1, idx({3, 3, 0}, {3}), f32({3}, 3169), "amax"});

  t.add("aten::select_scatter", "dim 0", {f32({3, 4}, 3170), f32({4}, 3171), 0, 1});
  t.add("aten::select_scatter", "negative dim and index",
        {f32({2, 3, 4}, 3172), f32({2, 3}, 3173), -1, -1});
  t.add("aten::select_scatter", "rank 1 into 0-D src", {i64({5}, 3174), i64({}, 3175), 0, 2});
  t.add("aten::select_scatter", "float16", {f16({2, 2}, 3176), f16({2}, 3177), 1, 0});
  t.add("aten::select_scatter", "bool", {booleans({3, 2}, 3178), booleans({2}, 3179), 0, 2});

  t.add("aten::slice_scatter", "defaults omitted", {f32({3, 4}, 3180), f32({3, 4}, 3181)});
  t.add("aten::slice_scatter", "start and end", {f32({5, 2}, 3182), f32({2, 2}, 3183), 0, 1, 3});
  t.add("aten::slice_scatter", "step 2, dim 1", {f32({2, 6}, 3184), f32({2, 3}, 3185), 1, 0, 6, 2});
  t.add("aten::slice_scatter", "negative start, end None",
        {i64({2, 5}, 3186), i64({2, 2}, 3187), -1, -2, Arg()});
  t.add("aten::slice_scatter", "end past the size", {f32({4}, 3188), f32({2}, 3189), 0, 2, 100});
  t.add("aten::slice_scatter", "keywords", {f32({3, 6}, 3190), f32({3, 2}, 3191)},
        {{"dim", 1}, {"start", 1}, {"step", 3}});
  t.add("aten::slice_scatter", "float16", {f16({4, 2}, 3192), f16({1, 2}, 3193), 0, 3});
  t.add("aten::slice_scatter", "bool", {booleans({4}, 3194), booleans({2}, 3195), 0, 0, 4, 2});
  t.add("aten::slice_scatter", "empty slice", {f32({4}, 3196), f32({0}, 3197), 0, 2, 2});

  t.add("aten::masked_scatter", "same shape",
        {f32({2, 3}, 3200), booleans({2, 3}, 3201), f32({2, 3}, 3202)});
  t.add("aten::masked_scatter", "mask broadcast, larger source",
        {f32({3, 4}, 3203), booleans({4}, 3204), f32({20}, 3205)});
  t.add("aten::masked_scatter", "int64", {i64({5}, 3206), booleans({5}, 3207), i64({5}, 3208)});
  t.add("aten::masked_scatter", "float16",
        {f16({2, 2}, 3209), booleans({2, 2}, 3210), f16({4}, 3211)});
  t.add("aten::masked_scatter", "all false",
        {f32({3}, 3212), Value(Tensor::from<bool>({false, false, false})), f32({1}, 3213)});
  t.add("aten::masked_scatter", "bool self",
        {booleans({4}, 3214), booleans({4}, 3215), booleans({4}, 3216)});
}

void add_repeat_interleave(SampleTable& t) {
  t.add("aten::repeat_interleave.Tensor", "counts", {idx({2, 0, 3, 1}, {4})});
  t.add("aten::repeat_interleave.Tensor", "one count", {idx({3}, {1})});
  t.add("aten::repeat_interleave.Tensor", "output_size keyword", {idx({1, 2}, {2})},
        {{"output_size", 3}});
  t.add("aten::repeat_interleave.Tensor", "all zero", {idx({0, 0}, {2})});
  t.add("aten::repeat_interleave.self_Tensor", "flat, dim omitted",
        {f32({2, 2}, 3300), idx({1, 2, 0, 3}, {4})});
  t.add("aten::repeat_interleave.self_Tensor", "dim 0",
        {f32({3, 2}, 3301), idx({2, 0, 1}, {3}), 0});
  t.add("aten::repeat_interleave.self_Tensor", "negative dim",
        {i64({2, 3}, 3302), idx({1, 3, 2}, {3}), -1});
  t.add("aten::repeat_interleave.self_Tensor", "one repeat for all",
        {f32({2, 3}, 3303), idx({2}, {1}), 1});
  t.add("aten::repeat_interleave.self_Tensor", "0-D repeats", {f32({3}, 3304), idx({2}, {}), 0});
  t.add("aten::repeat_interleave.self_Tensor", "output_size keyword",
        {f32({2}, 3305), idx({2, 1}, {2}), 0}, {{"output_size", 3}});
  t.add("aten::repeat_interleave.self_Tensor", "bool",
        {booleans({3}, 3306), idx({1, 0, 2}, {3}), 0});
  t.add("aten::repeat_interleave.self_Tensor", "float16 rank 3",
        {f16({2, 2, 2}, 3307), idx({3, 1}, {2}), 1});
}

}  // namespace

void add_indexing_samples(SampleTable& t) {
  add_index(t);
  add_scatters(t);
  add_repeat_interleave(t);
}

}  // namespace onnxscript::torch_lib::comparison
