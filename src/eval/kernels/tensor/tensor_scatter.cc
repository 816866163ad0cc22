// TensorScatter (24): writes `update` into a copy of `past_cache` along the
// sequence axis `axis` (default -2; not the batch axis 0). Both have the same
// shape except on that axis, where the cache holds max_sequence_length and
// the update sequence_length entries. For batch b the update lands at
// positions write_indices[b] + i (write_indices defaults to zeros); mode
// linear requires them to lie inside the cache, mode circular wraps them
// modulo max_sequence_length.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void tensor_scatter(KernelContext& ctx) {
  const Tensor& cache = ctx.input_tensor(0);
  const Tensor& update = ctx.input_tensor(1);
  const int64_t rank = cache.rank();
  if (update.dtype() != cache.dtype()) ctx.fail("update must have the element type of past_cache");
  if (rank < 2 || update.rank() != rank)
    ctx.fail(fmt::format("past_cache and update must have one rank of at least 2, not {} and {}",
                         rank, update.rank()));
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -2), rank);
  if (axis == 0) ctx.fail("axis must not be the batch axis 0");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && update.shape()[d] != cache.shape()[d])
      ctx.fail(fmt::format("update {} and past_cache {} differ on axis {}",
                           shape_string(update.shape()), shape_string(cache.shape()), d));
  const std::string mode = ctx.attr_string("mode", "linear");
  if (mode != "linear" && mode != "circular")
    ctx.fail(fmt::format("unknown mode '{}' (expected linear or circular)", mode));
  const int64_t batch = cache.shape()[0];
  const int64_t max_len = cache.shape()[axis], len = update.shape()[axis];
  if (len > max_len)
    ctx.fail(
        fmt::format("update has {} entries on axis {} but past_cache only {}", len, axis, max_len));
  std::vector<int64_t> starts(batch, 0);
  if (ctx.has_input(2)) {
    starts = tensor_to_int64s(ctx, ctx.input_tensor(2), "write_indices");
    if (static_cast<int64_t>(starts.size()) != batch)
      ctx.fail(fmt::format("write_indices has {} entries for a batch of {}", starts.size(), batch));
  }
  for (int64_t s : starts)
    if (s < 0 || (mode == "linear" && s + len > max_len) || (mode == "circular" && s >= max_len))
      ctx.fail(fmt::format("write index {} does not fit {} entries in a cache of {} ({} mode)", s,
                           len, max_len, mode));
  Tensor out = cache.clone();
  if (out.numel() == 0 || update.numel() == 0) return ctx.set_output(0, out);
  const int64_t outer = shape_product(cache.shape(), 1, axis);  // per batch entry
  const int64_t inner = shape_product(cache.shape(), axis + 1, rank);
  dispatch_by_size(cache.dtype(), ctx, [&]<typename U>() {
    const U* src = update.data<U>();
    U* dst = out.data<U>();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < len; ++i) {
          const int64_t pos = (starts[b] + i) % max_len;
          const U* from = src + ((b * outer + o) * len + i) * inner;
          std::copy(from, from + inner, dst + ((b * outer + o) * max_len + pos) * inner);
        }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_tensor_scatter(KernelRegistry& registry) {
  registry.add("", "TensorScatter", 24, tensor_scatter);
}

}  // namespace onnxscript::eval
