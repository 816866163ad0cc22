// Samples of the nn family (src/lib/torch_lib/ops/nn.cc and nn_more.cc):
// convolutions, pooling, padding, normalization, dropout, grid sampling and
// col2im, in each rank they take, with their keywords and defaults.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// Sums of products over a kernel or a normalized group accumulate rounding.
constexpr double kSumTol = 1e-4;

void add_convolutions(SampleTable& t) {
  t.add("aten::conv1d", "defaults omitted", {f32({1, 2, 7}, 2000), f32({3, 2, 3}, 2001)}, {},
        kSumTol);
  t.add("aten::conv1d", "bias, stride 2, padding 1",
        {f32({2, 2, 8}, 2002), f32({4, 2, 3}, 2003), f32({4}, 2004), Ints{2}, Ints{1}}, {},
        kSumTol);
  t.add("aten::conv1d", "single ints, dilation 2, groups 2",
        {f32({1, 4, 9}, 2005), f32({2, 2, 3}, 2006), Arg(), 1, 0, 2, 2}, {}, kSumTol);
  t.add("aten::conv1d", "keywords", {f32({1, 1, 6}, 2007), f32({2, 1, 2}, 2008)},
        {{"bias", f32({2}, 2009)}, {"padding", Ints{2}}, {"stride", Ints{3}}}, kSumTol);
  t.add("aten::conv1d", "double", {f64({1, 2, 5}, 2010), f64({1, 2, 2}, 2011)});
  t.onnxruntime_lacks("no double Conv");
  t.add("aten::conv1d", "unbatched (rank 2)", {f32({2, 6}, 2012), f32({3, 2, 3}, 2013)}, {},
        kSumTol);

  t.add("aten::conv1d.padding", "valid", {f32({1, 2, 7}, 2020), f32({3, 2, 3}, 2021)}, {}, kSumTol);
  t.add("aten::conv1d.padding", "same, odd kernel",
        {f32({1, 2, 7}, 2022), f32({3, 2, 3}, 2023), f32({3}, 2024), Ints{1}, "same"}, {}, kSumTol);
  t.add("aten::conv1d.padding", "same, even kernel, dilation 2",
        {f32({2, 1, 8}, 2025), f32({2, 1, 2}, 2026), Arg(), Ints{1}, "same", Ints{2}}, {}, kSumTol);
  t.add("aten::conv1d.padding", "valid keyword, groups 2",
        {f32({1, 4, 6}, 2027), f32({4, 2, 3}, 2028)}, {{"padding", "valid"}, {"groups", 2}},
        kSumTol);

  t.add("aten::conv3d", "defaults omitted",
        {f32({1, 2, 4, 4, 4}, 2030), f32({3, 2, 3, 3, 3}, 2031)}, {}, kSumTol);
  t.add("aten::conv3d", "bias, stride 2, padding 1",
        {f32({1, 1, 5, 5, 5}, 2032), f32({2, 1, 3, 3, 3}, 2033), f32({2}, 2034), Ints{2, 2, 2},
         Ints{1, 1, 1}},
        {}, kSumTol);
  t.add("aten::conv3d", "single ints, groups 2",
        {f32({2, 2, 3, 4, 3}, 2035), f32({2, 1, 2, 2, 2}, 2036), Arg(), 1, 1, 1, 2}, {}, kSumTol);
  t.add("aten::conv3d", "dilation keyword",
        {f32({1, 1, 5, 5, 5}, 2037), f32({1, 1, 2, 2, 2}, 2038)}, {{"dilation", Ints{2, 1, 2}}},
        kSumTol);
  t.add("aten::conv3d", "unbatched (rank 4)", {f32({2, 3, 3, 3}, 2039), f32({1, 2, 2, 2, 2}, 2040)},
        {}, kSumTol);

  t.add("aten::conv3d.padding", "valid", {f32({1, 1, 4, 4, 4}, 2041), f32({2, 1, 3, 3, 3}, 2042)},
        {}, kSumTol);
  t.add("aten::conv3d.padding", "same",
        {f32({1, 2, 4, 3, 4}, 2043), f32({2, 2, 3, 2, 3}, 2044), f32({2}, 2045), 1, "same"}, {},
        kSumTol);
  t.add("aten::conv3d.padding", "same, dilation keyword",
        {f32({1, 1, 5, 5, 5}, 2046), f32({1, 1, 2, 2, 2}, 2047)},
        {{"padding", "same"}, {"dilation", Ints{2, 2, 1}}}, kSumTol);
}

