// Einsum: Einstein summation, as numpy.einsum. The equation names each
// input's axes with letters ("ij,jk->ik"); "..." stands for leading
// broadcast axes. A letter repeated within one input takes its diagonal;
// letters absent from the output are summed. Without "->" the output is
// "..." followed by the letters used exactly once, in alphabetical order.
//
// This is a reference implementation: one loop over every label, products
// accumulated in double (floats) or 64-bit integers. It is exact but does
// not call BLAS.
#include <map>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

using EinsumTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kInt8,
             DataType::kInt16, DataType::kInt32, DataType::kInt64, DataType::kUint8,
             DataType::kUint16, DataType::kUint32, DataType::kUint64>;

// Labels are 0..51 for letters and 52+i for the i-th ellipsis axis.
constexpr int kEllipsisBase = 52;

int letter_label(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

char label_char(int l) {
  if (l >= kEllipsisBase) return '.';
  return static_cast<char>(l < 26 ? 'a' + l : 'A' + (l - 26));
}

struct Term {
  std::vector<int> letters_before, letters_after;  // around the ellipsis
  bool has_ellipsis = false;
};

Term parse_term(const KernelContext& ctx, std::string_view s) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (t.has_ellipsis || s.substr(i, 3) != "...")
        ctx.fail(fmt::format("bad ellipsis in '{}'", s));
      t.has_ellipsis = true;
      i += 2;
      continue;
    }
    const int l = letter_label(s[i]);
    if (l < 0) ctx.fail(fmt::format("invalid character '{}' in the equation", s[i]));
    (t.has_ellipsis ? t.letters_after : t.letters_before).push_back(l);
  }
  return t;
}

// The labels of a term's axes, given the number of axes the ellipsis covers
// (right-aligned within the `ell_total` broadcast axes).
std::vector<int> expand_term(const Term& t, int64_t ell_rank, int64_t ell_total) {
  std::vector<int> labels = t.letters_before;
  for (int64_t i = 0; i < ell_rank; ++i)
    labels.push_back(kEllipsisBase + static_cast<int>(ell_total - ell_rank + i));
  labels.insert(labels.end(), t.letters_after.begin(), t.letters_after.end());
  return labels;
}

