// Unique: the distinct elements (or, with `axis`, distinct slices along the
// axis), sorted ascending when sorted=1 (the default) or in order of first
// occurrence. Optional outputs: the index of each unique's first occurrence,
// the inverse mapping (input position -> unique index) and the counts.
#include <algorithm>
#include <numeric>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void unique(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const bool sorted = ctx.attr_int("sorted", 1) != 0;
  const ir::Attribute* axis_attr = ctx.attribute("axis");
  const int64_t axis = axis_attr ? normalize_axis(ctx, axis_attr->as_int(), x.rank()) : 0;
  const Tensor src = axis_attr ? x : x.reshaped({x.numel()});
  const int64_t dim = src.shape()[axis];
  const int64_t outer = shape_product(src.shape(), 0, axis);
  const int64_t inner = shape_product(src.shape(), axis + 1, src.rank());

  std::vector<int64_t> first;  // per unique: first occurrence
  std::vector<int64_t> inverse(dim);
  std::vector<int64_t> counts;
  dispatch<kAllTypes>(x.dtype(), ctx, [&]<typename T>() {
    const T* p = src.data<T>();
    // Slices compare lexicographically in memory order.
    auto cmp = [&](int64_t a, int64_t b) -> int {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const T& va = p[(o * dim + a) * inner + i];
          const T& vb = p[(o * dim + b) * inner + i];
          if (element_less(va, vb)) return -1;
          if (element_less(vb, va)) return 1;
        }
      return 0;
    };
    std::vector<int64_t> order(dim);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return cmp(a, b) < 0; });
    std::vector<int64_t> group_of(dim);
    for (int64_t i = 0; i < dim; ++i) {
      if (i == 0 || cmp(order[i - 1], order[i]) != 0) {
        first.push_back(order[i]);
        counts.push_back(0);
      }
      group_of[order[i]] = static_cast<int64_t>(first.size()) - 1;
      ++counts.back();
    }
    std::vector<int64_t> rank_of(first.size());
    std::iota(rank_of.begin(), rank_of.end(), 0);
    if (!sorted) {
      // Renumber groups by first occurrence.
      std::vector<int64_t> by_first(first.size());
      std::iota(by_first.begin(), by_first.end(), 0);
      std::sort(by_first.begin(), by_first.end(),
                [&](int64_t a, int64_t b) { return first[a] < first[b]; });
      std::vector<int64_t> f2(first.size()), c2(first.size());
      for (size_t r = 0; r < by_first.size(); ++r) {
        rank_of[by_first[r]] = static_cast<int64_t>(r);
        f2[r] = first[by_first[r]];
        c2[r] = counts[by_first[r]];
      }
      first = std::move(f2);
      counts = std::move(c2);
    }
    for (int64_t i = 0; i < dim; ++i) inverse[i] = rank_of[group_of[i]];
  });

  const int64_t n = static_cast<int64_t>(first.size());
  std::vector<int64_t> y_shape = src.shape().to_vector();
  y_shape[axis] = n;
  Tensor y(x.dtype(), y_shape);
  dispatch_by_size(x.dtype(), ctx, [&]<typename U>() {
    const U* p = src.data<U>();
    U* dst = y.data<U>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t u = 0; u < n; ++u) {
        const U* s = p + (o * dim + first[u]) * inner;
        dst = std::copy(s, s + inner, dst);
      }
  });
  ctx.set_output(0, y);
  auto int_tensor = [](const std::vector<int64_t>& v) {
    return Tensor::from_span<int64_t>(std::span<const int64_t>(v.data(), v.size()));
  };
  if (ctx.num_outputs() > 1) ctx.set_output(1, int_tensor(first));
  if (ctx.num_outputs() > 2) ctx.set_output(2, int_tensor(inverse));
  if (ctx.num_outputs() > 3) ctx.set_output(3, int_tensor(counts));
}

}  // namespace

void register_tensor_unique(KernelRegistry& registry) { registry.add("", "Unique", 11, unique); }

}  // namespace onnxscript::eval
