// SplitToSequence: cuts a tensor along an axis into a sequence, into pieces
// of one size (scalar `split`), of listed sizes (1-D `split`), or of size 1
// (no `split`, where keepdims=0 drops the axis).
#include "eval/kernels/sequence/sequence_util.h"
#include "eval/util/stacking.h"

namespace onnxscript::eval {
namespace {

std::vector<int64_t> split_values(const KernelContext& ctx, const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (t.dtype() == DataType::kInt64)
      out[i] = t.data<int64_t>()[i];
    else if (t.dtype() == DataType::kInt32)
      out[i] = t.data<int32_t>()[i];
    else
      ctx.fail("split must be int32 or int64");
  }
  return out;
}

void split_to_sequence(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  int64_t axis = ctx.attr_int("axis", 0);
  if (axis < -input.rank() || axis >= input.rank())
    ctx.fail(fmt::format("axis {} is out of range for rank {}", axis, input.rank()));
  if (axis < 0) axis += input.rank();
  const int64_t dim = input.shape()[axis];
  std::vector<RuntimeValue> items;
  if (!ctx.has_input(1)) {
    const bool keepdims = ctx.attr_int("keepdims", 1) != 0;
    for (int64_t i = 0; i < dim; ++i)
      items.emplace_back(keepdims ? narrow(input, axis, i, 1) : take_slice(input, axis, i));
  } else {
    const Tensor& split = ctx.input_tensor(1);
    std::vector<int64_t> sizes = split_values(ctx, split);
    if (split.rank() == 0) {
      const int64_t size = sizes.at(0);
      if (size <= 0) ctx.fail(fmt::format("split size {} must be positive", size));
      sizes.clear();
      for (int64_t start = 0; start < dim; start += size)
        sizes.push_back(std::min(size, dim - start));
    }
    int64_t total = 0;
    for (int64_t s : sizes) {
      if (s < 0) ctx.fail("split sizes must not be negative");
      total += s;
    }
    if (total != dim)
      ctx.fail(fmt::format("split sizes add up to {} but the axis has {}", total, dim));
    int64_t start = 0;
    for (int64_t s : sizes) {
      items.emplace_back(narrow(input, axis, start, s));
      start += s;
    }
  }
  ctx.set_output(0, RuntimeValue::sequence(tensor_elem_type(input.dtype()), std::move(items)));
}

}  // namespace

void register_sequence_split_to_sequence(KernelRegistry& registry) {
  // 24 only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {11, 24}) registry.add("", "SplitToSequence", v, split_to_sequence);
}

}  // namespace onnxscript::eval
