// TfIdfVectorizer: counts, per row of X ([C] or [N, C]; int32/int64 with
// pool_int64s, strings with pool_strings), how often each n-gram of the pool
// occurs, and writes the count of pool n-gram i to Y[..., ngram_indexes[i]]
// (Y is float [max(ngram_indexes) + 1] or [N, max + 1]).
//
// The pool lists the 1-grams, then the 2-grams, ... back to back;
// ngram_counts[k] is the pool position where the (k+1)-grams begin. Only
// n-grams with min_gram_length <= n <= max_gram_length are counted. An n-gram
// with skip s takes every (s+1)-th item: X[i], X[i+s+1], ..., and s runs over
// 0..max_skip_count; 1-grams are counted once (skips do not apply to them).
// N-grams never span rows.
//
// Modes: TF writes the counts; IDF writes min(count, 1) * weights[i]; TFIDF
// writes count * weights[i] (weights default to 1). Pool n-grams sharing an
// output index add up.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

// The pool as a map from n-gram to its number among the pool's n-grams.
template <typename Item>
struct Pool {
  std::map<std::vector<Item>, size_t> ids;
  size_t size = 0;  // number of n-grams
};

template <typename Item>
Pool<Item> read_pool(const KernelContext& ctx, const std::vector<Item>& items,
                     const std::vector<int64_t>& starts) {
  Pool<Item> pool;
  const auto total = static_cast<int64_t>(items.size());
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t n = static_cast<int64_t>(k) + 1;
    const int64_t begin = starts[k];
    const int64_t end = k + 1 < starts.size() ? starts[k + 1] : total;
    if (begin < 0 || end < begin || end > total)
      ctx.fail(fmt::format("ngram_counts {} does not split a pool of {} items",
                           shape_string(starts), total));
    if ((end - begin) % n != 0)
      ctx.fail(
          fmt::format("the {}-grams take {} pool items, not a multiple of {}", n, end - begin, n));
    for (int64_t p = begin; p < end; p += n) {
      std::vector<Item> gram(items.begin() + p, items.begin() + p + n);
      if (!pool.ids.emplace(std::move(gram), pool.size).second)
        ctx.fail(fmt::format("the pool lists a {}-gram twice (at item {})", n, p));
      ++pool.size;
    }
  }
  return pool;
}

template <typename Item>
void count_row(const Item* row, int64_t length, const Pool<Item>& pool, int64_t min_n,
               int64_t max_n, int64_t max_skip, std::vector<int64_t>& counts) {
  std::vector<Item> gram;
  for (int64_t n = min_n; n <= max_n; ++n)
    for (int64_t skip = 0; skip <= (n == 1 ? 0 : max_skip); ++skip) {
      const int64_t step = skip + 1;
      for (int64_t start = 0; start + (n - 1) * step < length; ++start) {
        gram.clear();
        for (int64_t j = 0; j < n; ++j) gram.push_back(row[start + j * step]);
        auto it = pool.ids.find(gram);
        if (it != pool.ids.end()) ++counts[it->second];
      }
    }
}

void tf_idf_vectorizer(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() != 1 && x.rank() != 2)
    ctx.fail(fmt::format("X must be 1-D or 2-D, not {}", shape_string(x.shape())));
  const int64_t min_n = ctx.required_attribute("min_gram_length").as_int();
  const int64_t max_n = ctx.required_attribute("max_gram_length").as_int();
  const int64_t max_skip = ctx.required_attribute("max_skip_count").as_int();
  const std::string mode = ctx.required_attribute("mode").as_string();
  const std::vector<int64_t> starts = ctx.required_attribute("ngram_counts").as_ints();
  const std::vector<int64_t> indexes = ctx.required_attribute("ngram_indexes").as_ints();
  if (min_n < 1 || max_n < min_n)
    ctx.fail(fmt::format("need 1 <= min_gram_length ({}) <= max_gram_length ({})", min_n, max_n));
  if (max_skip < 0) ctx.fail(fmt::format("max_skip_count {} is negative", max_skip));
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    ctx.fail(fmt::format("mode '{}' is not TF, IDF or TFIDF", mode));
  const ir::Attribute* pool_ints = ctx.attribute("pool_int64s");
  const ir::Attribute* pool_strings = ctx.attribute("pool_strings");
  if ((pool_ints != nullptr) == (pool_strings != nullptr))
    ctx.fail("exactly one of pool_int64s and pool_strings must be given");
  if (pool_strings ? x.dtype() != DataType::kString
                   : x.dtype() != DataType::kInt32 && x.dtype() != DataType::kInt64)
    ctx.fail(fmt::format("X is {}, but pool_{} needs {} input", ir::data_type_name(x.dtype()),
                         pool_strings ? "strings" : "int64s",
                         pool_strings ? "string" : "int32 or int64"));
  const std::vector<float> weights = ctx.attr_floats("weights");
  int64_t width = 0;
  for (int64_t i : indexes) {
    if (i < 0) ctx.fail(fmt::format("ngram_indexes holds the negative index {}", i));
    width = std::max(width, i + 1);
  }
  const int64_t rows = x.rank() == 2 ? x.shape()[0] : 1;
  const int64_t length = x.shape().back();
  size_t pool_size = 0;
  std::vector<std::vector<int64_t>> row_counts(rows);
  auto count_all = [&]<typename Item>(const Pool<Item>& pool, const std::vector<Item>& items) {
    pool_size = pool.size;
    for (int64_t r = 0; r < rows; ++r) {
      row_counts[r].assign(pool.size, 0);
      count_row(items.data() + r * length, length, pool, min_n, max_n, max_skip, row_counts[r]);
    }
  };
  if (pool_strings) {
    const std::vector<std::string> items(x.data<std::string>(), x.data<std::string>() + x.numel());
    count_all(read_pool(ctx, pool_strings->as_strings(), starts), items);
  } else {
    std::vector<int64_t> items = tensor_to_int64s(ctx, x, "X");
    count_all(read_pool(ctx, pool_ints->as_ints(), starts), items);
  }
  if (indexes.size() != pool_size)
    ctx.fail(fmt::format("ngram_indexes has {} entries but the pool holds {} n-grams",
                         indexes.size(), pool_size));
  if (!weights.empty() && weights.size() != pool_size)
    ctx.fail(fmt::format("weights has {} entries but the pool holds {} n-grams", weights.size(),
                         pool_size));
  Tensor y(DataType::kFloat,
           x.rank() == 2 ? std::vector<int64_t>{rows, width} : std::vector<int64_t>{width});
  float* out = y.data<float>();
  for (int64_t r = 0; r < rows; ++r)
    for (size_t i = 0; i < pool_size; ++i) {
      const int64_t count = row_counts[r][i];
      if (count == 0) continue;
      const float weight = weights.empty() ? 1.0f : weights[i];
      const float value = mode == "TF"    ? static_cast<float>(count)
                          : mode == "IDF" ? weight
                                          : static_cast<float>(count) * weight;
      out[r * width + indexes[i]] += value;
    }
  ctx.set_output(0, y);
}

}  // namespace

void register_text_tf_idf_vectorizer(KernelRegistry& registry) {
  registry.add("", "TfIdfVectorizer", 9, tf_idf_vectorizer);
}

}  // namespace onnxscript::eval
