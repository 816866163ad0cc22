// Samples of the elementwise unary operators (src/lib/torch_lib/ops/unary.cc):
// every rank from 0 to 4, a size-1 dim, an empty tensor, float32, float16,
// double, and the integer and bool inputs PyTorch accepts (the
// transcendental functions compute those in float32). The in-place forms
// write into self, so they take floating tensors only (PyTorch rejects a
// float result into an integer tensor).

#include <limits>
#include <map>
#include <set>

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// What inputs a unary operator is defined on.
struct Domain {
  double lo = -3, hi = 3;     ///< Floating inputs are drawn from [lo, hi).
  int64_t ilo = -9, ihi = 9;  ///< int64 inputs from [ilo, ihi].
  bool integers = true;       ///< PyTorch accepts int64 tensors.
  bool bools = false;         ///< PyTorch accepts bool tensors.
};

// The name without "aten::" and an in-place form's trailing '_'.
std::string base_name(const std::string& name) {
  std::string base = name.substr(name.find("::") + 2);
  if (base.ends_with('_')) base.pop_back();
  return base;
}

// False for the operators whose CPU kernel LibTorch 1.13 lacks for float16
// ("not implemented for 'Half'"): no expected values, so no float16 sample.
bool libtorch_has_float16(const std::string& name) {
  static const std::set<std::string> lacking = {
      "acos",         "acosh",         "asin",        "asinh", "atan",  "atanh",   "cos",
      "cosh",         "erf",           "erfc",        "exp",   "expm1", "floor",   "log",
      "log10",        "log1p",         "log2",        "round", "rsqrt", "sigmoid", "sin",
      "sinc",         "sinh",          "sqrt",        "tan",   "tanh",  "trunc",   "special_erf",
      "special_erfc", "special_expm1", "special_sinc"};
  return !lacking.count(base_name(name));
}

// Why ONNX Runtime 1.30's CPU provider cannot run `name` on double (the ONNX
// operator it lacks a double kernel for); empty when it can.
std::string onnxruntime_lacks_double(const std::string& name) {
  static const std::map<std::string, std::string> lacking = {
      {"acos", "Acos"},       {"acosh", "Acosh"}, {"asin", "Asin"}, {"asinh", "Asinh"},
      {"atan", "Atan"},       {"atanh", "Atanh"}, {"cosh", "Cosh"}, {"sinh", "Sinh"},
      {"tan", "Tan"},         {"erf", "Erf"},     {"erfc", "Erf"},  {"special_erf", "Erf"},
      {"special_erfc", "Erf"}};
  const auto it = lacking.find(base_name(name));
  return it == lacking.end() ? "" : "no double " + it->second;
}

// Seeds of this file's inputs: each sample draws fresh values.
uint64_t next_seed() {
  static uint64_t seed = 10000;
  return seed++;
}

// The double sample, marked where ONNX Runtime lacks the kernel.
void double_sample(SampleTable& t, const std::string& name, Ints shape, const Domain& d) {
  t.add(name, "double", {f64(std::move(shape), next_seed(), d.lo, d.hi)});
  if (const std::string why = onnxruntime_lacks_double(name); !why.empty())
    t.onnxruntime_lacks(why);
}

// The samples of an out-of-place unary operator.
void out_of_place(SampleTable& t, const std::string& name, const Domain& d) {
  t.add(name, "0-D", {f32({}, next_seed(), d.lo, d.hi)});
  t.add(name, "rank 1", {f32({7}, next_seed(), d.lo, d.hi)});
  t.add(name, "rank 2", {f32({3, 4}, next_seed(), d.lo, d.hi)});
  t.add(name, "rank 3 with a size-1 dim", {f32({2, 1, 3}, next_seed(), d.lo, d.hi)});
  t.add(name, "rank 4", {f32({2, 3, 1, 2}, next_seed(), d.lo, d.hi)});
  t.add(name, "empty (a 0-size dim)", {f32({0, 3}, next_seed(), d.lo, d.hi)});
  double_sample(t, name, {2, 3}, d);
  if (libtorch_has_float16(name)) t.add(name, "float16", {f16({2, 5}, next_seed(), d.lo, d.hi)});
  if (d.integers) t.add(name, "int64", {i64({2, 4}, next_seed(), d.ilo, d.ihi)});
  if (d.bools) t.add(name, "bool", {booleans({5}, next_seed())});
}

