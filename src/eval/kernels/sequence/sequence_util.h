#pragma once
// Helpers shared by the sequence operators: reading a position input and
// checking tensor element types against a sequence's element type.

#include <fmt/format.h>

#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// Reads a scalar int32/int64 position and maps it into [0, size) (or
/// [0, size] when `allow_end`, as SequenceInsert allows).
inline int64_t sequence_position(const KernelContext& ctx, const Tensor& t, int64_t size,
                                 bool allow_end) {
  if (t.numel() != 1) ctx.fail("position must be a scalar");
  int64_t p = 0;
  if (t.dtype() == DataType::kInt64)
    p = *t.data<int64_t>();
  else if (t.dtype() == DataType::kInt32)
    p = *t.data<int32_t>();
  else
    ctx.fail(fmt::format("position must be int32 or int64, not {}", ir::data_type_name(t.dtype())));
  const int64_t original = p;
  if (p < 0) p += size;
  if (p < 0 || p > size || (p == size && !allow_end))
    ctx.fail(
        fmt::format("position {} is out of range for a sequence of {} elements", original, size));
  return p;
}

/// Input `i` as a sequence; fails the kernel naming the operator otherwise.
inline const SequenceValue& input_sequence(const KernelContext& ctx, size_t i) {
  const RuntimeValue& v = ctx.input(i);
  if (!v.is_sequence())
    ctx.fail(fmt::format("input {} must be a sequence but is {}", i, v.describe()));
  return v.sequence();
}

/// The element type of a sequence of tensors with element type `dtype`.
inline ir::Type tensor_elem_type(DataType dtype) { return ir::Type::tensor(dtype); }

}  // namespace onnxscript::eval
