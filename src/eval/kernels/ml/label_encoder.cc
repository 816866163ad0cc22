// LabelEncoder (ai.onnx.ml 1, 2): maps every element through a lookup table;
// the shape is kept.
// - Version 1: a string tensor becomes int64, each string replaced by its
//   index in classes_strings (default_int64, -1 unless set, when absent); an
//   int64 tensor becomes strings, classes_strings[x] (default_string,
//   "_Unused" unless set, when x is out of range).
// - Version 2: keys_{strings,int64s,floats} map to values_{strings,int64s,
//   floats} position by position; exactly one keys_* and one values_* list is
//   given, of equal length. The input type must be the key type and the output
//   type is the value type. Elements not among the keys get the default_* of
//   the value type: default_string "_Unused", default_int64 -1, default_float
//   -0.0 (the schema's defaults). Float keys compare bit for bit, so a NaN key
//   matches NaN elements of that bit pattern and 0.0 and -0.0 are different
//   keys. When a key is listed twice, its first entry wins.
#include <bit>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void label_encoder_v1(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const std::vector<std::string> classes = ml::attr_strings(ctx, "classes_strings");
  if (x.dtype() == DataType::kString) {
    std::unordered_map<std::string, int64_t> index;
    for (size_t i = 0; i < classes.size(); ++i) index.emplace(classes[i], static_cast<int64_t>(i));
    const int64_t fallback = ctx.attr_int("default_int64", -1);
    Tensor out(DataType::kInt64, x.shape());
    for (int64_t i = 0; i < x.numel(); ++i) {
      auto it = index.find(x.data<std::string>()[i]);
      out.data<int64_t>()[i] = it == index.end() ? fallback : it->second;
    }
    ctx.set_output(0, out);
  } else if (x.dtype() == DataType::kInt64) {
    const std::string fallback = ctx.attr_string("default_string", "_Unused");
    Tensor out(DataType::kString, x.shape());
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t k = x.data<int64_t>()[i];
      out.data<std::string>()[i] =
          k >= 0 && k < static_cast<int64_t>(classes.size()) ? classes[k] : fallback;
    }
    ctx.set_output(0, out);
  } else {
    ctx.fail(
        fmt::format("X must be a string or int64 tensor, not {}", ir::data_type_name(x.dtype())));
  }
}

// One keys_* or values_* list of version 2, as a 1-D tensor of its type.
Tensor read_list(const KernelContext& ctx, const char* prefix) {
  const std::string strings_name = std::string(prefix) + "_strings";
  const std::string ints_name = std::string(prefix) + "_int64s";
  const std::string floats_name = std::string(prefix) + "_floats";
  const int given = ml::has_attr(ctx, strings_name) + ml::has_attr(ctx, ints_name) +
                    ml::has_attr(ctx, floats_name);
  if (given != 1)
    ctx.fail(fmt::format("exactly one of {}, {}, {} must be given", strings_name, ints_name,
                         floats_name));
  if (ml::has_attr(ctx, strings_name)) {
    const std::vector<std::string> v = ml::attr_strings(ctx, strings_name);
    return Tensor::from_span<std::string>(v);
  }
  if (ml::has_attr(ctx, ints_name)) {
    const std::vector<int64_t> v = ctx.attr_ints(ints_name);
    return Tensor::from_span<int64_t>(v);
  }
  const std::vector<float> v = ctx.attr_floats(floats_name);
  return Tensor::from_span<float>(v);
}

// Key identity: strings and integers by value, floats by their bits.
template <typename K>
auto key_of(const K& k) {
  if constexpr (std::is_same_v<K, float>)
    return std::bit_cast<uint32_t>(k);
  else
    return k;
}

template <typename K, typename V>
void encode(KernelContext& ctx, const Tensor& x, const Tensor& keys, const Tensor& values,
            const V& fallback) {
  using Key = decltype(key_of(std::declval<K>()));
  std::unordered_map<Key, int64_t> index;
  for (int64_t i = 0; i < keys.numel(); ++i) index.emplace(key_of(keys.data<K>()[i]), i);
  Tensor out(values.dtype(), x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) {
    auto it = index.find(key_of(x.data<K>()[i]));
    out.data<V>()[i] = it == index.end() ? fallback : values.data<V>()[it->second];
  }
  ctx.set_output(0, out);
}

template <typename K>
void encode_with_keys(KernelContext& ctx, const Tensor& x, const Tensor& keys,
                      const Tensor& values) {
  switch (values.dtype()) {
    case DataType::kString:
      return encode<K, std::string>(ctx, x, keys, values,
                                    ctx.attr_string("default_string", "_Unused"));
    case DataType::kInt64:
      return encode<K, int64_t>(ctx, x, keys, values, ctx.attr_int("default_int64", -1));
    default:
      return encode<K, float>(ctx, x, keys, values, ctx.attr_float("default_float", -0.0f));
  }
}

void label_encoder_v2(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor keys = read_list(ctx, "keys");
  const Tensor values = read_list(ctx, "values");
  if (keys.numel() != values.numel())
    ctx.fail(fmt::format("{} keys but {} values", keys.numel(), values.numel()));
  if (x.dtype() != keys.dtype())
    ctx.fail(fmt::format("X is {} but the keys are {}", ir::data_type_name(x.dtype()),
                         ir::data_type_name(keys.dtype())));
  switch (keys.dtype()) {
    case DataType::kString:
      return encode_with_keys<std::string>(ctx, x, keys, values);
    case DataType::kInt64:
      return encode_with_keys<int64_t>(ctx, x, keys, values);
    default:
      return encode_with_keys<float>(ctx, x, keys, values);
  }
}

}  // namespace

void register_ml_label_encoder(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "LabelEncoder", 1, label_encoder_v1);
  registry.add("ai.onnx.ml", "LabelEncoder", 2, label_encoder_v2);
}

}  // namespace onnxscript::eval
