// Equal: C = (A == B) element-wise with numpy broadcasting (opset 7+; opset 1
// has the legacy `broadcast`/`axis` attributes). NaN equals nothing. Opset 11
// added floats and more integers; strings (opset 19) are compared too.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
using kEqualTypes =
    TypeList<DataType::kBool, DataType::kFloat, DataType::kDouble, DataType::kFloat16,
             DataType::kBfloat16, DataType::kInt8, DataType::kInt16, DataType::kInt32,
             DataType::kInt64, DataType::kUint8, DataType::kUint16, DataType::kUint32,
             DataType::kUint64, DataType::kString>;

void equal_kernel(KernelContext& ctx) {
  run_binary<kEqualTypes, true>(ctx, [](const auto& a, const auto& b) { return a == b; });
}
}  // namespace

void register_logic_equal(KernelRegistry& registry) {
  // 19 adds string, which this kernel compares.
  for (int64_t v : {1, 7, 11, 13, 19}) registry.add("", "Equal", v, equal_kernel);
}

}  // namespace onnxscript::eval
