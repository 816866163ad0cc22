// RandomUniformLike: a tensor of the input's shape (and, unless `dtype` says
// otherwise, its element type) drawn uniformly from [low, high). With a
// `seed` the draw repeats from call to call; without one it does not.
#include <random>

#include "eval/util/dispatch.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

void random_uniform_like(KernelContext& ctx) {
  const Tensor& like = ctx.input_tensor(0);
  const auto dtype =
      static_cast<DataType>(ctx.attr_int("dtype", static_cast<int64_t>(like.dtype())));
  const float low = ctx.attr_float("low", 0.0f);
  const float high = ctx.attr_float("high", 1.0f);
  if (!(low <= high)) ctx.fail("low must not exceed high");
  // Without a seed the stream goes on from call to call, but starts at the
  // same point in every thread: a run can be repeated, and tests that compare
  // against draws made elsewhere (ONNX's bernoulli cases) fail the same way
  // each time instead of passing by chance.
  thread_local std::mt19937_64 unseeded{0x5eed};
  std::mt19937_64 seeded;
  std::mt19937_64* engine = &unseeded;
  if (const ir::Attribute* seed = ctx.attribute("seed")) {
    seeded.seed(static_cast<uint64_t>(static_cast<int64_t>(seed->as_float())));
    engine = &seeded;
  }
  std::uniform_real_distribution<double> uniform(low, high);
  Tensor out(dtype, like.shape());
  dispatch<kFloatTypes>(dtype, ctx, [&]<typename T>() {
    T* data = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) data[i] = T(static_cast<float>(uniform(*engine)));
  });
  ctx.set_output(0, std::move(out));
}

}  // namespace

void register_generator_random_uniform_like(KernelRegistry& registry) {
  registry.add("", "RandomUniformLike", 1, random_uniform_like);
}

}  // namespace onnxscript::eval