void add_pooling(SampleTable& t) {
  t.add("aten::max_pool1d", "kernel 2, stride omitted", {f32({1, 2, 6}, 2100), Ints{2}});
  t.add("aten::max_pool1d", "kernel 3 stride 2 padding 1", {f32({2, 2, 7}, 2101), 3, 2, 1});
  t.add("aten::max_pool1d", "dilation 2", {f32({1, 1, 9}, 2102), 2, 1, 0, 2});
  t.add("aten::max_pool1d", "ceil_mode keyword", {f32({1, 1, 5}, 2103), 2}, {{"ceil_mode", true}});
  t.add("aten::max_pool1d", "unbatched (rank 2)", {f32({3, 8}, 2104), 2});
  t.add("aten::max_pool1d", "double", {f64({1, 2, 6}, 2105), 3});
  t.add("aten::max_pool3d", "kernel 2, stride omitted",
        {f32({1, 2, 4, 4, 4}, 2110), Ints{2, 2, 2}});
  t.add("aten::max_pool3d", "stride 2 padding 1",
        {f32({1, 1, 5, 5, 5}, 2111), Ints{3, 3, 3}, Ints{2, 2, 2}, Ints{1, 1, 1}});
  t.add("aten::max_pool3d", "single int kernel, ceil_mode",
        {f32({2, 1, 5, 4, 5}, 2112), 2, Ints{}, 0, 1, true});
  t.add("aten::max_pool3d", "dilation keyword", {f32({1, 1, 5, 5, 5}, 2113), 2},
        {{"dilation", Ints{2, 2, 2}}});
  t.add("aten::max_pool3d", "unbatched (rank 4)", {f32({2, 4, 4, 4}, 2114), 2});

  t.add("aten::max_pool1d_with_indices", "kernel 2", {f32({1, 2, 6}, 2120), Ints{2}});
  t.add("aten::max_pool1d_with_indices", "stride 2 padding 1", {f32({2, 3, 7}, 2121), 3, 2, 1});
  t.add("aten::max_pool1d_with_indices", "ceil_mode", {f32({1, 1, 5}, 2122), 2, 2, 0, 1, true});
  t.add("aten::max_pool2d_with_indices", "kernel 2", {f32({1, 2, 4, 6}, 2123), Ints{2, 2}});
  t.add("aten::max_pool2d_with_indices", "stride 2 padding 1",
        {f32({2, 2, 5, 5}, 2124), Ints{3, 3}, Ints{2, 2}, Ints{1, 1}});
  t.add("aten::max_pool2d_with_indices", "dilation 2, ceil_mode keyword",
        {f32({1, 1, 7, 7}, 2125), 2, 1, 0, 2}, {{"ceil_mode", true}});
  t.add("aten::max_pool2d_with_indices", "unbatched (rank 3)", {f32({2, 4, 4}, 2126), 2});
  t.add("aten::max_pool2d_with_indices", "double", {f64({1, 1, 4, 4}, 2127), 2});
  t.add("aten::max_pool3d_with_indices", "kernel 2", {f32({1, 2, 4, 4, 4}, 2128), Ints{2, 2, 2}});
  t.add("aten::max_pool3d_with_indices", "stride 2 padding 1",
        {f32({1, 1, 5, 5, 5}, 2129), 3, 2, 1});

  t.add("aten::avg_pool1d", "kernel 2, stride omitted", {f32({1, 2, 6}, 2130), Ints{2}});
  t.add("aten::avg_pool1d", "padding, count_include_pad default", {f32({2, 2, 7}, 2131), 3, 2, 1});
  t.add("aten::avg_pool1d", "count_include_pad false", {f32({1, 2, 7}, 2132), 3, 2, 1},
        {{"count_include_pad", false}});
  t.add("aten::avg_pool1d", "ceil_mode", {f32({1, 1, 5}, 2133), 2, 2, 0, true});
  t.add("aten::avg_pool1d", "unbatched (rank 2)", {f32({3, 6}, 2134), 3});
  t.add("aten::avg_pool3d", "kernel 2, stride omitted",
        {f32({1, 2, 4, 4, 4}, 2135), Ints{2, 2, 2}});
  t.add("aten::avg_pool3d", "padding", {f32({1, 1, 5, 5, 5}, 2136), 3, 2, 1});
  t.add("aten::avg_pool3d", "count_include_pad false", {f32({1, 1, 5, 5, 5}, 2137), 3, 2, 1},
        {{"count_include_pad", false}});
  t.add("aten::avg_pool3d", "ceil_mode", {f32({1, 1, 5, 5, 5}, 2138), 2, 2, 0, true});
  t.add("aten::avg_pool3d", "divisor_override", {f32({1, 1, 4, 4, 4}, 2139), 2},
        {{"divisor_override", 3}});
  t.add("aten::avg_pool3d", "divisor_override with padding and stride",
        {f32({1, 2, 5, 5, 5}, 2141), 3, 2, 1, false, true, 5});
  t.add("aten::avg_pool3d", "count_include_pad false, double",
        {f64({1, 1, 4, 4, 4}, 2142), 3, 1, 1, false, false});
  t.onnxruntime_lacks("no double AveragePool");
  t.add("aten::avg_pool3d", "unbatched (rank 4)", {f32({2, 4, 4, 4}, 2140), 2});
}

