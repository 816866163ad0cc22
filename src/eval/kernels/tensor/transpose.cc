// Transpose: permutes the axes; output dim i is input dim perm[i]. Without
// perm the axes are reversed. Same semantics in v1 and v13 (bfloat16 added).
#include <algorithm>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "eval/util/parallel.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

// A transpose reduced to its essentials: axes of length 1 dropped, and input
// axes that stay adjacent and in order in the output merged into one. A
// ViT's head split [S, H, D] -> [H, S, D] becomes runs of D contiguous
// elements; [S, H, D] -> [H, D, S] a plain 2-D transpose [S, H*D] -> [H*D, S].
struct TransposePlan {
  std::vector<int64_t> in_shape;  ///< The merged input dimensions.
  std::vector<int64_t> perm;      ///< Output axis i is merged input axis perm[i].
};

TransposePlan transpose_coalesce(std::span<const int64_t> shape, std::span<const int64_t> perm) {
  // Output order of the input axes that matter, grouped into runs of
  // consecutive input axes.
  std::vector<std::vector<int64_t>> groups;
  for (int64_t axis : perm) {
    if (shape[axis] == 1) continue;
    if (!groups.empty() && groups.back().back() == axis - 1)
      groups.back().push_back(axis);
    else
      groups.push_back({axis});
  }
  // Number the groups in input order.
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return groups[a].front() < groups[b].front(); });
  TransposePlan plan;
  plan.in_shape.resize(groups.size());
  plan.perm.resize(groups.size());
  for (size_t rank = 0; rank < order.size(); ++rank) {
    int64_t size = 1;
    for (int64_t axis : groups[order[rank]]) size *= shape[axis];
    plan.in_shape[rank] = size;
    plan.perm[order[rank]] = static_cast<int64_t>(rank);
  }
  return plan;
}

// Output axes of `plan` other than `skip_a` and `skip_b` (-1 for none), as
// the loop over them needs: their lengths, and per axis the input and output
// strides.
struct TransposeOuterLoop {
  std::vector<int64_t> shape, in_strides, out_strides;
  int64_t count = 1;
  // The input and output offsets of outer position `index` (row-major over
  // `shape`).
  void offsets(int64_t index, int64_t& in, int64_t& out) const {
    in = out = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t i = index % shape[d];
      index /= shape[d];
      in += i * in_strides[d];
      out += i * out_strides[d];
    }
  }
};

TransposeOuterLoop transpose_outer_loop(const TransposePlan& plan,
                                        const std::vector<int64_t>& in_strides,
                                        const std::vector<int64_t>& out_strides, int64_t skip_a,
                                        int64_t skip_b) {
  TransposeOuterLoop loop;
  for (int64_t i = 0; i < static_cast<int64_t>(plan.perm.size()); ++i) {
    if (i == skip_a || i == skip_b) continue;
    loop.shape.push_back(plan.in_shape[plan.perm[i]]);
    loop.in_strides.push_back(in_strides[plan.perm[i]]);
    loop.out_strides.push_back(out_strides[i]);
    loop.count *= loop.shape.back();
  }
  return loop;
}

// Runs body(first, last) over [0, n) on the intra-op threads when the copy
// is large enough (about 64K elements) to pay for a hand-off.
template <typename Body>
void transpose_split(int64_t n, int64_t numel, Body&& body) {
  constexpr int64_t kMinParallel = int64_t{1} << 16;
  if (numel < kMinParallel || intra_op_threads() == 1 || n < 2) {
    body(int64_t{0}, n);
    return;
  }
  const int64_t per_item = std::max<int64_t>(1, numel / n);
  parallel_for(n, std::max<int64_t>(1, (int64_t{1} << 14) / per_item), body);
}

// Copies src (of the plan's merged input shape) transposed into dst.
template <typename U>
void transpose_copy(const TransposePlan& plan, const U* src, U* dst, int64_t numel) {
  const int64_t rank = static_cast<int64_t>(plan.perm.size());
  if (rank <= 1) {
    std::copy_n(src, numel, dst);
    return;
  }
  std::vector<int64_t> out_shape(rank);
  for (int64_t i = 0; i < rank; ++i) out_shape[i] = plan.in_shape[plan.perm[i]];
  const std::vector<int64_t> in_strides = contiguous_strides(plan.in_shape);
  const std::vector<int64_t> out_strides = contiguous_strides(out_shape);
  if (plan.perm[rank - 1] == rank - 1) {
    // The innermost axis stays innermost: whole runs copy as they are.
    const int64_t run = plan.in_shape[rank - 1];
    const TransposeOuterLoop loop =
        transpose_outer_loop(plan, in_strides, out_strides, rank - 1, -1);
    transpose_split(loop.count, numel, [&](int64_t first, int64_t last) {
      for (int64_t o = first; o < last; ++o) {
        int64_t in = 0, out = 0;
        loop.offsets(o, in, out);
        std::copy_n(src + in, run, dst + out);
      }
    });
    return;
  }
  // Otherwise a 2-D transpose between output axis `a` (where the input's
  // innermost axis went: unit input stride) and the output's innermost axis
  // (unit output stride), in square tiles so that both the reads and the
  // writes stay within a few cache lines; the other axes loop outside.
  constexpr int64_t kTile = 16;
  int64_t a = 0;
  while (plan.perm[a] != rank - 1) ++a;
  const int64_t rows = out_shape[a], cols = out_shape[rank - 1];
  const int64_t row_out_stride = out_strides[a], col_in_stride = in_strides[plan.perm[rank - 1]];
  const TransposeOuterLoop loop = transpose_outer_loop(plan, in_strides, out_strides, a, rank - 1);
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  transpose_split(loop.count * row_tiles, numel, [&](int64_t first, int64_t last) {
    for (int64_t task = first; task < last; ++task) {
      int64_t in = 0, out = 0;
      loop.offsets(task / row_tiles, in, out);
      const int64_t r0 = (task % row_tiles) * kTile, r1 = std::min(rows, r0 + kTile);
      for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
        const int64_t c1 = std::min(cols, c0 + kTile);
        for (int64_t r = r0; r < r1; ++r) {
          const U* s = src + in + r;
          U* d = dst + out + r * row_out_stride;
          for (int64_t c = c0; c < c1; ++c) d[c] = s[c * col_in_stride];
        }
      }
    }
  });
}

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
  std::vector<int64_t> out_shape(rank);
  for (int64_t i = 0; i < rank; ++i) out_shape[i] = data.shape()[perm[i]];
  const TransposePlan plan = transpose_coalesce(data.shape(), perm);
  Tensor out = Tensor::uninitialized(data.dtype(), out_shape);  // every element is copied
  dispatch_by_size(data.dtype(), ctx, [&]<typename U>() {
    if (out.numel() > 0) transpose_copy<U>(plan, data.data<U>(), out.data<U>(), out.numel());
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_transpose(KernelRegistry& registry) {
  // 21-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 13, 21, 23, 24, 25}) registry.add("", "Transpose", v, transpose);
}

}  // namespace onnxscript::eval
