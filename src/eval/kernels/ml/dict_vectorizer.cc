// DictVectorizer (ai.onnx.ml 1): a map to a [1, V] tensor laid out by a
// vocabulary: column j holds the map's value for key vocabulary[j], or the
// zero of the value type (0 or "") when the map lacks that key. Exactly one of
// string_vocabulary / int64_vocabulary is given and must match the key type.
// The spec asks every map key to be in the vocabulary; keys outside it are
// skipped, as ONNX Runtime and scikit-learn's DictVectorizer do, so that a
// model sees unseen features as absent rather than failing.
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void dict_vectorizer(KernelContext& ctx) {
  const RuntimeValue& input = ctx.input(0);
  if (!input.is_map()) ctx.fail(fmt::format("X must be a map, got {}", input.describe()));
  const MapValue& map = input.map();
  const std::vector<std::string> string_vocabulary = ml::attr_strings(ctx, "string_vocabulary");
  const std::vector<int64_t> int_vocabulary = ctx.attr_ints("int64_vocabulary");
  if (string_vocabulary.empty() == int_vocabulary.empty())
    ctx.fail("exactly one of string_vocabulary and int64_vocabulary must be given");
  const bool string_keys = !string_vocabulary.empty();
  if (map.keys.dtype() != (string_keys ? DataType::kString : DataType::kInt64))
    ctx.fail(fmt::format("the map keys are {} but the vocabulary is {}",
                         ir::data_type_name(map.keys.dtype()), string_keys ? "string" : "int64"));
  require_type(TypeList<DataType::kInt64, DataType::kFloat, DataType::kDouble, DataType::kString>{},
               map.values.dtype(), ctx);
  if (map.values.rank() != 1) ctx.fail("the map values must be scalars");

  // Column of each map entry, or -1 when its key is not in the vocabulary.
  const int64_t n = map.keys.numel();
  std::vector<int64_t> column(static_cast<size_t>(n), -1);
  int64_t width = 0;
  if (string_keys) {
    std::unordered_map<std::string, int64_t> index;
    for (size_t j = 0; j < string_vocabulary.size(); ++j)
      index.emplace(string_vocabulary[j], static_cast<int64_t>(j));
    for (int64_t i = 0; i < n; ++i)
      if (auto it = index.find(map.keys.data<std::string>()[i]); it != index.end())
        column[i] = it->second;
    width = static_cast<int64_t>(string_vocabulary.size());
  } else {
    std::unordered_map<int64_t, int64_t> index;
    for (size_t j = 0; j < int_vocabulary.size(); ++j)
      index.emplace(int_vocabulary[j], static_cast<int64_t>(j));
    for (int64_t i = 0; i < n; ++i)
      if (auto it = index.find(map.keys.data<int64_t>()[i]); it != index.end())
        column[i] = it->second;
    width = static_cast<int64_t>(int_vocabulary.size());
  }
  Tensor out(map.values.dtype(), {1, width});
  dispatch_by_size(map.values.dtype(), ctx, [&]<typename U>() {
    const U* src = map.values.data<U>();
    U* dst = out.data<U>();
    for (int64_t i = 0; i < n; ++i)
      if (column[i] >= 0) dst[column[i]] = src[i];
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_dict_vectorizer(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "DictVectorizer", 1, dict_vectorizer);
}

}  // namespace onnxscript::eval
