#include "eval/util/broadcast.h"

#include <algorithm>

#include <fmt/format.h>

namespace onnxscript::eval {

namespace {
std::string format_shape(std::span<const int64_t> shape) {
  return fmt::format("[{}]", fmt::join(shape, ","));
}
}  // namespace

bool try_broadcast_shape(std::span<const int64_t> a, std::span<const int64_t> b,
                         std::vector<int64_t>& out) {
  const size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Right-align: position i of the result pairs with a[i - (rank - a.size())].
    const int64_t da = i + a.size() < rank ? 1 : a[i + a.size() - rank];
    const int64_t db = i + b.size() < rank ? 1 : b[i + b.size() - rank];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return false;
    }
  }
  return true;
}

std::vector<int64_t> broadcast_shape(const KernelContext& ctx, std::span<const int64_t> a,
                                     std::span<const int64_t> b) {
  std::vector<int64_t> out;
  if (!try_broadcast_shape(a, b, out))
    ctx.fail(fmt::format("cannot broadcast shapes {} and {}", format_shape(a), format_shape(b)));
  return out;
}

std::vector<int64_t> broadcast_shape(const KernelContext& ctx,
                                     std::initializer_list<std::span<const int64_t>> shapes) {
  std::vector<int64_t> out, next;
  for (std::span<const int64_t> s : shapes) {
    if (!try_broadcast_shape(out, s, next)) {
      std::vector<std::string> all;
      for (std::span<const int64_t> t : shapes) all.push_back(format_shape(t));
      ctx.fail(fmt::format("cannot broadcast shapes {}", fmt::join(all, ", ")));
    }
    out.swap(next);
  }
  return out;
}

bool broadcasts_to(std::span<const int64_t> from, std::span<const int64_t> to) {
  if (from.size() > to.size()) return false;
  const size_t shift = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[i + shift]) return false;
  return true;
}

std::vector<int64_t> legacy_broadcast_shape(const KernelContext& ctx, std::span<const int64_t> a,
                                            std::span<const int64_t> b) {
  const std::vector<int64_t> b_shape(b.begin(), b.end());
  if (ctx.attr_int("broadcast", 0) == 0) {
    if (!std::equal(a.begin(), a.end(), b.begin(), b.end()))
      ctx.fail(fmt::format("shapes {} and {} differ and the broadcast attribute is not set",
                           format_shape(a), format_shape(b)));
    return b_shape;
  }
  int64_t numel = 1;
  for (int64_t d : b) numel *= d;
  if (numel == 1) return {};  // a one-element B is a scalar for any A
  const int64_t ra = static_cast<int64_t>(a.size()), rb = static_cast<int64_t>(b.size());
  int64_t axis = ctx.attr_int("axis", ra - rb);
  if (axis < 0) axis += ra;
  if (axis < 0 || axis + rb > ra)
    ctx.fail(fmt::format("cannot broadcast shape {} into {} at axis {}", format_shape(b),
                         format_shape(a), ctx.attr_int("axis", ra - rb)));
  std::vector<int64_t> view(static_cast<size_t>(ra - axis), 1);
  for (int64_t i = 0; i < rb; ++i) {
    if (b[i] != a[axis + i] && b[i] != 1)
      ctx.fail(fmt::format("cannot broadcast shape {} into {} at axis {}", format_shape(b),
                           format_shape(a), axis));
    view[i] = b[i];
  }
  return view;
}

BroadcastPlan make_broadcast_plan(std::span<const int64_t> out_shape,
                                  std::initializer_list<std::span<const int64_t>> inputs) {
  BroadcastPlan plan;
  const int n = static_cast<int>(inputs.size());
  ONNXSCRIPT_CHECK(n >= 1 && n <= 8, "broadcast plan over {} inputs", n);
  plan.num_inputs = n;
  plan.numel = 1;
  for (int64_t d : out_shape) plan.numel *= d;
  if (plan.numel == 0) {
    plan.dims = {0};
    plan.strides.assign(n, 0);
    return plan;
  }
  // Per-dimension strides of each input, right-aligned against the output.
  const size_t rank = out_shape.size();
  std::vector<int64_t> strides(rank * n, 0);
  int k = 0;
  for (std::span<const int64_t> in : inputs) {
    ONNXSCRIPT_CHECK(broadcasts_to(in, out_shape), "shape {} does not broadcast to {}",
                     format_shape(in), format_shape(out_shape));
    int64_t stride = 1;
    const size_t shift = rank - in.size();
    for (size_t i = in.size(); i-- > 0;) {
      strides[(i + shift) * n + k] = in[i] == 1 ? 0 : stride;
      stride *= in[i];
    }
    ++k;
  }
  // Drop output dimensions of 1, then merge neighbours that every input walks
  // as one (dense in both, or broadcast in both).
  for (size_t d = 0; d < rank; ++d) {
    if (out_shape[d] == 1) continue;
    const int64_t* s = &strides[d * n];
    if (!plan.dims.empty()) {
      const int64_t* prev = &plan.strides[(plan.dims.size() - 1) * n];
      bool mergeable = true;
      for (int j = 0; j < n && mergeable; ++j) mergeable = prev[j] == s[j] * out_shape[d];
      if (mergeable) {
        plan.dims.back() *= out_shape[d];
        std::copy(s, s + n, plan.strides.end() - n);
        continue;
      }
    }
    plan.dims.push_back(out_shape[d]);
    plan.strides.insert(plan.strides.end(), s, s + n);
  }
  if (plan.dims.empty()) {  // every dimension is 1: a single element
    plan.dims = {1};
    plan.strides.assign(n, 0);
  }
  return plan;
}

}  // namespace onnxscript::eval