void add_padding(SampleTable& t) {
  t.add("aten::pad", "constant default", {f32({2, 3}, 2200), Ints{1, 2}});
  t.add("aten::pad", "constant value", {f32({2, 3}, 2201), Ints{1, 1, 2, 0}, "constant", 2.5});
  t.add("aten::pad", "constant negative pads", {f32({3, 4}, 2202), Ints{-1, 1}});
  t.add("aten::pad", "constant int64", {i64({2, 2}, 2203), Ints{1, 1}, "constant", 3.0});
  t.add("aten::pad", "reflect rank 3", {f32({1, 2, 5}, 2204), Ints{2, 1}, "reflect"});
  t.add("aten::pad", "reflect rank 4", {f32({1, 1, 3, 4}, 2205), Ints{1, 2, 2, 1}, "reflect"});
  t.add("aten::pad", "replicate rank 4", {f32({1, 2, 3, 3}, 2206), Ints{1, 0, 2, 2}},
        {{"mode", "replicate"}});
  t.add("aten::pad", "replicate rank 5",
        {f32({1, 1, 2, 2, 2}, 2207), Ints{1, 1, 0, 1, 1, 0}, "replicate"});
  t.add("aten::pad", "circular rank 3", {f32({1, 2, 4}, 2208), Ints{1, 2}, "circular"});
  t.add("aten::pad", "circular rank 4", {f32({1, 1, 3, 3}, 2209), Ints{1, 1, 2, 0}, "circular"});
  t.add("aten::pad", "circular rank 5, int64",
        {i64({1, 1, 2, 3, 2}, 2212), Ints{1, 0, 2, 3, 1, 1}, "circular"});
  t.add("aten::pad", "constant float16", {f16({2}, 2210), Ints{1, 1}});
  t.add("aten::pad", "constant empty dim", {f32({0, 2}, 2211), Ints{1, 1}});

  t.add("aten::reflection_pad1d", "rank 3", {f32({1, 2, 5}, 2220), Ints{2, 1}});
  t.add("aten::reflection_pad1d", "rank 2", {f32({2, 4}, 2221), Ints{1, 3}});
  t.add("aten::reflection_pad1d", "zero pads, double", {f64({1, 1, 3}, 2222), Ints{0, 0}});
  t.add("aten::reflection_pad2d", "rank 4", {f32({1, 2, 3, 4}, 2223), Ints{1, 2, 2, 1}});
  t.add("aten::reflection_pad2d", "rank 3", {f32({2, 3, 3}, 2224), Ints{2, 0, 1, 1}});
  t.add("aten::reflection_pad3d", "rank 5", {f32({1, 1, 3, 3, 3}, 2225), Ints{1, 1, 2, 0, 1, 2}});
  t.add("aten::reflection_pad3d", "rank 4", {f32({2, 3, 2, 3}, 2226), Ints{1, 0, 1, 1, 0, 1}});
  t.add("aten::replication_pad1d", "rank 3", {f32({1, 2, 4}, 2230), Ints{3, 1}});
  t.add("aten::replication_pad1d", "rank 2", {f32({2, 3}, 2231), Ints{0, 2}});
  t.add("aten::replication_pad2d", "rank 4", {f32({1, 2, 3, 3}, 2232), Ints{1, 0, 2, 2}});
  t.add("aten::replication_pad2d", "rank 3, double", {f64({1, 2, 2}, 2233), Ints{1, 1, 1, 1}});
  t.add("aten::replication_pad3d", "rank 5", {f32({1, 1, 2, 2, 2}, 2234), Ints{1, 1, 0, 1, 1, 0}});
  t.add("aten::replication_pad3d", "rank 4", {f32({2, 2, 2, 3}, 2235), Ints{2, 0, 1, 0, 0, 1}});
}

