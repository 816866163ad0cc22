// CategoryMapper (ai.onnx.ml 1): maps strings to integers or integers to
// strings through the parallel lists cats_strings / cats_int64s. The input
// type picks the direction: a string tensor becomes int64 (unknown strings
// give default_int64, -1 unless set), an int64 tensor becomes strings
// (unknown integers give default_string, "_Unused" unless set). The shape is
// kept. When a key is listed twice, its first entry wins.
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void category_mapper(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const std::vector<int64_t> ints = ctx.attr_ints("cats_int64s");
  const std::vector<std::string> strings = ml::attr_strings(ctx, "cats_strings");
  if (ints.size() != strings.size())
    ctx.fail(fmt::format("cats_int64s has {} entries but cats_strings has {}", ints.size(),
                         strings.size()));
  if (x.dtype() == DataType::kString) {
    std::unordered_map<std::string, int64_t> lookup;
    for (size_t i = 0; i < strings.size(); ++i) lookup.emplace(strings[i], ints[i]);
    const int64_t fallback = ctx.attr_int("default_int64", -1);
    Tensor out(DataType::kInt64, x.shape());
    for (int64_t i = 0; i < x.numel(); ++i) {
      auto it = lookup.find(x.data<std::string>()[i]);
      out.data<int64_t>()[i] = it == lookup.end() ? fallback : it->second;
    }
    ctx.set_output(0, out);
  } else if (x.dtype() == DataType::kInt64) {
    std::unordered_map<int64_t, const std::string*> lookup;
    for (size_t i = 0; i < ints.size(); ++i) lookup.emplace(ints[i], &strings[i]);
    const std::string fallback = ctx.attr_string("default_string", "_Unused");
    Tensor out(DataType::kString, x.shape());
    for (int64_t i = 0; i < x.numel(); ++i) {
      auto it = lookup.find(x.data<int64_t>()[i]);
      out.data<std::string>()[i] = it == lookup.end() ? fallback : *it->second;
    }
    ctx.set_output(0, out);
  } else {
    ctx.fail(
        fmt::format("X must be a string or int64 tensor, not {}", ir::data_type_name(x.dtype())));
  }
}

}  // namespace

void register_ml_category_mapper(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "CategoryMapper", 1, category_mapper);
}

}  // namespace onnxscript::eval
