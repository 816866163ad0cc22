// Identity: the output is the input (any value kind; tensors share storage).
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {
void identity(KernelContext& ctx) { ctx.set_output(0, ctx.input(0)); }
}  // namespace

void register_tensor_identity(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 13, 14, 16, 19, 21, 23, 24, 25}) registry.add("", "Identity", v, identity);
}

}  // namespace onnxscript::eval
