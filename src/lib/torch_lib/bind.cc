#include "bind.h"

#include <fmt/format.h>

#include <array>

#include "lib/torch_lib/common.h"
#include "onnxscript/support/error.h"

namespace onnxscript::torch_lib::detail {

void bad_argument(const ArgSite& site, const Arg& arg, std::string_view wanted) {
  throw TypeError(fmt::format("{}: argument '{}' ({}) must be {}, got {}",
                              site.schema.qualified_name, site.param.name, site.param.type, wanted,
                              arg.describe()));
}

size_t fixed_list_length(const std::string& type) {
  const size_t open = type.find('[');
  const size_t close = type.find(']');
  if (open == std::string::npos || close == std::string::npos || close == open + 1) return 0;
  return static_cast<size_t>(std::stoul(type.substr(open + 1, close - open - 1)));
}

namespace {

// A concrete 0-D (or one-element) tensor read as a scalar: TorchScript
// passes ints computed at run time as tensors.
std::optional<double> concrete_scalar(const Arg& arg) {
  const Value* v = arg.tensor();
  if (!v || !v->is_concrete() || !v->concrete().is_tensor()) return std::nullopt;
  const Tensor& t = v->tensor();
  if (t.numel() != 1) return std::nullopt;
  switch (t.dtype()) {
    case DataType::kFloat:
      return t.data<float>()[0];
    case DataType::kDouble:
      return t.data<double>()[0];
    case DataType::kInt64:
      return static_cast<double>(t.data<int64_t>()[0]);
    case DataType::kInt32:
      return t.data<int32_t>()[0];
    case DataType::kBool:
      return t.data<bool>()[0] ? 1.0 : 0.0;
    default:
      return std::nullopt;
  }
}

}  // namespace

Value to_value(const ArgSite& site, const Arg& arg) {
  const Arg::Storage& s = arg.storage();
  if (const Value* v = std::get_if<Value>(&s)) return *v;
  if (const int64_t* i = std::get_if<int64_t>(&s)) return Value(*i);
  if (const double* d = std::get_if<double>(&s)) return Value(*d);
  if (const bool* b = std::get_if<bool>(&s)) return Value(*b);
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&s)) {
    return Value(Tensor::from_span<int64_t>(*ints));
  }
  bad_argument(site, arg, "a tensor or a number");
}

std::vector<Value> to_values(const ArgSite& site, const Arg& arg) {
  if (const auto* vs = std::get_if<std::vector<Value>>(&arg.storage())) return *vs;
  bad_argument(site, arg, "a list of tensors");
}

int64_t to_int(const ArgSite& site, const Arg& arg) {
  const Arg::Storage& s = arg.storage();
  if (const int64_t* i = std::get_if<int64_t>(&s)) return *i;
  if (const bool* b = std::get_if<bool>(&s)) return *b ? 1 : 0;
  if (const auto d = concrete_scalar(arg)) return static_cast<int64_t>(*d);
  bad_argument(site, arg, "an int known while exporting");
}

double to_double(const ArgSite& site, const Arg& arg) {
  const Arg::Storage& s = arg.storage();
  if (const double* d = std::get_if<double>(&s)) return *d;
  if (const int64_t* i = std::get_if<int64_t>(&s)) return static_cast<double>(*i);
  if (const bool* b = std::get_if<bool>(&s)) return *b ? 1.0 : 0.0;
  if (const auto d = concrete_scalar(arg)) return *d;
  bad_argument(site, arg, "a number known while exporting");
}

bool to_bool(const ArgSite& site, const Arg& arg) {
  const Arg::Storage& s = arg.storage();
  if (const bool* b = std::get_if<bool>(&s)) return *b;
  if (const int64_t* i = std::get_if<int64_t>(&s)) return *i != 0;
  if (const auto d = concrete_scalar(arg)) return *d != 0;
  bad_argument(site, arg, "a bool known while exporting");
}

std::vector<int64_t> to_ints(const ArgSite& site, const Arg& arg) {
  const Arg::Storage& s = arg.storage();
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&s)) return *ints;
  if (const int64_t* i = std::get_if<int64_t>(&s)) {
    // `int[2] stride=1`: one int stands for the whole list.
    const size_t n = fixed_list_length(site.param.type);
    return std::vector<int64_t>(n == 0 ? 1 : n, *i);
  }
  if (const Value* v = arg.tensor(); v && v->is_concrete() && v->concrete().is_tensor() &&
                                     v->tensor().dtype() == DataType::kInt64) {
    const Tensor& t = v->tensor();
    return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
  }
  bad_argument(site, arg, "a list of ints known while exporting");
}

std::string to_string(const ArgSite& site, const Arg& arg) {
  if (const auto* str = std::get_if<std::string>(&arg.storage())) return *str;
  // TorchScript passes a MemoryFormat as its c10::MemoryFormat code, where a
  // schema's default spells it by name.
  const std::string_view type = site.param.type;
  if (const auto* code = std::get_if<int64_t>(&arg.storage());
      code && (type == "MemoryFormat" || type == "MemoryFormat?")) {
    static constexpr std::array<std::string_view, 4> kNames = {
        "contiguous_format", "preserve_format", "channels_last", "channels_last_3d"};
    if (*code >= 0 && *code < static_cast<int64_t>(kNames.size()))
      return std::string(kNames[static_cast<size_t>(*code)]);
  }
  bad_argument(site, arg, "a string");
}

OpCallable keeping_self_dtype_when_in_place(const Schema& schema, OpCallable callable) {
  const bool in_place =
      !schema.params.empty() && schema.params[0].written && schema.returns.size() == 1;
  if (!in_place) return callable;
  return [callable = std::move(callable)](std::span<const Arg> args) {
    std::vector<Value> outputs = callable(args);
    const Value* self = args.empty() ? nullptr : args[0].tensor();
    if (self && !outputs.empty()) {
      const std::optional<DataType> want = self->dtype(), got = outputs[0].dtype();
      if (want && got && *want != *got) outputs[0] = op::Cast(outputs[0], {.to = *want});
    }
    return outputs;
  };
}

void check_arity(const Schema& schema, size_t arity) {
  ONNXSCRIPT_CHECK(schema.params.size() == arity,
                   "torchlib: {} lists {} parameters, its function takes {}", schema.qualified_name,
                   schema.params.size(), arity);
}

}  // namespace onnxscript::torch_lib::detail
