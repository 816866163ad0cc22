// Size: the input's element count as an int64 scalar.
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

void size(KernelContext& ctx) {
  ctx.set_output(0, Tensor::scalar<int64_t>(ctx.input_tensor(0).numel()));
}

}  // namespace

void register_tensor_size(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 13, 19, 21, 23, 24, 25}) registry.add("", "Size", v, size);
}

}  // namespace onnxscript::eval
