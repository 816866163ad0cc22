// LabelEncoder (ai.onnx.ml 1, 2, 4): maps every element through a lookup table;
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
// - Version 4: the keys and values may also come as 1-D tensors (keys_tensor,
//   values_tensor) of string, int64, int32, int16, float or double, and the
//   default as default_tensor, one element of the value type. Without it the
//   default is "_Unused" for strings, -1 for integers and -0.0 for floats
//   (default_string, default_int64, default_float for their three types).
#include <bit>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"
#include "onnxscript/ir/element_types.h"

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

// One keys_* or values_* list, as a 1-D tensor of its type; `with_tensor`:
// version 4's <prefix>_tensor may stand in for the lists.
Tensor read_list(const KernelContext& ctx, const char* prefix, bool with_tensor) {
  const std::string strings_name = std::string(prefix) + "_strings";
  const std::string ints_name = std::string(prefix) + "_int64s";
  const std::string floats_name = std::string(prefix) + "_floats";
  const std::string tensor_name = std::string(prefix) + "_tensor";
  const bool tensor_given = with_tensor && ml::has_attr(ctx, tensor_name);
  const int given = ml::has_attr(ctx, strings_name) + ml::has_attr(ctx, ints_name) +
                    ml::has_attr(ctx, floats_name) + tensor_given;
  if (given != 1) {
    ctx.fail(fmt::format("exactly one of {}, {}, {}{} must be given", strings_name, ints_name,
                         floats_name, with_tensor ? ", " + tensor_name : std::string()));
  }
  if (tensor_given) {
    const Tensor& t = ctx.required_attribute(tensor_name).as_tensor();
    if (t.rank() != 1) ctx.fail(fmt::format("{} must be 1-D", tensor_name));
    return t;
  }
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

// Key identity: strings and integers by value, floating-point numbers by their bits.
template <typename K>
auto key_of(const K& k) {
  if constexpr (std::is_same_v<K, float>)
    return std::bit_cast<uint32_t>(k);
  else if constexpr (std::is_same_v<K, double>)
    return std::bit_cast<uint64_t>(k);
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

// The default of value type V: default_tensor (version 4), else the
// default_* attribute of V's kind.
template <typename V>
V default_value(const KernelContext& ctx) {
  if (const ir::Attribute* t = ctx.attribute("default_tensor")) {
    const Tensor& d = t->as_tensor();
    if (d.numel() != 1 || d.dtype() != ir::data_type_of<V>())
      ctx.fail("default_tensor must hold one element of the values' type");
    return d.data<V>()[0];
  }
  if constexpr (std::is_same_v<V, std::string>)
    return ctx.attr_string("default_string", "_Unused");
  else if constexpr (std::is_integral_v<V>)
    return static_cast<V>(ctx.attr_int("default_int64", -1));
  else
    return static_cast<V>(ctx.attr_float("default_float", -0.0f));
}

template <typename K>
void encode_with_keys(KernelContext& ctx, const Tensor& x, const Tensor& keys,
                      const Tensor& values) {
  switch (values.dtype()) {
    case DataType::kString:
      return encode<K, std::string>(ctx, x, keys, values, default_value<std::string>(ctx));
    case DataType::kInt64:
      return encode<K, int64_t>(ctx, x, keys, values, default_value<int64_t>(ctx));
    case DataType::kInt32:
      return encode<K, int32_t>(ctx, x, keys, values, default_value<int32_t>(ctx));
    case DataType::kInt16:
      return encode<K, int16_t>(ctx, x, keys, values, default_value<int16_t>(ctx));
    case DataType::kDouble:
      return encode<K, double>(ctx, x, keys, values, default_value<double>(ctx));
    case DataType::kFloat:
      return encode<K, float>(ctx, x, keys, values, default_value<float>(ctx));
    default:
      ctx.fail(
          fmt::format("values of type {} are not supported", ir::data_type_name(values.dtype())));
  }
}

void label_encoder(KernelContext& ctx, bool with_tensors) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor keys = read_list(ctx, "keys", with_tensors);
  const Tensor values = read_list(ctx, "values", with_tensors);
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
    case DataType::kInt32:
      return encode_with_keys<int32_t>(ctx, x, keys, values);
    case DataType::kInt16:
      return encode_with_keys<int16_t>(ctx, x, keys, values);
    case DataType::kDouble:
      return encode_with_keys<double>(ctx, x, keys, values);
    case DataType::kFloat:
      return encode_with_keys<float>(ctx, x, keys, values);
    default:
      ctx.fail(fmt::format("keys of type {} are not supported", ir::data_type_name(keys.dtype())));
  }
}

void label_encoder_v2(KernelContext& ctx) { label_encoder(ctx, false); }
void label_encoder_v4(KernelContext& ctx) { label_encoder(ctx, true); }

}  // namespace

void register_ml_label_encoder(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "LabelEncoder", 1, label_encoder_v1);
  registry.add("ai.onnx.ml", "LabelEncoder", 2, label_encoder_v2);
  registry.add("ai.onnx.ml", "LabelEncoder", 4, label_encoder_v4);  // tensors, more types
}

}  // namespace onnxscript::eval
