// Multinomial: for input [batch_size, class_size] of unnormalised
// log-probabilities (float16/float/double), draws `sample_size` class indices
// per row, with class j drawn with probability softmax(row)[j]. The output is
// [batch_size, sample_size] of the `dtype` attribute, int32 (the default) or
// int64. A -inf log-probability is never drawn; a row with no finite entry,
// NaN or +inf is an error. With a `seed` the draw repeats from call to call;
// without one it does not (see random_util.h).
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "eval/util/shape_util.h"
#include "random_util.h"

namespace onnxscript::eval {
namespace {

void multinomial(KernelContext& ctx) {
  const Tensor& logits = ctx.input_tensor(0);
  require_type(TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16>{}, logits.dtype(),
               ctx);
  if (logits.rank() != 2)
    ctx.fail(fmt::format("input must be [batch_size, class_size], not {}",
                         shape_string(logits.shape())));
  const int64_t batch = logits.shape()[0], classes = logits.shape()[1];
  const int64_t samples = ctx.attr_int("sample_size", 1);
  if (samples < 1) ctx.fail(fmt::format("sample_size {} must be positive", samples));
  const DataType dtype = random_output_type(ctx, DataType::kInt32);
  require_type(TypeList<DataType::kInt32, DataType::kInt64>{}, dtype, ctx);
  std::vector<double> values(logits.numel());
  dispatch<kFloatTypes>(logits.dtype(), ctx, [&]<typename T>() {
    for (int64_t i = 0; i < logits.numel(); ++i)
      values[i] = static_cast<double>(static_cast<compute_t<T>>(logits.data<T>()[i]));
  });
  RandomEngine seeded;
  RandomEngine& engine = random_engine(ctx, seeded);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<int64_t> drawn(batch * samples);
  std::vector<double> cumulative(classes);
  for (int64_t b = 0; b < batch; ++b) {
    const double* row = values.data() + b * classes;
    double top = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < classes; ++j) {
      if (std::isnan(row[j]) || row[j] == std::numeric_limits<double>::infinity())
        ctx.fail(fmt::format("row {} holds {}", b, row[j]));
      top = std::max(top, row[j]);
    }
    if (!std::isfinite(top))
      ctx.fail(fmt::format("row {} has no finite log-probability to draw from", b));
    // exp(x - max) keeps the largest weight at 1: no overflow, and -inf gives 0.
    double total = 0;
    int64_t last_possible = 0;
    for (int64_t j = 0; j < classes; ++j) {
      const double weight = std::exp(row[j] - top);
      total += weight;
      cumulative[j] = total;
      if (weight > 0) last_possible = j;
    }
    for (int64_t s = 0; s < samples; ++s) {
      const double target = uniform(engine) * total;
      // The first class whose cumulative weight exceeds the target; rounding
      // can leave target == total, which the last drawable class absorbs.
      const int64_t j =
          std::upper_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin();
      drawn[b * samples + s] = std::min(j, last_possible);
    }
  }
  Tensor out(dtype, {batch, samples});
  dispatch<TypeList<DataType::kInt32, DataType::kInt64>>(dtype, ctx, [&]<typename T>() {
    for (size_t i = 0; i < drawn.size(); ++i) out.data<T>()[i] = static_cast<T>(drawn[i]);
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_generator_multinomial(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Multinomial", v, multinomial);
}

}  // namespace onnxscript::eval
