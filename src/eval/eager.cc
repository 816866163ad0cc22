#include "onnxscript/eval/eager.h"

#include <fmt/format.h>

namespace onnxscript::eval {

std::vector<RuntimeValue> run_op(std::string_view op_type, std::span<const RuntimeValue> inputs,
                                 std::span<const ir::Attribute> attributes, size_t num_outputs,
                                 int64_t version, std::string_view domain, GraphRunner* runner) {
  KernelFn fn = KernelRegistry::builtin().find(domain, op_type, version);
  if (!fn) {
    std::vector<std::string> types;
    for (const RuntimeValue& v : inputs) types.push_back(v.describe());
    throw KernelError(fmt::format("no kernel for {}{}{} at opset {} (inputs: {})", domain,
                                  domain.empty() ? "" : ".", op_type, version, fmt::join(types, ", ")));
  }
  std::vector<RuntimeValue> outputs(num_outputs);
  KernelContext context({domain, op_type, version}, inputs, outputs, attributes, runner);
  fn(context);
  return outputs;
}

}  // namespace onnxscript::eval
