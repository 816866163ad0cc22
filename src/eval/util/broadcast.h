#pragma once
// Numpy ("multidirectional") broadcasting for element-wise kernels.
//
//   broadcast_shape(ctx, a, b)      the broadcast of two shapes, or a KernelError
//                                   "<Op>: cannot broadcast shapes [2,3] and [4]"
//   make_broadcast_plan(out, {...}) how to walk inputs broadcast to `out`
//   for_each_broadcast_run(plan, f) calls f once per innermost run
//   legacy_broadcast_shape(...)     the opset 1-6 `broadcast`/`axis` rule
//
// Shapes are right-aligned; a dimension of 1 stretches to match the other
// shape, and any other mismatch is an error. The plan collapses dimensions
// that can be walked as one, so a [64,1] + [1,64] add runs 64 rows of 64
// elements, and same-shape or scalar operands become a single run.

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// The numpy broadcast of `a` and `b` into `out`. Returns false (leaving `out`
/// unspecified) when some aligned pair of dimensions differs and neither is 1.
bool try_broadcast_shape(std::span<const int64_t> a, std::span<const int64_t> b,
                         std::vector<int64_t>& out);

/// The numpy broadcast of `a` and `b`; fails the kernel with a message naming
/// the operator and both shapes when they are incompatible.
std::vector<int64_t> broadcast_shape(const KernelContext& ctx, std::span<const int64_t> a,
                                     std::span<const int64_t> b);

/// The numpy broadcast of any number of shapes (empty list: a scalar shape).
std::vector<int64_t> broadcast_shape(const KernelContext& ctx,
                                     std::initializer_list<std::span<const int64_t>> shapes);

/// True when `from` broadcasts to exactly `to` (unidirectional broadcasting).
bool broadcasts_to(std::span<const int64_t> from, std::span<const int64_t> to);

/// The opset 1-6 rule of Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal, Less,
/// Greater: with broadcast=0 the shapes must be equal; with broadcast=1, `b`
/// must match a contiguous run of `a`'s dimensions starting at `axis` (or its
/// trailing dimensions when `axis` is absent), or have one element. Returns
/// the shape to view `b` with so that numpy broadcasting gives `a`'s shape.
std::vector<int64_t> legacy_broadcast_shape(const KernelContext& ctx, std::span<const int64_t> a,
                                            std::span<const int64_t> b);

/// How to walk inputs broadcast to a common output shape. The output is
/// written densely in row-major order. Dimensions are collapsed as far as
/// possible; the innermost one has, for each input, a stride of 0 (broadcast)
/// or 1 (dense), which lets inner loops be specialised.
struct BroadcastPlan {
  int num_inputs = 0;
  int64_t numel = 0;             ///< Elements of the output.
  std::vector<int64_t> dims;     ///< Collapsed output dimensions, outermost first; never empty.
  std::vector<int64_t> strides;  ///< strides[d * num_inputs + k]: input k's stride along dims[d].

  /// Stride (0 or 1) of input `k` along the innermost dimension.
  int64_t inner_stride(int k) const { return strides[(dims.size() - 1) * num_inputs + k]; }
  /// Length of the innermost runs.
  int64_t inner_size() const { return dims.back(); }
};

/// A plan for walking `inputs` (each must broadcast to `out_shape`, which the
/// caller has computed, e.g. with broadcast_shape) in step with the output.
BroadcastPlan make_broadcast_plan(std::span<const int64_t> out_shape,
                                  std::initializer_list<std::span<const int64_t>> inputs);

/// Calls `f(out_offset, in_offsets, count)` for each innermost run of the plan:
/// output elements [out_offset, out_offset + count) read input k from
/// in_offsets[k], advancing by plan.inner_stride(k) per element.
template <typename F>
void for_each_broadcast_run(const BroadcastPlan& plan, F&& f) {
  if (plan.numel == 0) return;
  const size_t rank = plan.dims.size();
  const int n = plan.num_inputs;
  const int64_t inner = plan.dims.back();
  // Small fixed buffers: the plan never needs more than a handful of inputs,
  // and avoiding allocation keeps tiny tensors cheap.
  int64_t offsets[8] = {};
  std::vector<int64_t> index(rank, 0);
  for (int64_t out = 0; out < plan.numel; out += inner) {
    f(out, static_cast<const int64_t*>(offsets), inner);
    // Advance the multi-index over the outer dimensions (odometer style).
    for (size_t d = rank - 1; d-- > 0;) {
      const int64_t* s = &plan.strides[d * n];
      if (++index[d] < plan.dims[d]) {
        for (int k = 0; k < n; ++k) offsets[k] += s[k];
        break;
      }
      for (int k = 0; k < n; ++k) offsets[k] -= s[k] * (plan.dims[d] - 1);
      index[d] = 0;
    }
  }
}

}  // namespace onnxscript::eval
