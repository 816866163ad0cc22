// ReverseSequence: for each batch entry b, reverses the first
// sequence_lens[b] steps along time_axis; the rest are copied. time_axis and
// batch_axis are 0 and 1 in either order.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void reverse_sequence(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  if (input.rank() < 2) ctx.fail("input must have rank >= 2");
  const int64_t time_axis = ctx.attr_int("time_axis", 0);
  const int64_t batch_axis = ctx.attr_int("batch_axis", 1);
  if (!((time_axis == 0 && batch_axis == 1) || (time_axis == 1 && batch_axis == 0)))
    ctx.fail(fmt::format("time_axis {} and batch_axis {} must be 0 and 1", time_axis, batch_axis));
  const std::vector<int64_t> lens = tensor_to_int64s(ctx, ctx.input_tensor(1), "sequence_lens");
  const int64_t batch = input.shape()[batch_axis], steps = input.shape()[time_axis];
  if (static_cast<int64_t>(lens.size()) != batch)
    ctx.fail(fmt::format("sequence_lens has {} entries but the batch is {}", lens.size(), batch));
  const int64_t inner = shape_product(input.shape(), 2, input.rank());
  const std::vector<int64_t> strides = contiguous_strides(input.shape());
  Tensor out(input.dtype(), input.shape());
  dispatch_by_size(input.dtype(), ctx, [&]<typename U>() {
    const U* src = input.data<U>();
    U* dst = out.data<U>();
    for (int64_t b = 0; b < batch; ++b) {
      if (lens[b] < 0 || lens[b] > steps)
        ctx.fail(fmt::format("sequence_lens[{}] = {} is out of [0, {}]", b, lens[b], steps));
      for (int64_t t = 0; t < steps; ++t) {
        const int64_t from = t < lens[b] ? lens[b] - 1 - t : t;
        const U* s = src + b * strides[batch_axis] + from * strides[time_axis];
        std::copy(s, s + inner, dst + b * strides[batch_axis] + t * strides[time_axis]);
      }
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_reverse_sequence(KernelRegistry& registry) {
  registry.add("", "ReverseSequence", 10, reverse_sequence);
}

}  // namespace onnxscript::eval
