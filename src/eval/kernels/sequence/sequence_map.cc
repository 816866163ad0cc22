// SequenceMap: applies `body` to each element of the input sequence (and the
// matching elements of further sequence inputs, or the same further tensor
// inputs every time), collecting each body output into a sequence.
#include "eval/kernels/sequence/sequence_util.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::eval {
namespace {

void sequence_map(KernelContext& ctx) {
  const auto& body = ctx.required_attribute("body").as_graph();
  if (!body) ctx.fail("body is empty");
  const SequenceValue& first = input_sequence(ctx, 0);
  const size_t length = first.items.size();
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    const RuntimeValue& v = ctx.input(i);
    if (v.is_sequence() && v.sequence().items.size() != length)
      ctx.fail(fmt::format("input {} has {} elements but input 0 has {}", i,
                           v.sequence().items.size(), length));
  }
  const size_t num_outputs = ctx.num_outputs();
  std::vector<std::vector<RuntimeValue>> collected(num_outputs);
  std::vector<RuntimeValue> args(ctx.num_inputs());
  for (size_t k = 0; k < length; ++k) {
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      const RuntimeValue& v = ctx.input(i);
      args[i] = v.is_sequence() ? v.sequence().items[k] : v;
    }
    std::vector<RuntimeValue> out = ctx.run_graph(*body, args);
    if (out.size() < num_outputs) ctx.fail("body returns fewer outputs than the node has");
    for (size_t o = 0; o < num_outputs; ++o) collected[o].push_back(std::move(out[o]));
  }
  for (size_t o = 0; o < num_outputs; ++o) {
    ir::Type elem;
    const ir::Value* declared = body->outputs()[o];
    if (declared->type()) elem = *declared->type();
    if (!collected[o].empty()) elem = collected[o].front().type();
    if (elem.is_tensor()) elem.shape.reset();
    ctx.set_output(o, RuntimeValue::sequence(std::move(elem), std::move(collected[o])));
  }
}

}  // namespace

void register_sequence_sequence_map(KernelRegistry& registry) {
  registry.add("", "SequenceMap", 17, sequence_map);
}

}  // namespace onnxscript::eval
