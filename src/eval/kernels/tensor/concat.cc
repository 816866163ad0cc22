// Concat: joins tensors along `axis` (v1 defaults axis to 1; v4+ requires it;
// v11+ allows negative axes). All inputs share dtype and every other dim.
#include <cstring>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void concat(KernelContext& ctx) {
  if (ctx.num_inputs() == 0) ctx.fail("needs at least one input");
  const Tensor& first = ctx.input_tensor(0);
  const int64_t rank = first.rank();
  if (rank == 0) ctx.fail("cannot concatenate scalars");
  int64_t axis =
      ctx.version() < 4 ? ctx.attr_int("axis", 1) : ctx.required_attribute("axis").as_int();
  axis = normalize_axis(ctx, axis, rank);
  std::vector<int64_t> out_shape = first.shape().to_vector();
  out_shape[axis] = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& t = ctx.input_tensor(i);
    if (t.dtype() != first.dtype())
      ctx.fail(fmt::format("input {} is {} but input 0 is {}", i, ir::data_type_name(t.dtype()),
                           ir::data_type_name(first.dtype())));
    if (t.rank() != rank) ctx.fail(fmt::format("input {} has rank {}, not {}", i, t.rank(), rank));
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.shape()[d] != first.shape()[d])
        ctx.fail(fmt::format("input {} has shape {}, incompatible with {} on axis {}", i,
                             shape_string(t.shape()), shape_string(first.shape()), axis));
    out_shape[axis] += t.shape()[axis];
  }
  // The inputs' rows tile the output exactly.
  Tensor out = Tensor::uninitialized(first.dtype(), out_shape);
  const int64_t outer = shape_product(out_shape, 0, axis);
  const int64_t inner = shape_product(out_shape, axis + 1, rank);
  dispatch_by_size(first.dtype(), ctx, [&]<typename U>() {
    U* dst = out.data<U>();
    const int64_t out_row = out_shape[axis] * inner;
    int64_t col = 0;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      const Tensor& t = ctx.input_tensor(i);
      const U* src = t.data<U>();
      const int64_t row = t.shape()[axis] * inner;
      for (int64_t o = 0; o < outer; ++o)
        std::copy(src + o * row, src + (o + 1) * row, dst + o * out_row + col);
      col += row;
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_concat(KernelRegistry& registry) {
  for (int64_t v : {1, 4, 11, 13}) registry.add("", "Concat", v, concat);
}

}  // namespace onnxscript::eval
