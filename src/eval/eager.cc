#include "onnxscript/eval/eager.h"

#include <fmt/format.h>

#include "eval/schema_version_table.h"

namespace onnxscript::eval {

namespace {

// The kernel for the call, or a KernelError naming the operator and the
// types it was called with.
template <typename Describe>
KernelFn find_kernel(std::string_view domain, std::string_view op_type, int64_t version,
                     size_t num_inputs, Describe describe_input) {
  KernelFn fn = KernelRegistry::builtin().find(domain, op_type, version);
  if (fn) return fn;
  std::vector<std::string> types;
  for (size_t i = 0; i < num_inputs; ++i) types.push_back(describe_input(i));
  // An ONNX operator whose opset selects a version without a kernel: name
  // the version, so an older kernel is never mistaken for it.
  if (auto why = detail::version_without_kernel(domain, op_type, version))
    throw KernelError(fmt::format("{} (inputs: {})", *why, fmt::join(types, ", ")));
  throw KernelError(fmt::format("no kernel for {}{}{} at opset {} (inputs: {})", domain,
                                domain.empty() ? "" : ".", op_type, version,
                                fmt::join(types, ", ")));
}

}  // namespace

std::vector<RuntimeValue> run_op(std::string_view op_type, std::span<const RuntimeValue> inputs,
                                 std::span<const ir::Attribute> attributes, size_t num_outputs,
                                 int64_t version, std::string_view domain, GraphRunner* runner) {
  KernelFn fn = find_kernel(domain, op_type, version, inputs.size(),
                            [&](size_t i) { return inputs[i].describe(); });
  std::vector<RuntimeValue> outputs(num_outputs);
  KernelContext context({domain, op_type, version}, inputs, outputs, attributes, runner);
  fn(context);
  return outputs;
}

void run_op_into(std::string_view op_type, std::span<const RuntimeValue* const> inputs,
                 std::span<RuntimeValue> outputs, std::span<const ir::Attribute> attributes,
                 int64_t version, std::string_view domain) {
  KernelFn fn = find_kernel(domain, op_type, version, inputs.size(), [&](size_t i) {
    return inputs[i] ? inputs[i]->describe() : RuntimeValue().describe();
  });
  KernelContext context({domain, op_type, version}, inputs, outputs, attributes);
  fn(context);
}

}  // namespace onnxscript::eval