// The samples of an in-place form: floating tensors only.
void in_place(SampleTable& t, const std::string& name, const Domain& d) {
  t.add(name, "0-D", {f32({}, next_seed(), d.lo, d.hi)});
  t.add(name, "rank 2", {f32({3, 4}, next_seed(), d.lo, d.hi)});
  t.add(name, "empty (a 0-size dim)", {f32({2, 0}, next_seed(), d.lo, d.hi)});
  double_sample(t, name, {5}, d);
  if (libtorch_has_float16(name)) t.add(name, "float16", {f16({4}, next_seed(), d.lo, d.hi)});
}

// Both forms: `name` and `name_`.
void both(SampleTable& t, const std::string& name, const Domain& d) {
  out_of_place(t, "aten::" + name, d);
  in_place(t, "aten::" + name + "_", d);
}

}  // namespace

void add_unary_samples(SampleTable& t) {
  const Domain any;
  Domain with_bools;
  with_bools.bools = true;
  Domain unit;  // (-1, 1): asin, acos, atanh.
  unit.lo = -0.95, unit.hi = 0.95, unit.ilo = 0, unit.ihi = 0;
  Domain positive;  // log, sqrt and their kin.
  positive.lo = 0.05, positive.hi = 6, positive.ilo = 1, positive.ihi = 9;
  Domain small = with_bools;  // exp and kin: no overflow.
  small.lo = -4, small.hi = 4, small.ilo = -5, small.ihi = 5;

  both(t, "abs", any);
  both(t, "neg", any);
  both(t, "exp", small);
  both(t, "exp2", small);
  both(t, "expm1", small);
  both(t, "log", positive);
  both(t, "log2", positive);
  both(t, "log10", positive);
  Domain above_minus_one = positive;
  above_minus_one.lo = -0.9, above_minus_one.ilo = 0;
  both(t, "log1p", above_minus_one);
  both(t, "sqrt", positive);
  both(t, "rsqrt", positive);
  both(t, "sin", with_bools);
  both(t, "cos", with_bools);
  Domain tan_domain = any;  // Away from the poles at +-pi/2.
  tan_domain.lo = -1.4, tan_domain.hi = 1.4, tan_domain.ilo = -1, tan_domain.ihi = 1;
  both(t, "tan", tan_domain);
  both(t, "asin", unit);
  both(t, "acos", unit);
  both(t, "atan", with_bools);
  both(t, "sinh", small);
  both(t, "cosh", small);
  both(t, "tanh", with_bools);
  both(t, "asinh", any);
  Domain at_least_one = positive;
  at_least_one.lo = 1, at_least_one.hi = 5;
  both(t, "acosh", at_least_one);
  both(t, "atanh", unit);
  both(t, "sigmoid", with_bools);
  both(t, "erf", with_bools);
  both(t, "erfc", any);
  Domain divisor = any;  // reciprocal: away from 0.
  divisor.lo = 0.25, divisor.hi = 4, divisor.ilo = 1, divisor.ihi = 9;
  both(t, "reciprocal", divisor);
  both(t, "sign", with_bools);
  both(t, "floor", any);
  both(t, "round", any);
  both(t, "trunc", any);
  Domain floating_only = any;
  floating_only.integers = false;
  both(t, "frac", floating_only);
  both(t, "rad2deg", any);
  both(t, "deg2rad", any);
  both(t, "sinc", any);
  for (const char* name : {"aten::special_erf", "aten::special_expm1", "aten::special_sinc"})
    out_of_place(t, name, small);
  out_of_place(t, "aten::special_erfc", any);
  // sign, floor, round, trunc and sinc at the points their formulas single out.
  const Value halves = Value(Tensor::from<float>({-2.5f, -1.5f, -0.5f, 0, 0.5f, 1.5f, 2.5f}, {7}));
  t.add("aten::round", "halves round to even", {halves});
  t.add("aten::trunc", "halves and zero", {halves});
  t.add("aten::frac", "halves and zero", {halves});
  t.add("aten::sinc", "zero and integers", {Value(Tensor::from<float>({0, 1, -2, 3, 0.5f}, {5}))});
  t.add("aten::sign", "zero", {Value(Tensor::from<float>({0, -0.0f, 3, -3}, {4}))});
  t.add("aten::sign_", "int64 in place", {i64({6}, next_seed())});
  t.add("aten::abs_", "int64 in place", {i64({6}, next_seed())});
  t.add("aten::neg_", "int64 in place", {i64({6}, next_seed())});
  t.add("aten::floor_", "int64 in place", {i64({6}, next_seed())});

  // round.decimals: keyword-only decimals, positive, zero and negative.
  for (const char* name : {"aten::round.decimals", "aten::round_.decimals"}) {
    t.add(name, "2 decimals", {f32({2, 3}, next_seed())}, {{"decimals", 2}});
    t.add(name, "0 decimals", {f32({5}, next_seed())}, {{"decimals", 0}});
    t.add(name, "-1 decimals", {f32({4}, next_seed(), -300, 300)}, {{"decimals", -1}});
    t.add(name, "double, 3 decimals", {f64({2, 2}, next_seed())}, {{"decimals", 3}});
    t.add(name, "0-D", {f32({}, next_seed())}, {{"decimals", 1}});
    t.add(name, "empty", {f32({0}, next_seed())}, {{"decimals", 1}});
  }

  // bitwise_not: integers and bools only.
  for (const char* name : {"aten::bitwise_not", "aten::bitwise_not_"}) {
    t.add(name, "int64 rank 2", {i64({2, 3}, next_seed())});
    t.add(name, "int64 0-D", {i64({}, next_seed())});
    t.add(name, "bool", {booleans({6}, next_seed())});
    t.add(name, "int32", {i32({4}, next_seed())});
    t.add(name, "empty", {i64({0, 2}, next_seed())});
  }
  // logical_not: any type to bool (the in-place form keeps self's type).
  t.add("aten::logical_not", "float", {f32({2, 3}, next_seed(), -1, 1)});
  t.add("aten::logical_not", "float zeros", {Value(Tensor::from<float>({0, 1, -0.0f, 2}, {4}))});
  t.add("aten::logical_not", "int64 0-D", {i64({}, next_seed(), 0, 2)});
  t.add("aten::logical_not", "int64 rank 4", {i64({2, 1, 2, 3}, next_seed(), -1, 1)});
  t.add("aten::logical_not", "bool", {booleans({5}, next_seed())});
  t.add("aten::logical_not", "float16", {f16({4}, next_seed(), -1, 1)});
  t.add("aten::logical_not", "double, empty", {f64({0, 3}, next_seed())});
  t.add("aten::logical_not_", "bool", {booleans({5}, next_seed())});
  t.add("aten::logical_not_", "float keeps float",
        {Value(Tensor::from<float>({0, 1, -2, 0}, {4}))});
  t.add("aten::logical_not_", "int64 keeps int64", {i64({6}, next_seed(), -1, 1)});

  // The NaN / infinity tests, with NaN and both infinities in the input.
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Value specials = Value(Tensor::from<float>({1.5f, -inf, nan, inf, 0, -2}, {2, 3}));
  const Value specials64 = Value(Tensor::from<double>(
      {-std::numeric_limits<double>::infinity(), 3, std::numeric_limits<double>::quiet_NaN()},
      {3}));
  for (const char* name :
       {"aten::isnan", "aten::isinf", "aten::isposinf", "aten::isneginf", "aten::isfinite"}) {
    t.add(name, "NaN and infinities", {specials});
    t.add(name, "double NaN and infinities", {specials64});
    t.add(name, "float rank 3", {f32({2, 1, 3}, next_seed())});
    t.add(name, "0-D", {f32({}, next_seed())});
    t.add(name, "empty", {f32({0, 2}, next_seed())});
    t.add(name, "int64", {i64({4}, next_seed())});
    t.add(name, "float16", {f16({3}, next_seed())});
  }
  for (const char* name : {"aten::isnan", "aten::isinf", "aten::isfinite"})
    t.add(name, "bool", {booleans({4}, next_seed())});
  t.add("aten::signbit", "signed zeros and infinities",
        {Value(Tensor::from<float>({0, -0.0f, -inf, inf, -1, 2}, {6}))});
  t.add("aten::signbit", "float rank 2", {f32({3, 4}, next_seed())});
  t.add("aten::signbit", "0-D", {f32({}, next_seed())});
  t.add("aten::signbit", "empty", {f32({0}, next_seed())});
  t.add("aten::signbit", "int64", {i64({6}, next_seed())});
  t.add("aten::signbit", "double", {f64({4}, next_seed())});
  t.add("aten::signbit", "float16", {f16({4}, next_seed())});

  // logit: eps omitted, None, and clamping.
  for (const char* name : {"aten::logit", "aten::logit_"}) {
    t.add(name, "eps omitted", {f32({2, 3}, next_seed(), 0.05, 0.95)});
    t.add(name, "eps None", {f32({4}, next_seed(), 0.05, 0.95), Arg()});
    t.add(name, "eps clamps", {f32({6}, next_seed(), 0, 1), 0.2});
    t.add(name, "eps keyword, double", {f64({5}, next_seed(), 0, 1)}, {{"eps", 1e-3}});
    t.add(name, "0-D", {f32({}, next_seed(), 0.1, 0.9)});
    t.add(name, "empty", {f32({0, 4}, next_seed(), 0.1, 0.9)});
  }
  t.add("aten::logit", "int64", {i64({4}, next_seed(), 0, 1)});

  // angle and conj of real tensors.
  t.add("aten::angle", "float with negatives and zero",
        {Value(Tensor::from<float>({-2, 0, 3, -0.5f, nan}, {5}))});
  t.add("aten::angle", "rank 3", {f32({2, 2, 3}, next_seed())});
  t.add("aten::angle", "0-D", {f32({}, next_seed())});
  t.add("aten::angle", "empty", {f32({0}, next_seed())});
  t.add("aten::angle", "double", {f64({4}, next_seed())});
  t.add("aten::angle", "int64", {i64({5}, next_seed())});
  t.add("aten::angle", "float16", {f16({4}, next_seed())});
  // (aten::_conj is not registered: LibTorch 1.13's _conj fails an internal
  // assertion on real tensors, and it is only ever called on complex ones.)
  for (const char* name : {"aten::conj"}) {
    t.add(name, "float", {f32({2, 3}, next_seed())});
    t.add(name, "0-D", {f32({}, next_seed())});
    t.add(name, "int64", {i64({4}, next_seed())});
    t.add(name, "bool", {booleans({3}, next_seed())});
    t.add(name, "double, empty", {f64({0, 2}, next_seed())});
  }

  // One-element tensors to a scalar.
  t.add("aten::is_nonzero", "0-D float, non-zero", {Value(Tensor::scalar<float>(-0.5f))});
  t.add("aten::is_nonzero", "0-D float, zero", {Value(Tensor::scalar<float>(0))});
  t.add("aten::is_nonzero", "rank 2 of one element", {Value(Tensor::from<float>({3}, {1, 1}))});
  t.add("aten::is_nonzero", "int64 zero", {Value(Tensor::from<int64_t>({0}, {1}))});
  t.add("aten::is_nonzero", "bool", {Value(Tensor::scalar<bool>(true))});
  t.add("aten::_local_scalar_dense", "0-D double", {f64({}, next_seed())});
  t.add("aten::_local_scalar_dense", "int64 0-D", {i64({}, next_seed())});
  t.add("aten::_local_scalar_dense", "int64 of shape [1]", {i64({1}, next_seed())});
  t.add("aten::_local_scalar_dense", "bool", {Value(Tensor::scalar<bool>(true))});

  // special_erfcx on each side of its threshold (1.5, 2.5 for double), far
  // into the continued fraction, and negative (where exp(x^2) grows).
  const char* erfcx = "aten::special_erfcx";
  t.add(erfcx, "float, [-3, 3)", {f32({4, 5}, next_seed())});
  t.add(erfcx, "float, [0, 30)", {f32({12}, next_seed(), 0, 30)});
  t.add(erfcx, "float, around the threshold", {f32({8}, next_seed(), 1.3, 1.7)});
  t.add(erfcx, "double, [-4, 8)", {f64({3, 4}, next_seed(), -4, 8)});
  t.onnxruntime_lacks("no double Erf");
  t.add(erfcx, "double, around the threshold", {f64({8}, next_seed(), 2.3, 2.7)});
  t.onnxruntime_lacks("no double Erf");
  t.add(erfcx, "int64 computes as float", {i64({5}, next_seed(), -2, 6)});
  t.add(erfcx, "0-D", {f32({}, next_seed())});
  t.add(erfcx, "empty", {f32({0, 3}, next_seed())});
}

}  // namespace onnxscript::torch_lib::comparison
