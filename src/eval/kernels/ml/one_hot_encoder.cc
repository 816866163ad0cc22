// OneHotEncoder (ai.onnx.ml 1): Y[..., k] = 1.0 where X[...] is category k,
// else 0, a float tensor of X's shape plus a last axis of one entry per
// category. String inputs look up cats_strings; int32, int64, float and double
// inputs are truncated to integers and look up cats_int64s (exactly one of the
// lists is given). A value in no category gives a row of zeros when `zeros`
// is 1 (the default) and is an error when it is 0.
#include <cmath>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void one_hot_encoder(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const std::vector<int64_t> int_cats = ctx.attr_ints("cats_int64s");
  const std::vector<std::string> string_cats = ml::attr_strings(ctx, "cats_strings");
  if (int_cats.empty() == string_cats.empty())
    ctx.fail("exactly one of cats_int64s and cats_strings must be given");
  const bool zeros = ctx.attr_int("zeros", 1) != 0;
  const bool string_input = x.dtype() == DataType::kString;
  if (string_input != !string_cats.empty())
    ctx.fail(string_input ? "a string input needs cats_strings"
                          : "a numeric input needs cats_int64s");
  const int64_t depth = static_cast<int64_t>(string_input ? string_cats.size() : int_cats.size());
  std::vector<int64_t> out_shape = x.shape().to_vector();
  out_shape.push_back(depth);
  Tensor out(DataType::kFloat, out_shape);
  float* dst = out.data<float>();

  // The category of element i, or -1 when it has none.
  std::vector<int64_t> category(static_cast<size_t>(x.numel()), -1);
  if (string_input) {
    std::unordered_map<std::string, int64_t> index;
    for (size_t k = 0; k < string_cats.size(); ++k) index.emplace(string_cats[k], k);
    for (int64_t i = 0; i < x.numel(); ++i)
      if (auto it = index.find(x.data<std::string>()[i]); it != index.end())
        category[i] = it->second;
  } else {
    std::unordered_map<int64_t, int64_t> index;
    for (size_t k = 0; k < int_cats.size(); ++k) index.emplace(int_cats[k], k);
    dispatch<TypeList<DataType::kInt64, DataType::kInt32, DataType::kFloat, DataType::kDouble>>(
        x.dtype(), ctx, [&]<typename T>() {
          for (int64_t i = 0; i < x.numel(); ++i) {
            const T v = x.data<T>()[i];
            if constexpr (std::is_floating_point_v<T>) {
              // NaN, infinities and values beyond int64 are in no category.
              if (!(std::fabs(v) < 9.2e18)) continue;
            }
            if (auto it = index.find(static_cast<int64_t>(v)); it != index.end())
              category[i] = it->second;
          }
        });
  }
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (category[i] >= 0)
      dst[i * depth + category[i]] = 1.0f;
    else if (!zeros)
      ctx.fail(fmt::format("element {} is in no category and zeros is 0", i));
  }
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_one_hot_encoder(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "OneHotEncoder", 1, one_hot_encoder);
}

}  // namespace onnxscript::eval
