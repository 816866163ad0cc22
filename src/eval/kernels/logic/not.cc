// Not: Y = !X on a bool tensor, element-wise.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void not_kernel(KernelContext& ctx) {
  run_unary<TypeList<DataType::kBool>, true>(ctx, [](bool x) { return !x; });
}
}  // namespace

void register_logic_not(KernelRegistry& registry) { registry.add("", "Not", 1, not_kernel); }

}  // namespace onnxscript::eval
