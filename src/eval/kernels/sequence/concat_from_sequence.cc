// ConcatFromSequence: concatenates (new_axis=0) or stacks (new_axis=1) the
// tensors of a sequence along `axis`.
#include "eval/kernels/sequence/sequence_util.h"
#include "eval/util/stacking.h"

namespace onnxscript::eval {
namespace {

void concat_from_sequence(KernelContext& ctx) {
  const SequenceValue& seq = input_sequence(ctx, 0);
  if (seq.items.empty()) ctx.fail("the sequence is empty");
  std::vector<Tensor> parts;
  parts.reserve(seq.items.size());
  for (const RuntimeValue& v : seq.items) {
    if (!v.is_tensor())
      ctx.fail(fmt::format("sequence elements must be tensors, got {}", v.describe()));
    parts.push_back(v.tensor());
  }
  const bool new_axis = ctx.attr_int("new_axis", 0) != 0;
  int64_t axis = ctx.required_attribute("axis").as_int();
  const int64_t rank = parts.front().rank() + (new_axis ? 1 : 0);
  if (axis < -rank || axis >= rank)
    ctx.fail(fmt::format("axis {} is out of range for rank {}", axis, rank));
  if (axis < 0) axis += rank;
  ctx.set_output(0, new_axis ? stack(parts, axis, "ConcatFromSequence")
                             : concatenate(parts, axis, "ConcatFromSequence"));
}

}  // namespace

void register_sequence_concat_from_sequence(KernelRegistry& registry) {
  registry.add("", "ConcatFromSequence", 11, concat_from_sequence);
}

}  // namespace onnxscript::eval