void add_normalization(SampleTable& t) {
  t.add("aten::native_layer_norm", "weight and bias",
        {f32({2, 3, 4}, 2300), Ints{4}, f32({4}, 2301), f32({4}, 2302), 1e-5}, {}, kSumTol);
  t.add("aten::native_layer_norm", "two dims, no weight or bias",
        {f32({2, 3, 4}, 2303), Ints{3, 4}, Arg(), Arg(), 1e-3}, {}, kSumTol);
  t.add("aten::native_layer_norm", "rank 2, weight only",
        {f32({5, 6}, 2304), Ints{6}, f32({6}, 2305), Arg(), 1e-5}, {}, kSumTol);
  t.add("aten::native_layer_norm", "double",
        {f64({3, 5}, 2306), Ints{5}, Arg(), f64({5}, 2307), 1e-5});

  t.add("aten::native_batch_norm", "inference",
        {f32({2, 3, 4, 4}, 2310), f32({3}, 2311), f32({3}, 2312), f32({3}, 2313),
         f32({3}, 2314, 0.5, 2), false, 0.1, 1e-5},
        {}, kSumTol);
  t.add("aten::native_batch_norm", "training with running statistics",
        {f32({4, 2, 3, 3}, 2315), f32({2}, 2316), f32({2}, 2317), f32({2}, 2318),
         f32({2}, 2319, 0.5, 2), true, 0.1, 1e-5},
        {}, kSumTol);
  t.add("aten::native_batch_norm", "training without running statistics or weight",
        {f32({4, 3, 5}, 2320), Arg(), Arg(), Arg(), Arg(), true, 0.1, 1e-5}, {}, kSumTol);
  t.add("aten::native_batch_norm", "inference rank 2",
        {f32({5, 3}, 2321), f32({3}, 2322), Arg(), f32({3}, 2323), f32({3}, 2324, 0.5, 2), false,
         0.1, 1e-3},
        {}, kSumTol);

  t.add("aten::group_norm", "defaults omitted", {f32({2, 4, 3}, 2330), 2}, {}, kSumTol);
  t.add("aten::group_norm", "weight, bias, eps",
        {f32({2, 6, 2, 2}, 2331), 3, f32({6}, 2332), f32({6}, 2333), 1e-3}, {}, kSumTol);
  t.add("aten::group_norm", "one group, weight keyword", {f32({1, 4, 5}, 2334), 1},
        {{"weight", f32({4}, 2335)}}, kSumTol);
  t.add("aten::group_norm", "a group per channel, rank 2", {f32({3, 4}, 2336), 4}, {}, kSumTol);
  t.add("aten::group_norm", "double", {f64({2, 4, 3}, 2339), 2, f64({4}, 2346), f64({4}, 2347)});
  t.add("aten::group_norm", "rank 5", {f32({1, 4, 2, 2, 2}, 2337), 2, Arg(), f32({4}, 2338)}, {},
        kSumTol);
  t.add("aten::native_group_norm", "weight and bias",
        {f32({2, 4, 3}, 2340), f32({4}, 2341), f32({4}, 2342), 2, 4, 3, 2, 1e-5}, {}, kSumTol);
  t.add("aten::native_group_norm", "no weight or bias, rank 4",
        {f32({2, 6, 2, 2}, 2343), Arg(), Arg(), 2, 6, 4, 3, 1e-5}, {}, kSumTol);
  t.add("aten::native_group_norm", "one group",
        {f32({1, 3, 4}, 2344), f32({3}, 2345), Arg(), 1, 3, 4, 1, 1e-3}, {}, kSumTol);

  t.add("aten::instance_norm", "weight and bias, input statistics",
        {f32({2, 3, 4, 4}, 2350), f32({3}, 2351), f32({3}, 2352), Arg(), Arg(), true, 0.1, 1e-5,
         false},
        {}, kSumTol);
  t.add("aten::instance_norm", "no weight, rank 3",
        {f32({2, 3, 5}, 2353), Arg(), Arg(), Arg(), Arg(), true, 0.1, 1e-5, false}, {}, kSumTol);
  t.add("aten::instance_norm", "running statistics given but input statistics used",
        {f32({2, 2, 3, 3}, 2354), f32({2}, 2355), f32({2}, 2356), f32({2}, 2357),
         f32({2}, 2358, 0.5, 2), true, 0.1, 1e-5, false},
        {}, kSumTol);
  t.add("aten::instance_norm", "running statistics used",
        {f32({2, 2, 3}, 2359), f32({2}, 2360), f32({2}, 2361), f32({2}, 2362),
         f32({2}, 2363, 0.5, 2), false, 0.1, 1e-5, false},
        {}, kSumTol);
  t.add("aten::instance_norm", "rank 5",
        {f32({1, 2, 2, 2, 3}, 2364), Arg(), f32({2}, 2365), Arg(), Arg(), true, 0.1, 1e-5, true},
        {}, kSumTol);
}

