// Split: cuts a tensor along `axis` into the node's outputs. The sizes come
// from `split` (an attribute in v1-v11, also an optional input in v1, and
// only an input from v13); without them the axis is divided equally.
// v18 adds `num_outputs` (exclusive with the split input): every output gets
// ceil(length / num_outputs) elements but the last, which gets the rest.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void split(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const int64_t rank = input.rank();
  if (rank == 0) ctx.fail("cannot split a scalar");
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), rank);
  const int64_t dim = input.shape()[axis];
  const int64_t n = static_cast<int64_t>(ctx.num_outputs());
  std::vector<int64_t> sizes;
  if (ctx.has_input(1)) {
    sizes = tensor_to_int64s(ctx, ctx.input_tensor(1), "split");
  } else if (ctx.version() < 13) {
    sizes = ctx.attr_ints("split");
  }
  if (ctx.version() >= 18 && ctx.attribute("num_outputs") != nullptr) {
    const int64_t parts = ctx.attr_int("num_outputs", 0);
    if (ctx.has_input(1)) ctx.fail("split and num_outputs are both given; give at most one");
    if (parts < 1) ctx.fail(fmt::format("num_outputs must be positive, not {}", parts));
    if (parts != n)
      ctx.fail(fmt::format("num_outputs is {} but the node has {} outputs", parts, n));
    const int64_t chunk = (dim + parts - 1) / parts;
    if (chunk * (parts - 1) > dim)
      ctx.fail(fmt::format("axis {} of length {} leaves nothing for the last of {} chunks of {}",
                           axis, dim, parts, chunk));
    sizes.assign(parts, chunk);
    sizes.back() = dim - chunk * (parts - 1);
  }
  if (sizes.empty()) {
    if (n == 0 || dim % n != 0)
      ctx.fail(fmt::format("axis {} of length {} cannot be split equally into {} outputs", axis,
                           dim, n));
    sizes.assign(n, dim / n);
  }
  if (static_cast<int64_t>(sizes.size()) != n)
    ctx.fail(fmt::format("split has {} entries but the node has {} outputs", sizes.size(), n));
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) ctx.fail(fmt::format("split size {} is negative", s));
    total += s;
  }
  if (total != dim)
    ctx.fail(fmt::format("split sizes sum to {} but axis {} has length {}", total, axis, dim));
  const int64_t outer = shape_product(input.shape(), 0, axis);
  const int64_t inner = shape_product(input.shape(), axis + 1, rank);
  dispatch_by_size(input.dtype(), ctx, [&]<typename U>() {
    const U* src = input.data<U>();
    int64_t start = 0;
    for (int64_t k = 0; k < n; ++k) {
      std::vector<int64_t> shape = input.shape().to_vector();
      shape[axis] = sizes[k];
      Tensor out(input.dtype(), shape);
      U* dst = out.data<U>();
      const int64_t row = sizes[k] * inner;
      for (int64_t o = 0; o < outer; ++o) {
        const U* s = src + o * dim * inner + start * inner;
        std::copy(s, s + row, dst + o * row);
      }
      start += sizes[k];
      ctx.set_output(k, out);
    }
  });
}

}  // namespace

void register_tensor_split(KernelRegistry& registry) {
  for (int64_t v : {1, 2, 11, 13}) registry.add("", "Split", v, split);
  registry.add("", "Split", 18, split);  // adds num_outputs (last chunk smaller)
}

}  // namespace onnxscript::eval
