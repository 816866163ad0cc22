// Shape: the input's dimensions as a 1-D int64 tensor. v15 adds `start` and
// `end` (negative counts from the back, clamped to [0, rank]) to take a slice.
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void shape(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const int64_t rank = data.rank();
  int64_t start = ctx.attr_int("start", 0);
  int64_t end = ctx.attr_int("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  const int64_t n = std::max<int64_t>(end - start, 0);
  Tensor out(DataType::kInt64, {n});
  for (int64_t i = 0; i < n; ++i) out.data<int64_t>()[i] = data.shape()[start + i];
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_shape(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 13, 15, 19, 21, 23, 24, 25}) registry.add("", "Shape", v, shape);
}

}  // namespace onnxscript::eval