void einsum(KernelContext& ctx) {
  std::string eq;
  for (char c : ctx.required_attribute("equation").as_string())
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(ctx, std::string_view(lhs).substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  const size_t n_in = ctx.num_inputs();
  if (terms.size() != n_in)
    ctx.fail(
        fmt::format("the equation has {} operands but there are {} inputs", terms.size(), n_in));
  const DataType dtype = ctx.input_tensor(0).dtype();

  // Each input's axis labels, and the size of every label.
  std::vector<int64_t> ell_ranks(n_in);
  int64_t ell_total = 0;
  for (size_t i = 0; i < n_in; ++i) {
    const Tensor& t = ctx.input_tensor(i);
    if (t.dtype() != dtype) ctx.fail("all inputs must have the same element type");
    const int64_t named =
        static_cast<int64_t>(terms[i].letters_before.size() + terms[i].letters_after.size());
    const int64_t e = t.rank() - named;
    if (e < 0 || (!terms[i].has_ellipsis && e != 0))
      ctx.fail(
          fmt::format("operand {} has rank {} but its term names {} axes", i, t.rank(), named));
    ell_ranks[i] = e;
    ell_total = std::max(ell_total, e);
  }
  std::map<int, int64_t> size_of;
  std::vector<std::vector<int>> in_labels(n_in);
  std::map<int, int> uses;
  for (size_t i = 0; i < n_in; ++i) {
    in_labels[i] = expand_term(terms[i], ell_ranks[i], ell_total);
    const Tensor& t = ctx.input_tensor(i);
    for (size_t d = 0; d < in_labels[i].size(); ++d) {
      const int l = in_labels[i][d];
      const int64_t s = t.shape()[d];
      auto [it, fresh] = size_of.emplace(l, s);
      if (!fresh && it->second != s) {
        // Size-1 axes broadcast (numpy allows this for ellipsis axes).
        if (it->second == 1)
          it->second = s;
        else if (s != 1)
          ctx.fail(fmt::format("label '{}' has sizes {} and {}", label_char(l), it->second, s));
      }
      if (l < kEllipsisBase) ++uses[l];
    }
  }

  std::vector<int> out_labels;
  if (arrow != std::string::npos) {
    const Term out = parse_term(ctx, std::string_view(eq).substr(arrow + 2));
    out_labels = expand_term(out, out.has_ellipsis ? ell_total : 0, ell_total);
    for (size_t i = 0; i < out_labels.size(); ++i) {
      if (!size_of.count(out_labels[i])) ctx.fail("the output names a label no input has");
      for (size_t j = 0; j < i; ++j)
        if (out_labels[j] == out_labels[i]) ctx.fail("the output repeats a label");
    }
    if (!out.has_ellipsis && ell_total > 0)
      for (int64_t e = 0; e < ell_total; ++e)
        if (size_of[kEllipsisBase + static_cast<int>(e)] != 1)
          ctx.fail("the output must keep the broadcast axes covered by '...'");
  } else {
    for (int64_t e = 0; e < ell_total; ++e)
      out_labels.push_back(kEllipsisBase + static_cast<int>(e));
    // numpy orders the implicit output by character code: 'A'-'Z' before 'a'-'z'.
    for (int l = 26; l < 52; ++l)
      if (uses[l] == 1) out_labels.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (uses[l] == 1) out_labels.push_back(l);
  }
  std::vector<int> sum_labels;
  for (auto [l, s] : size_of)
    if (std::find(out_labels.begin(), out_labels.end(), l) == out_labels.end())
      sum_labels.push_back(l);

  // For each loop label: its extent and each input's stride along it.
  std::vector<int> loop = out_labels;
  loop.insert(loop.end(), sum_labels.begin(), sum_labels.end());
  std::vector<int64_t> extent(loop.size());
  std::vector<std::vector<int64_t>> stride(n_in, std::vector<int64_t>(loop.size(), 0));
  for (size_t j = 0; j < loop.size(); ++j) extent[j] = size_of[loop[j]];
  for (size_t i = 0; i < n_in; ++i) {
    const Tensor& t = ctx.input_tensor(i);
    const std::vector<int64_t> st = contiguous_strides(t.shape());
    for (size_t d = 0; d < in_labels[i].size(); ++d) {
      if (t.shape()[d] == 1) continue;  // broadcast
      const size_t j = std::find(loop.begin(), loop.end(), in_labels[i][d]) - loop.begin();
      stride[i][j] += st[d];  // repeated label: walks the diagonal
    }
  }
  std::vector<int64_t> out_shape(extent.begin(), extent.begin() + out_labels.size());
  Tensor out(dtype, out_shape);
  const std::vector<int64_t> sum_extent(extent.begin() + out_labels.size(), extent.end());
  const int64_t n_sum = shape_product(sum_extent, 0, sum_extent.size());

  dispatch<EinsumTypes>(dtype, ctx, [&]<typename T>() {
    using A = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double,
                                 std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;
    std::vector<const T*> src(n_in);
    for (size_t i = 0; i < n_in; ++i) src[i] = ctx.input_tensor(i).data<T>();
    T* dst = out.data<T>();
    if (out.numel() == 0) return;
    const size_t n_out_labels = out_labels.size();
    std::vector<int64_t> oindex(n_out_labels, 0), sindex(sum_labels.size(), 0);
    std::vector<int64_t> base(n_in, 0), off(n_in);
    // Steps the labels loop[label0 ...] like an odometer, keeping each
    // input's offset in step; false after the last combination.
    auto advance = [&](std::vector<int64_t>& index, size_t label0, std::vector<int64_t>& offs) {
      for (size_t d = index.size(); d-- > 0;) {
        const size_t j = label0 + d;
        for (size_t i = 0; i < n_in; ++i) offs[i] += stride[i][j];
        if (++index[d] < extent[j]) return true;
        for (size_t i = 0; i < n_in; ++i) offs[i] -= stride[i][j] * extent[j];
        index[d] = 0;
      }
      return false;
    };
    for (int64_t o = 0; o < out.numel(); ++o) {
      A acc = 0;
      if (n_sum > 0) {
        off = base;
        do {
          A p = 1;
          for (size_t i = 0; i < n_in; ++i)
            p *= static_cast<A>(static_cast<compute_t<T>>(src[i][off[i]]));
          acc += p;
        } while (advance(sindex, n_out_labels, off));
      }
      dst[o] = static_cast<T>(static_cast<compute_t<T>>(acc));
      advance(oindex, 0, base);
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_linalg_einsum(KernelRegistry& registry) { registry.add("", "Einsum", 12, einsum); }

}  // namespace onnxscript::eval