void add_other(SampleTable& t) {
  // Dropout outside training, or with p 0, is the identity: deterministic.
  t.add("aten::dropout", "not training", {f32({2, 3}, 2400), 0.5, false});
  t.add("aten::dropout", "p 0 training", {f32({4}, 2401), 0.0, true});
  t.add("aten::dropout", "p 1 training zeroes", {f32({2, 2}, 2402), 1.0, true});
  t.add("aten::dropout", "training draws", {f32({3, 4}, 2403), 0.5, true});
  t.random();
  t.add("aten::dropout", "double, not training", {f64({3}, 2404), 0.2, false});
  t.add("aten::dropout", "float16, not training", {f16({3}, 2405), 0.2, false});
  t.add("aten::native_dropout", "not training", {f32({2, 3}, 2410), 0.5, false});
  t.add("aten::native_dropout", "p 0 training", {f32({4}, 2411), 0.0, true});
  t.add("aten::native_dropout", "p 1 training", {f32({2, 2}, 2412), 1.0, true});
  t.add("aten::native_dropout", "training draws", {f32({3, 4}, 2413), 0.5, true});
  t.random();
  t.add("aten::native_dropout", "train None", {f32({3}, 2414), 0.5, Arg()});
  t.random();

  // interpolation_mode 0 bilinear, 1 nearest, 2 bicubic; padding_mode 0
  // zeros, 1 border, 2 reflection. Grid points reach a little outside [-1, 1].
  for (const char* name : {"aten::grid_sampler", "aten::grid_sampler_2d"}) {
    for (int64_t mode : {0, 1, 2}) {
      for (int64_t padding : {0, 1, 2}) {
        for (bool align : {false, true}) {
          t.add(name,
                "mode " + std::to_string(mode) + " padding " + std::to_string(padding) +
                    (align ? " align_corners" : ""),
                {f32({2, 2, 3, 4}, 2420 + mode), f32({2, 3, 2, 2}, 2430 + padding, -1.2, 1.2), mode,
                 padding, align},
                {}, kSumTol);
        }
      }
    }
  }
  t.add("aten::grid_sampler", "double",
        {f64({1, 1, 3, 3}, 2440), f64({1, 2, 2, 2}, 2441, -1, 1), 0, 0, false});
  t.onnxruntime_lacks("no double GridSample");

  t.add("aten::col2im", "kernel 2, no overlap",
        {f32({1, 8, 4}, 2450), Ints{4, 4}, Ints{2, 2}, Ints{1, 1}, Ints{0, 0}, Ints{2, 2}});
  t.add("aten::col2im", "overlapping blocks, stride 1",
        {f32({2, 4, 9}, 2451), Ints{4, 4}, Ints{2, 2}, Ints{1, 1}, Ints{0, 0}, Ints{1, 1}});
  t.add("aten::col2im", "padding and dilation",
        {f32({1, 9, 9}, 2452), Ints{5, 5}, Ints{3, 3}, Ints{2, 2}, Ints{1, 1}, Ints{1, 1}});
  t.add("aten::col2im", "unbatched, single ints", {f32({4, 6}, 2453), Ints{3, 4}, 2, 1, 0, 1});
}

}  // namespace

void add_nn_samples(SampleTable& t) {
  add_convolutions(t);
  add_pooling(t);
  add_padding(t);
  add_normalization(t);
  add_other(t);
}

}  // namespace onnxscript::torch_lib::comparison
