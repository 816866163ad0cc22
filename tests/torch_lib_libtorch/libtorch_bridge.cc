// The one translation unit that includes LibTorch: converts torchlib
// arguments (Arg) to LibTorch IValues against LibTorch's schema, calls the
// operator through the boxed dispatcher (or TorchScript's operator table),
// and converts the results back to onnxscript tensors.

#include "torch_lib_libtorch/libtorch_bridge.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <fmt/format.h>
#include <torch/csrc/jit/frontend/function_schema_parser.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <cstring>
#include <memory>
#include <sstream>

#include "onnxscript/support/error.h"

namespace onnxscript::torch_lib::libtorch {
namespace {

// An operator found in LibTorch: its schema and how to run a stack.
struct Found {
  const c10::FunctionSchema* schema = nullptr;
  std::function<void(torch::jit::Stack&)> run;
};

std::pair<std::string, std::string> split_name(std::string_view qualified_name) {
  const std::string name(qualified_name);
  const size_t colons = name.find("::");
  const size_t dot = name.find('.', colons == std::string::npos ? 0 : colons + 2);
  if (dot == std::string::npos) return {name, ""};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

// The dispatcher first (native functions), then TorchScript's own operator
// table (aten::Int.Tensor and other scalar operators live only there).
std::optional<Found> find(std::string_view qualified_name) {
  const auto [base, overload] = split_name(qualified_name);
  if (auto handle = c10::Dispatcher::singleton().findSchema({base, overload})) {
    Found found;
    found.schema = &handle->schema();
    found.run = [op = *handle](torch::jit::Stack& stack) { op.callBoxed(stack); };
    return found;
  }
  for (const std::shared_ptr<torch::jit::Operator>& op :
       torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(base))) {
    if (op->schema().overload_name() != overload) continue;
    Found found;
    found.schema = &op->schema();
    found.run = [op](torch::jit::Stack& stack) { op->getOperation()(stack); };
    return found;
  }
  return std::nullopt;
}

at::ScalarType to_torch_dtype(DataType t) {
  switch (t) {
    case DataType::kFloat:
      return at::kFloat;
    case DataType::kDouble:
      return at::kDouble;
    case DataType::kFloat16:
      return at::kHalf;
    case DataType::kInt64:
      return at::kLong;
    case DataType::kInt32:
      return at::kInt;
    case DataType::kInt16:
      return at::kShort;
    case DataType::kInt8:
      return at::kChar;
    case DataType::kUint8:
      return at::kByte;
    case DataType::kBool:
      return at::kBool;
    default:
      throw TypeError(fmt::format("libtorch bridge: no LibTorch dtype for ONNX element type {}",
                                  static_cast<int>(t)));
  }
}

DataType to_onnx_dtype(at::ScalarType t) {
  switch (t) {
    case at::kFloat:
      return DataType::kFloat;
    case at::kDouble:
      return DataType::kDouble;
    case at::kHalf:
      return DataType::kFloat16;
    case at::kLong:
      return DataType::kInt64;
    case at::kInt:
      return DataType::kInt32;
    case at::kShort:
      return DataType::kInt16;
    case at::kChar:
      return DataType::kInt8;
    case at::kByte:
      return DataType::kUint8;
    case at::kBool:
      return DataType::kBool;
    default:
      throw TypeError(
          fmt::format("libtorch bridge: no ONNX element type for LibTorch's {}", c10::toString(t)));
  }
}

at::Tensor to_torch(const Tensor& t) {
  std::vector<int64_t> sizes(t.shape().begin(), t.shape().end());
  at::Tensor out = at::empty(sizes, at::TensorOptions().dtype(to_torch_dtype(t.dtype())));
  if (t.nbytes() > 0) std::memcpy(out.data_ptr(), t.raw_data(), t.nbytes());
  return out;
}

Tensor from_torch(const at::Tensor& t) {
  // A complex tensor as torchlib represents it: real pairs in a trailing
  // dimension of 2.
  const at::Tensor c = t.is_complex() ? at::view_as_real(t).contiguous() : t.contiguous();
  Tensor out(to_onnx_dtype(c.scalar_type()), ir::Dims(c.sizes().begin(), c.sizes().end()));
  if (out.nbytes() > 0) std::memcpy(out.raw_data(), c.data_ptr(), out.nbytes());
  return out;
}

const Value& concrete_tensor(const Arg& arg) {
  const Value* v = arg.tensor();
  if (!v->is_concrete())
    throw TypeError("libtorch bridge: a tensor argument must be concrete, got " + arg.describe());
  return *v;
}

// The enum-valued parameters that TorchScript passes as ints.
int64_t enum_code(const std::string& name) {
  if (name == "contiguous_format") return static_cast<int64_t>(c10::MemoryFormat::Contiguous);
  if (name == "preserve_format") return static_cast<int64_t>(c10::MemoryFormat::Preserve);
  if (name == "channels_last") return static_cast<int64_t>(c10::MemoryFormat::ChannelsLast);
  if (name == "strided") return static_cast<int64_t>(c10::Layout::Strided);
  throw TypeError("libtorch bridge: no LibTorch code for '" + name + "'");
}

// `arg` for a parameter of type `declared`; `fixed_length` is the N of int[N].
// With `complex_tensors`, a tensor is real pairs ([..., 2]) of a complex one.
c10::IValue to_ivalue(const Arg& arg, const c10::TypePtr& declared,
                      c10::optional<int32_t> fixed_length, bool complex_tensors = false) {
  c10::TypePtr type = declared;
  if (arg.is_none()) return c10::IValue();
  if (auto opt = type->cast<c10::OptionalType>()) type = opt->getElementType();
  const auto kind = type->kind();
  return std::visit(
      [&](const auto& v) -> c10::IValue {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return c10::IValue();
        } else if constexpr (std::is_same_v<T, Value>) {
          const at::Tensor t = to_torch(concrete_tensor(arg).tensor());
          return complex_tensors ? at::view_as_complex(t) : t;
        } else if constexpr (std::is_same_v<T, std::vector<Value>>) {
          std::vector<at::Tensor> list;
          for (const Value& x : v) list.push_back(to_torch(x.tensor()));
          return list;
        } else if constexpr (std::is_same_v<T, int64_t>) {
          if (kind == c10::TypeKind::FloatType) return static_cast<double>(v);
          if (kind == c10::TypeKind::BoolType) return v != 0;
          if (kind == c10::TypeKind::ListType) {
            // A single int for int[N]: what TorchScript's schema matching
            // repeats; the boxed call needs the list.
            return std::vector<int64_t>(static_cast<size_t>(fixed_length.value_or(1)), v);
          }
          return v;
        } else if constexpr (std::is_same_v<T, double>) {
          return v;
        } else if constexpr (std::is_same_v<T, bool>) {
          return v;
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return v;
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          return v;
        } else {
          static_assert(std::is_same_v<T, std::string>);
          if (kind == c10::TypeKind::IntType) return enum_code(v);
          if (kind == c10::TypeKind::DeviceObjType) return c10::Device(v);
          return v;
        }
      },
      arg.storage());
}

void append_outputs(const c10::IValue& v, std::vector<Tensor>& out) {
  if (v.isTensor()) {
    out.push_back(from_torch(v.toTensor()));
  } else if (v.isTensorList()) {
    for (const at::Tensor& t : v.toTensorVector()) out.push_back(from_torch(t));
  } else if (v.isIntList()) {
    // An int[] (aten::size's sizes) compares as torchlib gives it: 1-D int64.
    const std::vector<int64_t> ints = v.toIntVector();
    out.push_back(Tensor::from_span<int64_t>(ints, {static_cast<int64_t>(ints.size())}));
  } else if (v.isInt()) {
    out.push_back(Tensor::scalar<int64_t>(v.toInt()));
  } else if (v.isDouble()) {
    out.push_back(Tensor::scalar<double>(v.toDouble()));
  } else if (v.isBool()) {
    out.push_back(Tensor::scalar<bool>(v.toBool()));
  } else {
    throw TypeError("libtorch bridge: cannot convert LibTorch output " + v.tagKind());
  }
}

Arg to_arg(const c10::IValue& v) {
  if (v.isNone()) return Arg();
  if (v.isTensor()) return Arg(Value(from_torch(v.toTensor())));
  if (v.isTensorList()) {
    std::vector<Value> values;
    for (const at::Tensor& t : v.toTensorVector()) values.emplace_back(from_torch(t));
    return Arg(std::move(values));
  }
  if (v.isInt()) return Arg(v.toInt());
  if (v.isDouble()) return Arg(v.toDouble());
  if (v.isBool()) return Arg(v.toBool());
  if (v.isIntList()) return Arg(v.toIntVector());
  if (v.isDoubleList()) return Arg(v.toDoubleVector());
  if (v.isString()) return Arg(v.toStringRef());
  if (v.isDevice()) return Arg(v.toDevice().str());
  throw TypeError("libtorch bridge: cannot convert LibTorch value " + v.tagKind());
}

}  // namespace

