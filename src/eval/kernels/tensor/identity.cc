// Identity: the output is the input (any value kind; tensors share storage).
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {
void identity(KernelContext& ctx) { ctx.set_output(0, ctx.input(0)); }
}  // namespace

void register_tensor_identity(KernelRegistry& registry) {
  for (int64_t v : {1, 13, 14, 16}) registry.add("", "Identity", v, identity);
}

}  // namespace onnxscript::eval
