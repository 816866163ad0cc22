// Squeeze: removes axes of length 1: those in `axes` (an attribute in v1/v11,
// an optional input from v13), or every length-1 axis when none are given.
// The output shares the input's storage.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void squeeze(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const int64_t rank = data.rank();
  std::vector<int64_t> axes = ctx.version() < 13 ? ctx.attr_ints("axes")
                              : ctx.has_input(1)
                                  ? tensor_to_int64s(ctx, ctx.input_tensor(1), "axes")
                                  : std::vector<int64_t>{};
  std::vector<bool> drop(rank, false);
  if (axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) drop[d] = data.shape()[d] == 1;
  }
  for (int64_t a : axes) {
    a = normalize_axis(ctx, a, rank);
    if (data.shape()[a] != 1)
      ctx.fail(fmt::format("cannot squeeze axis {} of length {}", a, data.shape()[a]));
    drop[a] = true;
  }
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d]) shape.push_back(data.shape()[d]);
  ctx.set_output(0, data.reshaped(std::move(shape)));
}

}  // namespace

void register_tensor_squeeze(KernelRegistry& registry) {
  // 21-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 11, 13, 21, 23, 24, 25}) registry.add("", "Squeeze", v, squeeze);
}

}  // namespace onnxscript::eval
