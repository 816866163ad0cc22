#include "onnxscript/torch_lib/registry.h"

#include <algorithm>

#include <fmt/format.h>

#include "onnxscript/support/error.h"

namespace onnxscript::torch_lib {

std::vector<Value> OpOverload::operator()(std::span<const Arg> args) const {
  const std::vector<SchemaParam>& params = schema.params;
  if (params.empty() && !callable) throw Error(schema.qualified_name + " has no function");
  // A schema-less user registration passes the arguments through as given.
  if (params.empty()) return callable(args);
  if (args.size() > params.size()) {
    throw TypeError(fmt::format("{} takes at most {} arguments, got {}", schema.qualified_name,
                                params.size(), args.size()));
  }
  std::vector<Arg> full(args.begin(), args.end());
  for (size_t i = args.size(); i < params.size(); ++i) {
    if (params[i].default_value) {
      full.push_back(*params[i].default_value);
    } else if (params[i].optional()) {
      full.emplace_back();
    } else {
      throw TypeError(fmt::format("{}: missing argument '{}' ({})", schema.qualified_name,
                                  params[i].name, params[i].type));
    }
  }
  return callable(full);
}

void Registry::add(OpOverload overload, bool replace) {
  std::vector<OpOverload>& list = overloads_[overload.schema.qualified_name];
  if (replace) list.clear();
  list.push_back(std::move(overload));
}

void Registry::register_op(const Function& function, std::string_view qualified_name,
                           std::string_view schema_text) {
  OpOverload overload;
  if (!schema_text.empty()) {
    overload.schema = Schema::parse(schema_text);
    if (overload.schema.qualified_name != qualified_name) {
      throw TypeError(fmt::format("register_op: the schema names {}, not {}",
                                  overload.schema.qualified_name, qualified_name));
    }
  } else {
    if (qualified_name.find("::") == std::string_view::npos)
      throw TypeError(
          fmt::format("register_op: '{}' needs a namespace (aten::...)", qualified_name));
    overload.schema.qualified_name = std::string(qualified_name);
  }
  overload.custom = true;
  overload.emission = Emission::kFunction;
  overload.callable = [function](std::span<const Arg> args) {
    // Trailing Nones are left out, so that the Function's defaults apply
    // (ATen passes every optional argument, most of them None).
    while (!args.empty() && args.back().is_none()) args = args.first(args.size() - 1);
    std::vector<detail::Argument> arguments;
    arguments.reserve(args.size());
    for (const Arg& arg : args) {
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
              arguments.push_back(detail::Argument{Value(), nullptr});
            } else if constexpr (std::is_same_v<T, std::vector<Value>>) {
              throw TypeError(
                  fmt::format("{}: a Tensor[] argument cannot be passed to a script "
                              "function",
                              function.name()));
            } else if constexpr (std::is_same_v<T, bool>) {
              arguments.push_back(detail::make_argument(static_cast<int64_t>(v)));
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
              arguments.push_back(detail::make_argument(std::vector<float>(v.begin(), v.end())));
            } else {
              arguments.push_back(detail::make_argument(v));
            }
          },
          arg.storage());
    }
    const Outputs outputs = function.call_arguments(std::move(arguments));
    return std::vector<Value>(outputs.values().begin(), outputs.values().end());
  };
  add(std::move(overload), /*replace=*/true);
}

bool Registry::is_registered_op(std::string_view name) const {
  return overloads_.find(name) != overloads_.end();
}

std::span<const OpOverload> Registry::get_op_functions(std::string_view name) const {
  const auto it = overloads_.find(name);
  if (it == overloads_.end()) return {};
  return it->second;
}

namespace {

bool is_complex(DataType t) { return t == DataType::kComplex64 || t == DataType::kComplex128; }

}  // namespace

const OpOverload* Registry::choose(std::string_view name, std::span<const Arg> args) const {
  const std::span<const OpOverload> candidates = get_op_functions(name);
  std::optional<DataType> first_dtype;
  for (const Arg& arg : args) {
    if (const Value* v = arg.tensor()) {
      first_dtype = v->dtype();
      break;
    }
  }
  const bool complex = first_dtype && is_complex(*first_dtype);
  for (const OpOverload& candidate : candidates) {
    if (candidate.dtypes == DtypeClass::kAny && !complex) return &candidate;
    if (candidate.dtypes == DtypeClass::kComplex && complex) return &candidate;
  }
  // An overload for every type still serves complex inputs when no complex
  // one is registered.
  for (const OpOverload& candidate : candidates)
    if (candidate.dtypes == DtypeClass::kAny) return &candidate;
  return nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  out.reserve(overloads_.size());
  for (const auto& [name, list] : overloads_) out.push_back(name);
  return out;
}

}  // namespace onnxscript::torch_lib
