// Compress: keeps the slices along `axis` whose condition is true (the
// input is flattened when axis is absent). A condition shorter than the axis
// drops the remaining slices, as numpy.compress does. v11 allows negative axis.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void compress(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const Tensor& cond = ctx.input_tensor(1);
  if (cond.dtype() != DataType::kBool) ctx.fail("condition must be bool");
  if (cond.rank() != 1) ctx.fail("condition must be 1-D");
  Tensor src = input;
  int64_t axis = 0;
  if (const ir::Attribute* a = ctx.attribute("axis")) {
    axis = normalize_axis(ctx, a->as_int(), input.rank());
  } else {
    src = input.reshaped({input.numel()});
  }
  const int64_t dim = src.shape()[axis];
  const bool* c = cond.data<bool>();
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < std::min(dim, cond.numel()); ++i)
    if (c[i]) keep.push_back(i);
  for (int64_t i = dim; i < cond.numel(); ++i)
    if (c[i]) ctx.fail(fmt::format("condition selects index {} beyond axis length {}", i, dim));
  std::vector<int64_t> out_shape = src.shape().to_vector();
  out_shape[axis] = static_cast<int64_t>(keep.size());
  Tensor out(input.dtype(), out_shape);
  const int64_t outer = shape_product(src.shape(), 0, axis);
  const int64_t inner = shape_product(src.shape(), axis + 1, src.rank());
  dispatch_by_size(input.dtype(), ctx, [&]<typename U>() {
    const U* s = src.data<U>();
    U* dst = out.data<U>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k : keep) {
        const U* row = s + (o * dim + k) * inner;
        dst = std::copy(row, row + inner, dst);
      }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_compress(KernelRegistry& registry) {
  for (int64_t v : {9, 11}) registry.add("", "Compress", v, compress);
}

}  // namespace onnxscript::eval
