// Imputer (ai.onnx.ml 1): Y = X with every element equal to the replaced value
// swapped for the imputed value of its feature (the last axis). Float and
// double inputs use replaced_value_float and imputed_value_floats (a NaN
// replaced value matches NaN elements, the usual way to mark missing data);
// int32 and int64 inputs use replaced_value_int64 and imputed_value_int64s.
// The imputed list has one entry for all features or one per feature.
#include <cmath>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

template <typename T, typename V>
void impute(const Tensor& x, Tensor& out, const std::vector<V>& imputed, V replaced) {
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  const int64_t features = x.rank() == 0 ? 1 : x.shape().back();
  const bool match_nan = [&] {
    if constexpr (std::is_floating_point_v<V>) return std::isnan(replaced);
    return false;
  }();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const T v = src[i];
    bool hit = false;
    if constexpr (std::is_floating_point_v<T>)
      hit = match_nan ? std::isnan(v) : static_cast<V>(v) == replaced;
    else
      hit = static_cast<V>(v) == replaced;
    dst[i] = hit ? static_cast<T>(imputed[imputed.size() == 1 ? 0 : i % features]) : v;
  }
}

void imputer(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t features = x.rank() == 0 ? 1 : x.shape().back();
  auto check_length = [&](size_t n, const char* name) {
    if (n != 1 && static_cast<int64_t>(n) != features)
      ctx.fail(
          fmt::format("{} has {} entries; it needs 1 or one per feature ({})", name, n, features));
  };
  Tensor out(x.dtype(), x.shape());
  if (x.dtype() == DataType::kFloat || x.dtype() == DataType::kDouble) {
    const std::vector<float> imputed = ctx.attr_floats("imputed_value_floats");
    check_length(imputed.size(), "imputed_value_floats");
    const float replaced = ctx.attr_float("replaced_value_float", 0.0f);
    if (x.dtype() == DataType::kFloat)
      impute<float>(x, out, imputed, replaced);
    else
      impute<double>(x, out, std::vector<double>(imputed.begin(), imputed.end()),
                     static_cast<double>(replaced));
  } else if (x.dtype() == DataType::kInt64 || x.dtype() == DataType::kInt32) {
    const std::vector<int64_t> imputed = ctx.attr_ints("imputed_value_int64s");
    check_length(imputed.size(), "imputed_value_int64s");
    const int64_t replaced = ctx.attr_int("replaced_value_int64", 0);
    if (x.dtype() == DataType::kInt64) {
      impute<int64_t>(x, out, imputed, replaced);
    } else {
      for (int64_t v : imputed)
        if (v < INT32_MIN || v > INT32_MAX)
          ctx.fail(fmt::format("imputed value {} does not fit int32", v));
      impute<int32_t>(x, out, imputed, replaced);
    }
  } else {
    ctx.fail(fmt::format("element type {} is not supported", ir::data_type_name(x.dtype())));
  }
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_imputer(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "Imputer", 1, imputer);
}

}  // namespace onnxscript::eval
