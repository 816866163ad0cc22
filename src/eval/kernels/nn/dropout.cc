// Dropout. In inference (always for v7-v10; v1/v6 as well, where is_test=0
// would mean training, which evaluators do not do; v12+ unless the
// training_mode input is true) the output is the input and the mask is all
// ones (bool from v10; the input type before). In training mode each element
// is kept with probability 1 - ratio and scaled by 1 / (1 - ratio); the mask
// comes from a generator seeded by `seed` when given. ratio is an attribute
// until v12, then an optional scalar input.
#include <random>

#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void dropout(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  const int64_t v = ctx.version();
  double ratio = ctx.attr_float("ratio", 0.5f);
  bool training = false;
  if (v >= 12) {
    if (ctx.has_input(1)) ratio = float_values(ctx, ctx.input_tensor(1)).at(0);
    if (ctx.has_input(2)) {
      const Tensor& t = ctx.input_tensor(2);
      if (t.dtype() != DataType::kBool || t.numel() != 1)
        ctx.fail("training_mode must be a bool scalar");
      training = t.data<bool>()[0];
    }
  }
  // ratio 1 drops everything (the scale is then moot); beyond [0, 1] is an error.
  if (!(ratio >= 0 && ratio <= 1)) ctx.fail(fmt::format("ratio {} is outside [0, 1]", ratio));
  const DataType mask_type = v >= 10 ? DataType::kBool : x.dtype();
  Tensor mask(mask_type, x.shape());
  if (!training || ratio == 0) {
    ctx.set_output(0, x);
    if (ctx.num_outputs() > 1) {
      if (mask_type == DataType::kBool) {
        std::fill_n(mask.data<bool>(), mask.numel(), true);
      } else {
        mask = float_tensor(ctx, mask_type, x.shape(), std::vector<double>(x.numel(), 1.0));
      }
      ctx.set_output(1, mask);
    }
    return;
  }
  std::mt19937_64 gen;
  if (const ir::Attribute* seed = ctx.attribute("seed"))
    gen.seed(static_cast<uint64_t>(seed->as_int()));
  else
    gen.seed(std::random_device{}());
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double scale = ratio < 1 ? 1.0 / (1.0 - ratio) : 0.0;
  std::vector<double> xv = float_values(ctx, x);
  bool* keep = mask.data<bool>();
  for (size_t i = 0; i < xv.size(); ++i) {
    keep[i] = uniform(gen) >= ratio;
    xv[i] = keep[i] ? xv[i] * scale : 0.0;
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
  if (ctx.num_outputs() > 1) ctx.set_output(1, mask);
}

}  // namespace

void register_nn_dropout(KernelRegistry& registry) {
  // 22 only widens the element types (bfloat16, float8), which this kernel handles or rejects by
  // type.
  for (int64_t v : {1, 6, 7, 10, 12, 13, 22}) registry.add("", "Dropout", v, dropout);
}

}  // namespace onnxscript::eval
