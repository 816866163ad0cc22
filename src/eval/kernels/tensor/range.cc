// Range: [start, start + delta, ...) up to `limit`, with
// max(ceil((limit - start) / delta), 0) elements; all three are scalars of
// the output type. 27 adds float16 and bfloat16, computed in the precision
// `stash_type` names (float, the default, or double): the count and every
// start + i * delta are worked out there and then rounded to the output type;
// stash_type has no effect on the other types.
#include <cmath>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void range(KernelContext& ctx) {
  const Tensor& start_t = ctx.input_tensor(0);
  const Tensor& limit_t = ctx.input_tensor(1);
  const Tensor& delta_t = ctx.input_tensor(2);
  for (const Tensor* t : {&start_t, &limit_t, &delta_t}) {
    if (t->dtype() != start_t.dtype())
      ctx.fail("start, limit and delta must have one element type");
    if (t->numel() != 1) ctx.fail("start, limit and delta must be scalars");
  }
  const DataType dtype = start_t.dtype();
  if (dtype == DataType::kFloat16 || dtype == DataType::kBfloat16) {
    if (ctx.version() < 27)
      ctx.fail(fmt::format("element type {} needs Range-27", ir::data_type_name(dtype)));
    const int64_t stash = ctx.attr_int("stash_type", 1);
    if (stash != static_cast<int64_t>(DataType::kFloat) &&
        stash != static_cast<int64_t>(DataType::kDouble))
      ctx.fail(fmt::format("stash_type must be 1 (float) or 11 (double), not {}", stash));
    dispatch<TypeList<DataType::kFloat16, DataType::kBfloat16>>(dtype, ctx, [&]<typename T>() {
      auto stashed = [&]<typename S>() {
        const S start = static_cast<S>(static_cast<float>(start_t.data<T>()[0]));
        const S limit = static_cast<S>(static_cast<float>(limit_t.data<T>()[0]));
        const S delta = static_cast<S>(static_cast<float>(delta_t.data<T>()[0]));
        if (delta == 0) ctx.fail("delta must not be 0");
        const S n = std::ceil((limit - start) / delta);
        const int64_t count = n > 0 ? static_cast<int64_t>(n) : 0;
        Tensor out(dtype, {count});
        T* dst = out.data<T>();
        for (int64_t i = 0; i < count; ++i)
          dst[i] = static_cast<T>(static_cast<float>(start + static_cast<S>(i) * delta));
        ctx.set_output(0, out);
      };
      if (stash == static_cast<int64_t>(DataType::kDouble))
        stashed.template operator()<double>();
      else
        stashed.template operator()<float>();
    });
    return;
  }
  using Allowed = TypeList<DataType::kFloat, DataType::kDouble, DataType::kInt16, DataType::kInt32,
                           DataType::kInt64>;
  dispatch<Allowed>(start_t.dtype(), ctx, [&]<typename T>() {
    const T start = start_t.data<T>()[0], limit = limit_t.data<T>()[0],
            delta = delta_t.data<T>()[0];
    if (delta == 0) ctx.fail("delta must not be 0");
    const double n = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) /
                               static_cast<double>(delta));
    const int64_t count = n > 0 ? static_cast<int64_t>(n) : 0;
    Tensor out(start_t.dtype(), {count});
    T* dst = out.data<T>();
    // Accumulate as numpy's arange does for ints; floats use start + i*delta.
    for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<T>(start + static_cast<T>(i) * delta);
    ctx.set_output(0, out);
  });
}

}  // namespace

void register_tensor_range(KernelRegistry& registry) {
  registry.add("", "Range", 11, range);
  registry.add("", "Range", 27, range);  // adds float16, bfloat16 and stash_type
}

}  // namespace onnxscript::eval
