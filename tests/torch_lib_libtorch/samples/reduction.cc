// Samples of the reduction families (src/lib/torch_lib/ops/reduction.cc and
// reduction_more.cc): all / any, argmax / argmin, max / min (everything or
// along a dimension with indices), std, logsumexp, cumsum, logcumsumexp and
// the norms. LibTorch 1.13 has no float16 CPU kernel for logsumexp, cumsum
// or logcumsumexp, so those have no float16 sample.

#include <limits>

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// Float values chosen by hand (ties, zeros, infinities), not drawn.
Value floats(std::initializer_list<float> values, Ints shape = {-1}) {
  return Value(Tensor::from<float>(values, ir::Dims(shape.begin(), shape.end())));
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

void add_logical_reductions(SampleTable& t) {
  for (const char* name : {"aten::all", "aten::any"}) {
    t.add(name, "bool", {booleans({2, 3}, 2000)});
    t.add(name, "all true", {Value(Tensor::from<bool>({true, true, true}))});
    t.add(name, "all false", {Value(Tensor::from<bool>({false, false}))});
    t.add(name, "float with a zero", {floats({1, 0, -2.5, 3}, {2, 2})});
    t.add(name, "int64", {i64({5}, 2001, 0, 2)});
    t.add(name, "0-D", {f32({}, 2002)});
    t.add(name, "empty", {booleans({0, 3}, 2003)});
    t.add(name, "rank 4 double", {f64({2, 1, 2, 2}, 2004)});
    t.add(name, "float16", {f16({3}, 2005)});
  }
  for (const char* name : {"aten::all.dim", "aten::any.dim"}) {
    t.add(name, "bool dim 1", {booleans({3, 4}, 2010), 1});
    t.add(name, "negative dim, keepdim", {booleans({2, 3, 2}, 2011), -1, true});
    t.add(name, "keepdim keyword", {booleans({4, 2}, 2012), 0}, {{"keepdim", true}});
    t.add(name, "float with zeros", {floats({0, 1, 2, 0, 0, 3}, {2, 3}), 0});
    t.add(name, "int64", {i64({3, 3}, 2013, 0, 1), 1});
    t.add(name, "empty dimension reduced", {booleans({2, 0}, 2014), 1});
    t.add(name, "empty dimension kept", {booleans({0, 2}, 2015), 1});
    t.add(name, "0-D", {booleans({}, 2016), 0});
  }
}

void add_extrema(SampleTable& t) {
  for (const char* name : {"aten::argmax", "aten::argmin"}) {
    t.add(name, "no dim flattens", {f32({3, 4}, 2020)});
    t.add(name, "dim 1", {f32({3, 4}, 2021), 1});
    t.add(name, "negative dim, keepdim", {f32({2, 3, 4}, 2022), -2, true});
    t.add(name, "no dim, keepdim", {f32({2, 3}, 2023), Arg(), true});
    t.add(name, "ties take the first", {floats({1, 3, 3, 1, 1, 3}, {2, 3}), 1});
    t.add(name, "int64", {i64({6}, 2024), 0});
    t.add(name, "double, keyword dim", {f64({2, 5}, 2025)}, {{"dim", 0}});
    t.add(name, "0-D", {f32({}, 2026)});
    t.add(name, "float16", {f16({2, 3}, 2027), 1});
    t.add(name, "rank 4", {f32({2, 2, 3, 2}, 2028), 2});
    t.add(name, "NaN wins, first NaN's index", {floats({1, kNan, 3, kNan, 5, 0}, {2, 3}), 1});
    t.add(name, "NaN wins, no dim", {floats({1, 2, kNan, 3})});
  }
  for (const char* name : {"aten::max", "aten::min"}) {
    t.add(name, "float rank 3", {f32({2, 3, 4}, 2030)});
    t.add(name, "int64", {i64({7}, 2031)});
    t.add(name, "double 0-D", {f64({}, 2032)});
    t.add(name, "float16", {f16({5}, 2033)});
    t.add(name, "with infinity", {floats({1, kInf, -kInf, 2})});
    t.add(name, "NaN propagates", {floats({1, kNan, 3, 2})});
    t.add(name, "bool", {booleans({4}, 2034)});
  }
  for (const char* name : {"aten::max.dim", "aten::min.dim"}) {
    t.add(name, "dim 0", {f32({3, 4}, 2040), 0});
    t.add(name, "negative dim, keepdim", {f32({2, 3, 4}, 2041), -1, true});
    t.add(name, "keepdim keyword", {f32({2, 3}, 2042), 1}, {{"keepdim", true}});
    t.add(name, "ties take the first", {floats({2, 2, 1, 1, 3, 3}, {3, 2}), 1});
    t.add(name, "int64", {i64({2, 5}, 2043), 1});
    t.add(name, "double rank 4", {f64({2, 1, 3, 2}, 2044), 2});
    t.add(name, "float16", {f16({3, 3}, 2045), 0});
    t.add(name, "0-D", {f32({}, 2046), 0});
    t.add(name, "size-1 dim", {f32({1, 4}, 2047), 0});
    t.add(name, "NaN propagates, with its index", {floats({1, kNan, 3, 2, 5, 0}, {2, 3}), 1});
  }
}

void add_statistics(SampleTable& t) {
  t.add("aten::std", "unbiased default", {f32({3, 4}, 2050)});
  t.add("aten::std", "biased", {f32({2, 3, 2}, 2051), false});
  t.add("aten::std", "double", {f64({6}, 2052)});
  t.add("aten::std", "float16", {f16({8}, 2053)}, {}, 2e-3);
  t.add("aten::std", "one element gives NaN", {f32({1}, 2054)});
  t.add("aten::std", "0-D, biased", {f32({}, 2055), false});
  t.add("aten::std.dim", "one dim", {f32({3, 4}, 2060), Ints{1}});
  t.add("aten::std.dim", "negative dims, keepdim", {f32({2, 3, 4}, 2061), Ints{-1, 0}, true, true});
  t.add("aten::std.dim", "biased", {f32({4, 3}, 2062), Ints{0}, false});
  t.add("aten::std.dim", "dim None", {f32({2, 3}, 2063), Arg()});
  t.add("aten::std.dim", "a single int, keepdim keyword", {f64({3, 5}, 2064), 1},
        {{"keepdim", true}});
  t.add("aten::std.dim", "rank 4", {f32({2, 3, 2, 2}, 2065), Ints{1, 3}});
  t.add("aten::std.correction", "correction 0", {f32({3, 4}, 2070), Ints{1}}, {{"correction", 0}});
  t.add("aten::std.correction", "correction 2, keepdim", {f32({2, 5}, 2071), Ints{-1}},
        {{"correction", 2}, {"keepdim", true}});
  // LibTorch 1.13's correction has no default: each sample gives it.
  t.add("aten::std.correction", "correction 1, rank 4", {f32({2, 3, 2, 2}, 2072), Ints{0, 2}},
        {{"correction", 1}});
  t.add("aten::std.correction", "dim None", {f64({2, 3}, 2073), Arg()}, {{"correction", 1}});
  t.add("aten::std.correction", "correction None", {f32({5}, 2074), Ints{0}},
        {{"correction", Arg()}});
  t.add("aten::std.correction", "float16", {f16({2, 6}, 2075), Ints{1}}, {{"correction", 1}}, 2e-3);

  t.add("aten::logsumexp", "one dim", {f32({3, 4}, 2080), Ints{1}});
  t.add("aten::logsumexp", "negative dim, keepdim", {f32({2, 3, 4}, 2081), Ints{-1}, true});
  t.add("aten::logsumexp", "two dims", {f32({2, 3, 4}, 2082), Ints{0, 2}});
  t.add("aten::logsumexp", "large values", {floats({100, 101, -100, -101}, {2, 2}), Ints{1}});
  t.add("aten::logsumexp", "infinities", {floats({-kInf, -kInf, kInf, 1}, {2, 2}), Ints{1}});
  t.add("aten::logsumexp", "double, keepdim keyword", {f64({3, 2}, 2083), Ints{0}},
        {{"keepdim", true}});
  t.add("aten::logsumexp", "int64 gives float", {i64({2, 3}, 2084), Ints{1}});
  t.add("aten::logsumexp", "a single int, rank 4", {f32({2, 2, 3, 2}, 2085), 2});
  t.add("aten::logsumexp", "empty dimension kept", {f32({0, 3}, 2086), Ints{1}});
}

void add_cumulative(SampleTable& t) {
  t.add("aten::cumsum", "dim 0", {f32({3, 4}, 2090), 0});
  t.add("aten::cumsum", "negative dim", {f32({2, 3, 4}, 2091), -1});
  t.add("aten::cumsum", "int64", {i64({6}, 2092), 0});
  t.add("aten::cumsum", "int32 accumulates as int64", {i32({2, 3}, 2093), 1});
  t.add("aten::cumsum", "bool accumulates as int64", {booleans({5}, 2094), 0});
  t.add("aten::cumsum", "dtype keyword double", {f32({4}, 2095), 0}, {{"dtype", kDoubleCode}});
  t.add("aten::cumsum", "int64 with dtype float", {i64({2, 2}, 2096), 1}, {{"dtype", kFloatCode}});
  t.add("aten::cumsum", "0-D", {f32({}, 2097), 0});
  t.add("aten::cumsum", "empty", {f32({0, 3}, 2098), 1});
  t.add("aten::cumsum", "double rank 4", {f64({2, 1, 3, 2}, 2099), 2});
  t.add("aten::logcumsumexp", "dim 0", {f32({4, 3}, 2100), 0});
  t.add("aten::logcumsumexp", "negative dim", {f32({2, 3, 4}, 2101), -1});
  t.add("aten::logcumsumexp", "middle dim", {f32({2, 3, 2}, 2102), 1});
  t.add("aten::logcumsumexp", "large and small values", {floats({100, -100, 50, -kInf, 101}), 0});
  t.add("aten::logcumsumexp", "double", {f64({5}, 2103), 0});
  t.add("aten::logcumsumexp", "0-D", {f32({}, 2104), 0});
  t.add("aten::logcumsumexp", "size-1 dim", {f32({1, 3}, 2105), 0});
}

void add_norms(SampleTable& t) {
  const Value mixed = floats({1, -2, 0, 3.5f, -0.5f, 0}, {2, 3});
  t.add("aten::linalg_vector_norm", "ord omitted", {f32({3, 4}, 2110)});
  t.add("aten::linalg_vector_norm", "ord 1", {mixed, 1});
  t.add("aten::linalg_vector_norm", "ord inf", {mixed, static_cast<double>(kInf)});
  t.add("aten::linalg_vector_norm", "ord -inf", {mixed, -static_cast<double>(kInf)});
  t.add("aten::linalg_vector_norm", "ord 0 counts non-zeros", {mixed, 0});
  t.add("aten::linalg_vector_norm", "ord 3.5", {f32({5}, 2111), 3.5});
  t.add("aten::linalg_vector_norm", "dim, keepdim", {f32({2, 3, 4}, 2112), 2, Ints{-1}, true});
  t.add("aten::linalg_vector_norm", "two dims keyword", {f32({2, 3, 4}, 2113)},
        {{"dim", Ints{0, 2}}});
  t.add("aten::linalg_vector_norm", "dtype keyword double", {f32({4}, 2114)},
        {{"dtype", kDoubleCode}});
  t.add("aten::linalg_vector_norm", "double 0-D", {f64({}, 2115)});
  t.add("aten::linalg_vector_norm", "float16", {f16({6}, 2116)}, {}, 2e-3);
  t.add("aten::linalg_vector_norm", "empty", {f32({0, 3}, 2117)});
  t.add("aten::norm.Scalar", "p omitted", {f32({3, 4}, 2120)});
  t.add("aten::norm.Scalar", "p 1", {mixed, 1});
  t.add("aten::norm.Scalar", "p 3", {f32({5}, 2121), 3});
  t.add("aten::norm.Scalar", "p inf", {mixed, static_cast<double>(kInf)});
  t.add("aten::norm.Scalar", "p 0", {mixed, 0});
  t.add("aten::norm.Scalar", "double", {f64({2, 2}, 2122), 2});
  // 1 / 3 as a float32 exponent would miss by 1e-8; p itself must be a
  // float32 number (LibTorch 1.13 rounds p to float32: p = 0.3 on double
  // input gives 231.976883 where the exact norm is 231.976932).
  t.add("aten::norm.Scalar", "double, p 3 keeps double precision", {f64({5}, 2124), 3});
  t.add("aten::norm.Scalar", "float16", {f16({5}, 2123)}, {}, 2e-3);
  t.add("aten::norm.ScalarOpt_dim", "p 2, dim 1", {f32({3, 4}, 2130), 2, Ints{1}});
  t.add("aten::norm.ScalarOpt_dim", "p None, keepdim", {f32({2, 3}, 2131), Arg(), Ints{0}, true});
  t.add("aten::norm.ScalarOpt_dim", "p 1, negative dims", {f32({2, 3, 4}, 2132), 1, Ints{-1, -2}});
  t.add("aten::norm.ScalarOpt_dim", "p -inf", {mixed, -static_cast<double>(kInf), Ints{1}});
  t.add("aten::norm.ScalarOpt_dim", "p 0.5, double", {f64({3, 2}, 2133), 0.5, Ints{0}});
  t.add("aten::norm.ScalarOpt_dim", "rank 4, keepdim keyword",
        {f32({2, 2, 2, 3}, 2134), 3, Ints{3}}, {{"keepdim", true}});
  t.add("aten::norm.ScalarOpt_dim", "float16", {f16({2, 4}, 2135), 2, Ints{1}}, {}, 2e-3);
  t.add("aten::norm.ScalarOpt_dtype", "dtype double", {f32({3, 4}, 2140), 2},
        {{"dtype", kDoubleCode}});
  t.add("aten::norm.ScalarOpt_dtype", "p None", {f32({4}, 2141), Arg()}, {{"dtype", kFloatCode}});
  t.add("aten::norm.ScalarOpt_dtype", "p 1, double", {f64({2, 3}, 2142), 1},
        {{"dtype", kDoubleCode}});
  t.add("aten::norm.ScalarOpt_dtype", "p 3, 0-D", {f32({}, 2143), 3}, {{"dtype", kDoubleCode}});
  t.add("aten::norm.ScalarOpt_dtype", "rank 4, p inf",
        {f32({2, 1, 2, 3}, 2144), static_cast<double>(kInf)}, {{"dtype", kFloatCode}});
  t.add("aten::norm.ScalarOpt_dim_dtype", "dim 1, dtype double",
        {f32({3, 4}, 2150), 2, Ints{1}, false}, {{"dtype", kDoubleCode}});
  t.add("aten::norm.ScalarOpt_dim_dtype", "p None, keepdim",
        {f32({2, 3}, 2151), Arg(), Ints{0}, true}, {{"dtype", kFloatCode}});
  t.add("aten::norm.ScalarOpt_dim_dtype", "p 1, two dims, rank 3",
        {f32({2, 3, 4}, 2152), 1, Ints{0, 2}, false}, {{"dtype", kDoubleCode}});
  t.add("aten::norm.ScalarOpt_dim_dtype", "float16 to float",
        {f16({2, 3}, 2153), 2, Ints{1}, false}, {{"dtype", kFloatCode}});
  t.add("aten::norm.ScalarOpt_dim_dtype", "p inf, negative dim",
        {mixed, static_cast<double>(kInf), Ints{-1}, false}, {{"dtype", kDoubleCode}});
}

}  // namespace

void add_reduction_samples(SampleTable& t) {
  add_logical_reductions(t);
  add_extrema(t);
  add_statistics(t);
  add_cumulative(t);
  add_norms(t);
}

}  // namespace onnxscript::torch_lib::comparison