std::optional<std::string> schema_text(std::string_view qualified_name) {
  const std::optional<Found> found = find(qualified_name);
  if (!found) return std::nullopt;
  std::ostringstream text;
  text << *found->schema;
  return text.str();
}

std::vector<Tensor> call(std::string_view qualified_name, std::span<const Arg> positional,
                         std::span<const KeywordArg> keywords, bool complex_tensors) {
  const std::optional<Found> found = find(qualified_name);
  if (!found) throw Error(fmt::format("LibTorch has no operator {}", qualified_name));
  const std::vector<c10::Argument>& params = found->schema->arguments();
  if (positional.size() > params.size()) {
    throw TypeError(fmt::format("{}: {} positional arguments for {} parameters", qualified_name,
                                positional.size(), params.size()));
  }
  for (const KeywordArg& kw : keywords) {
    const bool known = std::any_of(params.begin(), params.end(),
                                   [&](const c10::Argument& p) { return p.name() == kw.name; });
    if (!known) throw TypeError(fmt::format("{}: no parameter '{}'", qualified_name, kw.name));
  }
  torch::jit::Stack stack;
  for (size_t i = 0; i < params.size(); ++i) {
    const c10::Argument& p = params[i];
    try {
      if (i < positional.size()) {
        stack.push_back(to_ivalue(positional[i], p.type(), p.N(), complex_tensors));
        continue;
      }
      const auto kw = std::find_if(keywords.begin(), keywords.end(),
                                   [&](const KeywordArg& k) { return k.name == p.name(); });
      if (kw != keywords.end()) {
        stack.push_back(to_ivalue(kw->value, p.type(), p.N(), complex_tensors));
      } else if (p.default_value()) {
        stack.push_back(*p.default_value());  // LibTorch's own default
      } else {
        throw TypeError("missing, and it has no default");
      }
    } catch (const Error& e) {
      throw TypeError(fmt::format("{}: parameter '{}': {}", qualified_name, p.name(), e.what()));
    }
  }
  try {
    found->run(stack);
  } catch (const c10::Error& e) {
    throw Error(fmt::format("LibTorch {}: {}", qualified_name, e.what_without_backtrace()));
  }
  std::vector<Tensor> outputs;
  for (const c10::IValue& v : stack) append_outputs(v, outputs);
  return outputs;
}

Arg round_trip(const Arg& arg, std::string_view type) {
  const c10::FunctionSchema schema =
      torch::jit::parseSchema(fmt::format("test::round_trip({} x) -> ()", type));
  const c10::Argument& param = schema.arguments().at(0);
  return to_arg(to_ivalue(arg, param.type(), param.N()));
}

}  // namespace onnxscript::torch_lib::libtorch
