// Unsqueeze: inserts length-1 axes at `axes` (positions in the output; an
// attribute in v1/v11, negative allowed from v11; an input from v13). The
// output shares the input's storage.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void unsqueeze(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  std::vector<int64_t> axes = ctx.version() < 13
                                  ? ctx.required_attribute("axes").as_ints()
                                  : tensor_to_int64s(ctx, ctx.input_tensor(1), "axes");
  const int64_t out_rank = data.rank() + static_cast<int64_t>(axes.size());
  std::vector<bool> inserted(out_rank, false);
  for (int64_t a : axes) {
    a = normalize_axis(ctx, a, out_rank);
    if (inserted[a]) ctx.fail(fmt::format("axis {} appears twice", a));
    inserted[a] = true;
  }
  std::vector<int64_t> shape(out_rank);
  size_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) shape[d] = inserted[d] ? 1 : data.shape()[next++];
  ctx.set_output(0, data.reshaped(std::move(shape)));
}

}  // namespace

void register_tensor_unsqueeze(KernelRegistry& registry) {
  // 21-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 11, 13, 21, 23, 24, 25}) registry.add("", "Unsqueeze", v, unsqueeze);
}

}  // namespace onnxscript::eval
