// Transpose: permutes the axes; output dim i is input dim perm[i]. Without
// perm the axes are reversed. Same semantics in v1 and v13 (bfloat16 added).
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void transpose(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const int64_t rank = data.rank();
  std::vector<int64_t> perm = ctx.attr_ints("perm");
  if (perm.empty()) {
    perm.resize(rank);
    for (int64_t i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
  }
  if (static_cast<int64_t>(perm.size()) != rank)
    ctx.fail(fmt::format("perm has {} entries but the input has rank {}", perm.size(), rank));
  std::vector<bool> seen(rank, false);
  for (int64_t& p : perm) {
    p = normalize_axis(ctx, p, rank, "perm entry");
    if (seen[p]) ctx.fail(fmt::format("perm repeats axis {}", p));
    seen[p] = true;
  }
  dispatch_by_size(data.dtype(), ctx, []<typename U>() {});  // rejects unsupported types
  ctx.set_output(0, transpose_tensor(data, perm));
}

}  // namespace

void register_tensor_transpose(KernelRegistry& registry) {
  // 21-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 13, 21, 23, 24, 25}) registry.add("", "Transpose", v, transpose);
}

}  // namespace onnxscript::eval
