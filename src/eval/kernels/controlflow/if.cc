// If: runs then_branch or else_branch; the node's outputs are the branch's.
#include <fmt/format.h>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::eval {
namespace {

bool condition_value(const KernelContext& ctx, const Tensor& cond) {
  if (cond.numel() != 1)
    ctx.fail(fmt::format("cond must hold one element, it has {}", cond.numel()));
  if (cond.dtype() != DataType::kBool)
    ctx.fail(fmt::format("cond must be bool, it is {}", ir::data_type_name(cond.dtype())));
  return *cond.data<bool>();
}

void if_kernel(KernelContext& ctx) {
  const bool cond = condition_value(ctx, ctx.input_tensor(0));
  const ir::Attribute& branch = ctx.required_attribute(cond ? "then_branch" : "else_branch");
  const auto& graph = branch.as_graph();
  if (!graph) ctx.fail(fmt::format("{} is empty", branch.name));
  std::vector<RuntimeValue> outputs = ctx.run_graph(*graph, {});
  if (outputs.size() != ctx.num_outputs())
    ctx.fail(fmt::format("{} returned {} outputs but the node has {}", branch.name, outputs.size(),
                         ctx.num_outputs()));
  for (size_t i = 0; i < outputs.size(); ++i) ctx.set_output(i, std::move(outputs[i]));
}

}  // namespace

void register_controlflow_if(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 11, 13, 16, 19, 21, 23, 24, 25}) registry.add("", "If", v, if_kernel);
}

}  // namespace onnxscript::eval
