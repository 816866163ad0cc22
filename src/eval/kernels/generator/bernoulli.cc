// Bernoulli: each output element is 1 with probability p and 0 otherwise,
// where p is the input element at the same place (float16/float/double, in
// [0, 1]; anything else, NaN included, is an error). The output type is the
// `dtype` attribute (a floating, integer or bool type), or the input's type
// without one. The schema's function body (RandomUniformLike, Less, Cast)
// computes the same thing; this kernel saves the intermediate tensors. With a
// `seed` the draw repeats from call to call; without one it does not (see
// random_util.h). ONNX's backend cases expect numpy's stream, which this is not.
#include <fmt/format.h>

#include "eval/util/shape_util.h"
#include "random_util.h"

namespace onnxscript::eval {
namespace {

using BernoulliOutputTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
             DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64,
             DataType::kBool>;

void bernoulli(KernelContext& ctx) {
  const Tensor& p = ctx.input_tensor(0);
  require_type(TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16>{}, p.dtype(), ctx);
  std::vector<double> probability(p.numel());
  dispatch<kFloatTypes>(p.dtype(), ctx, [&]<typename T>() {
    for (int64_t i = 0; i < p.numel(); ++i) {
      probability[i] = static_cast<double>(static_cast<compute_t<T>>(p.data<T>()[i]));
      if (!(probability[i] >= 0 && probability[i] <= 1))
        ctx.fail(fmt::format("probability {} at element {} is outside [0, 1]", probability[i], i));
    }
  });
  const DataType dtype = random_output_type(ctx, p.dtype());
  RandomEngine seeded;
  RandomEngine& engine = random_engine(ctx, seeded);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Tensor out(dtype, p.shape());
  dispatch<BernoulliOutputTypes>(dtype, ctx, [&]<typename T>() {
    T* data = out.data<T>();
    // u in [0, 1) is below p with probability p: p = 0 never fires, p = 1 always.
    for (int64_t i = 0; i < out.numel(); ++i)
      data[i] = static_cast<T>(uniform(engine) < probability[i] ? 1.0f : 0.0f);
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_generator_bernoulli(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {15, 22}) registry.add("", "Bernoulli", v, bernoulli);
}

}  // namespace onnxscript::eval
