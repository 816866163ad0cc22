#include "onnxscript/script/function.h"

#include <mutex>

#include <fmt/format.h>

#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/file_io.h"
#include "script/constant_node.h"
#include "script/graph_outputs.h"
#include "script/node_origin.h"

namespace onnxscript {

// ---------------------------------------------------------------- Attr<T>

namespace {

// The Constant attribute that carries an attribute of type T as a value.
template <typename T>
const char* constant_attribute_for() {
  if constexpr (std::is_same_v<T, int64_t>) return "value_int";
  if constexpr (std::is_same_v<T, float>) return "value_float";
  if constexpr (std::is_same_v<T, std::string>) return "value_string";
  if constexpr (std::is_same_v<T, std::vector<int64_t>>) return "value_ints";
  if constexpr (std::is_same_v<T, std::vector<float>>) return "value_floats";
}

template <typename T>
Tensor tensor_of(const T& v) {
  if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<float>>) {
    return Tensor::from_span<typename T::value_type>(v);
  } else {
    return Tensor::scalar(v);
  }
}

}  // namespace

// A numeric attribute used as a value adapts its element type to the value
// beside it, as a C++ literal does (Value::adapts_type()); a string keeps its
// own. Both modes start from the same tensor, the one a Constant made from
// the attribute holds (float32 for float, int64 for int), so they agree.
template <typename T>
Attr<T>::operator Value() const {
  constexpr bool kNumeric = !std::is_same_v<T, std::string>;
  if (!is_reference()) {
    const Value v(tensor_of(value_));
    return kNumeric ? v.adapting_type() : v;
  }
  TraceScope* scope = TraceScope::current();
  if (!scope)
    throw ScriptError(
        fmt::format("attribute '{}' is used outside the script that traces it", reference_));
  ir::Node* node = scope->graph().append_node("Constant", {}, 1);
  node->set_attribute(ir::Attribute::make_reference(constant_attribute_for<T>(),
                                                    detail::attribute_type_of<T>(), reference_));
  ir::Value* out = node->output(0);
  out->set_name(scope->fresh_name(reference_));
  // The Constant's type is known from the attribute's: a scalar, or a list
  // of unknown length.
  const Tensor sample = tensor_of(T{});
  out->set_type(
      ir::Type::tensor(sample.dtype(), sample.rank() == 1 ? ir::Shape{ir::Dim()} : ir::Shape{}));
  const Value v = Value::traced(out);
  return kNumeric ? v.adapting_type() : v;
}

template <typename T>
ir::Attribute Attr<T>::to_attribute(std::string name) const {
  if (is_reference())
    return ir::Attribute::make_reference(std::move(name), detail::attribute_type_of<T>(),
                                         reference_);
  return detail::attribute_argument(std::move(name), value_);
}

template class Attr<int64_t>;
template class Attr<float>;
template class Attr<std::string>;
template class Attr<std::vector<int64_t>>;
template class Attr<std::vector<float>>;

// ---------------------------------------------------------------- Outputs

Value Outputs::single() const {
  if (values_.size() != 1) {
    throw ScriptError(fmt::format("the call has {} outputs; index them or use as<{}>()",
                                  values_.size(), values_.size()));
  }
  return values_[0];
}

void Outputs::check_count(size_t n) const {
  if (values_.size() != n)
    throw ScriptError(fmt::format("the call has {} outputs, not {}", values_.size(), n));
}

// ---------------------------------------------------------------- detail helpers

namespace detail {

ir::Attribute attribute_argument(std::string name, int64_t v) {
  return ir::Attribute::make_int(std::move(name), v);
}
ir::Attribute attribute_argument(std::string name, int v) {
  return ir::Attribute::make_int(std::move(name), v);
}
ir::Attribute attribute_argument(std::string name, float v) {
  return ir::Attribute::make_float(std::move(name), v);
}
ir::Attribute attribute_argument(std::string name, double v) {
  return ir::Attribute::make_float(std::move(name), static_cast<float>(v));
}
ir::Attribute attribute_argument(std::string name, const std::string& v) {
  return ir::Attribute::make_string(std::move(name), v);
}
ir::Attribute attribute_argument(std::string name, const char* v) {
  return ir::Attribute::make_string(std::move(name), v);
}
ir::Attribute attribute_argument(std::string name, const std::vector<int64_t>& v) {
  return ir::Attribute::make_ints(std::move(name), v);
}
ir::Attribute attribute_argument(std::string name, const std::vector<float>& v) {
  return ir::Attribute::make_floats(std::move(name), v);
}

template <>
int64_t attribute_value<int64_t>(const ir::Attribute& a) {
  return a.as_int();
}
template <>
float attribute_value<float>(const ir::Attribute& a) {
  return a.as_float();
}
template <>
std::string attribute_value<std::string>(const ir::Attribute& a) {
  return a.as_string();
}
template <>
std::vector<int64_t> attribute_value<std::vector<int64_t>>(const ir::Attribute& a) {
  return a.as_ints();
}
template <>
std::vector<float> attribute_value<std::vector<float>>(const ir::Attribute& a) {
  return a.as_floats();
}

Value add_traced_input(ir::Function& fn, const std::string& name, std::optional<ir::Type> type) {
  return Value::traced(fn.body().add_input(name, std::move(type)));
}

ir::Attribute convert_attribute(ir::Attribute value, ir::AttributeType expected,
                                std::string_view function, std::string_view what,
                                const std::source_location& location) {
  if (value.type == expected) return value;
  if (!value.is_reference()) {
    if (expected == ir::AttributeType::kFloat && value.type == ir::AttributeType::kInt)
      return ir::Attribute::make_float(value.name, static_cast<float>(value.as_int()));
    if (expected == ir::AttributeType::kFloats && value.type == ir::AttributeType::kInts) {
      const std::vector<int64_t>& ints = value.as_ints();
      return ir::Attribute::make_floats(value.name, std::vector<float>(ints.begin(), ints.end()));
    }
  }
  throw ScriptError(fmt::format("'{}': {} is {}, but the parameter is {} (at {})", function, what,
                                ir::attribute_type_name(value.type),
                                ir::attribute_type_name(expected), where(location)));
}

namespace {

// The default of an attribute parameter; Function's constructor has already
// converted it to the parameter's type.
ir::Attribute default_attribute(const Param& param) {
  return std::visit(
      [&](const auto& v) -> ir::Attribute {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
          return {};
        } else {
          return attribute_argument(param.name, v);
        }
      },
      param.default_value);
}

}  // namespace

void add_traced_attribute(ir::Function& fn, const Param& param, ir::AttributeType type) {
  if (std::holds_alternative<std::monostate>(param.default_value)) {
    fn.attribute_names.push_back(param.name);
  } else {
    ir::Attribute a = default_attribute(param);
    ONNXSCRIPT_CHECK(a.type == type, "a script's defaults are converted when it is made");
    fn.attribute_defaults.push_back(std::move(a));
  }
}

}  // namespace detail

// ---------------------------------------------------------------- Function

struct Function::Impl {
  std::string domain, name;
  std::vector<Param> params;
  std::shared_ptr<const detail::ScriptBody> body;
  int64_t domain_version;
  std::source_location location;  // of the script() call
  std::vector<ParamKind> kinds;
  std::vector<ir::AttributeType> attribute_types;    // per parameter; kUndefined for inputs
  std::vector<std::optional<ir::Type>> input_types;  // per parameter, as declared

  mutable std::once_flag traced_once;
  mutable std::unique_ptr<ir::Function> traced;
  mutable std::vector<Function> callees;  // direct callees, in first-call order
};

namespace {
// The callee lists of the functions being traced on this thread, innermost last.
thread_local std::vector<std::vector<Function>*> tracing_callees;
}  // namespace

namespace detail {

CalleeCollector::CalleeCollector(std::vector<Function>& callees) {
  tracing_callees.push_back(&callees);
}

CalleeCollector::~CalleeCollector() { tracing_callees.pop_back(); }

void note_callees(const std::vector<Function>& callees) {
  if (tracing_callees.empty()) return;
  auto& list = *tracing_callees.back();
  for (const Function& f : callees) {
    bool known = false;
    for (const Function& g : list) known |= (g.impl_ == f.impl_);
    if (!known) list.push_back(f);
  }
}

}  // namespace detail

Function::Function(std::string domain, std::string name, std::vector<Param> params,
                   std::shared_ptr<const detail::ScriptBody> body, int64_t domain_version,
                   std::source_location location)
    : impl_(std::make_shared<Impl>()) {
  impl_->domain = std::move(domain);
  impl_->name = std::move(name);
  impl_->params = std::move(params);
  impl_->body = std::move(body);
  impl_->domain_version = domain_version;
  impl_->location = location;
  impl_->kinds = impl_->body->param_kinds();
  if (impl_->kinds.size() != impl_->params.size()) {
    throw ScriptError(fmt::format("script '{}' names {} parameters but its lambda takes {}",
                                  impl_->name, impl_->params.size(), impl_->kinds.size()));
  }  // Defaults take their parameter's type once, here: {"alpha", 2} for an
  // Attr<float> is 2.0 in the traced function and in every eager call.
  impl_->attribute_types = impl_->body->attribute_types();
  impl_->input_types = impl_->body->input_types();
  for (size_t i = 0; i < impl_->params.size(); ++i) {
    Param& param = impl_->params[i];
    if (impl_->kinds[i] != ParamKind::kAttribute ||
        std::holds_alternative<std::monostate>(param.default_value))
      continue;
    const ir::Attribute a = detail::convert_attribute(
        detail::default_attribute(param), impl_->attribute_types[i], impl_->name,
        fmt::format("the default of attribute '{}'", param.name), location);
    if (a.type == ir::AttributeType::kFloat) param.default_value = a.as_float();
    if (a.type == ir::AttributeType::kFloats) param.default_value = a.as_floats();
  }
}

const std::string& Function::name() const { return impl_->name; }
const std::string& Function::domain() const { return impl_->domain; }

namespace {

// Traces `body` into `fn`, collecting the functions it calls, and where
// its initializers were made into `*initializer_origins` when not null.
// `location` is the script() call's: the nodes that make the outputs carry it.
void trace_into(const std::source_location& location,
                const std::shared_ptr<const detail::ScriptBody>& body,
                const std::vector<Param>& params, ir::Function& fn, std::vector<Function>& callees,
                std::vector<InitializerOrigin>* initializer_origins = nullptr) {
  TraceScope scope(fn.body(), fn.opset_imports);
  scope.collect_initializer_origins(initializer_origins);
  tracing_callees.push_back(&callees);
  try {
    const std::vector<Value> results = body->trace(fn, params);
    // A literal result takes the element type the lambda declares, if any.
    const std::vector<std::optional<ir::Type>> declared = body->declared_output_types();
    std::vector<DataType> literal_types(results.size(), DataType::kUndefined);
    if (declared.size() == results.size()) {
      for (size_t i = 0; i < results.size(); ++i)
        if (declared[i] && declared[i]->is_tensor()) literal_types[i] = declared[i]->elem_type;
    }
    detail::set_graph_outputs(scope, results, literal_types, fmt::format("script '{}'", fn.name),
                              location);
  } catch (...) {
    tracing_callees.pop_back();
    throw;
  }
  tracing_callees.pop_back();
}

}  // namespace

const ir::Function& Function::to_function() const {
  std::call_once(impl_->traced_once, [&] {
    auto fn = std::make_unique<ir::Function>(impl_->domain, impl_->name);
    std::vector<InitializerOrigin> origins;
    trace_into(impl_->location, impl_->body, impl_->params, *fn, impl_->callees, &origins);
    detail::initializers_to_constant_nodes(fn->body(), origins);
    impl_->traced = std::move(fn);
  });
  return *impl_->traced;
}

std::vector<Function> Function::callees() const {
  to_function();
  return transitive_callees(impl_->callees);
}

// Depth-first over the call graph from `direct`, each function once, traced
// (cached) on the way so that its own callees are known.
std::vector<Function> Function::transitive_callees(const std::vector<Function>& direct) const {
  std::vector<Function> all;
  std::vector<const Impl*> seen{impl_.get()};
  std::vector<Function> stack(direct.rbegin(), direct.rend());
  while (!stack.empty()) {
    Function f = stack.back();
    stack.pop_back();
    if (std::find(seen.begin(), seen.end(), f.impl_.get()) != seen.end()) continue;
    seen.push_back(f.impl_.get());
    all.push_back(f);
    f.to_function();
    for (auto it = f.impl_->callees.rbegin(); it != f.impl_->callees.rend(); ++it)
      stack.push_back(*it);
  }
  return all;
}

namespace {

// A model graph cannot refer to function attributes: replace each reference
// by the attribute's default, in the graph and its subgraphs.
void resolve_attribute_references(ir::Graph& graph, const std::vector<ir::Attribute>& defaults) {
  for (ir::Node* node : graph.nodes()) {
    std::vector<ir::Attribute> resolved;
    for (const ir::Attribute& a : node->attributes()) {
      if (!a.is_reference()) continue;
      auto it = std::find_if(defaults.begin(), defaults.end(),
                             [&](const ir::Attribute& d) { return d.name == a.ref_attr_name; });
      ONNXSCRIPT_CHECK(it != defaults.end(), "reference to unknown attribute '{}'",
                       a.ref_attr_name);
      ir::Attribute value = *it;
      value.name = a.name;
      resolved.push_back(std::move(value));
    }
    for (ir::Attribute& a : resolved) node->set_attribute(std::move(a));
    for (ir::Graph* sub : node->subgraphs()) resolve_attribute_references(*sub, defaults);
  }
}

void merge_opsets(ir::OpsetImports& into, const ir::OpsetImports& from, const std::string& where) {
  for (const auto& [domain, version] : from.entries()) {
    if (auto existing = into.find(domain); existing && *existing != version) {
      throw ScriptError(fmt::format(
          "opset conflict: domain '{}' is imported at version {} and at version {} (in {})",
          domain.empty() ? "ai.onnx" : domain, *existing, version, where));
    }
    into.set(domain, version);
  }
}

}  // namespace

void Function::add_functions(ir::Model& model, const std::vector<Function>& functions) {
  for (const Function& callee : functions) {
    auto fn = std::make_unique<ir::Function>(callee.impl_->domain, callee.impl_->name);
    std::vector<Function> ignored;
    std::vector<InitializerOrigin> origins;
    trace_into(callee.impl_->location, callee.impl_->body, callee.impl_->params, *fn, ignored,
               &origins);
    detail::initializers_to_constant_nodes(fn->body(), origins);
    merge_opsets(model.opset_imports, fn->opset_imports, callee.impl_->name);
    model.functions().push_back(std::move(fn));
  }
}

void Function::add_model_local_functions(ir::Model& model, const std::vector<Function>& called) {
  std::vector<Function> all;
  for (const Function& f : called) {
    f.to_function();  // traces it, which lists its callees
    std::vector<Function> group{f};
    for (const Function& g : f.transitive_callees(f.impl_->callees)) group.push_back(g);
    for (const Function& g : group) {
      const bool known = std::any_of(all.begin(), all.end(),
                                     [&](const Function& h) { return h.impl_ == g.impl_; });
      if (!known) all.push_back(g);
    }
  }
  add_functions(model, all);
}

ir::Model Function::to_model() const {
  ir::Function main(impl_->domain, impl_->name);
  std::vector<Function> direct;
  trace_into(impl_->location, impl_->body, impl_->params, main, direct);
  if (!main.attribute_names.empty()) {
    throw ScriptError(
        fmt::format("'{}' has attribute '{}' without a default; a model cannot leave it open",
                    impl_->name, main.attribute_names.front()));
  }
  // Without attributes there is nothing to refer to: spare a walk over a
  // graph that may hold millions of nodes.
  if (!main.attribute_defaults.empty())
    resolve_attribute_references(main.body(), main.attribute_defaults);

  ir::Model model;
  model.producer_name = "onnxscript-cpp";
  model.set_graph(main.take_body());
  model.graph().set_name(impl_->name);
  if (const std::vector<std::optional<ir::Type>> declared = impl_->body->declared_output_types();
      declared.size() == model.graph().outputs().size()) {
    for (size_t i = 0; i < declared.size(); ++i)
      if (declared[i]) model.graph().outputs()[i]->set_type(*declared[i]);
  }
  merge_opsets(model.opset_imports, main.opset_imports, impl_->name);
  // The main body was traced just above; tracing it again as a function
  // (callees()) would double the cost of exporting a large model.
  add_functions(model, transitive_callees(direct));
  // Model-local functions need IR 8; ai.onnx opsets up to 17 are IR 8 too.
  model.ir_version = std::max<int64_t>(8, serde::required_ir_version(model));
  infer::infer_model_output_types(model);
  return model;
}

std::string Function::to_text(int64_t max_tensor_elements) const {
  text::PrintOptions options;
  options.max_tensor_elements = max_tensor_elements;
  return text::print_model(to_model(), options);
}

namespace {

// A model's inputs and outputs need a type, and a tensor one a rank, or the
// ONNX checker refuses the file (dimensions may stay unknown). save()
// refuses to write such a model, with the way out; to_model() and to_text()
// still give it, for reading.
void check_model_signature(const ir::Model& model, const std::string& script,
                           const std::source_location& location) {
  auto check = [&](const ir::Value* v, std::string_view role) {
    const std::optional<ir::Type>& type = v->type();
    std::string missing;
    if (!type || type->kind == ir::TypeKind::kUnspecified ||
        (type->is_tensor() && type->elem_type == DataType::kUndefined))
      missing = "the type";
    else if (type->is_tensor() && !type->shape)
      missing =
          fmt::format("the rank (its element type is {})", ir::data_type_name(type->elem_type));
    if (missing.empty()) return;
    throw ScriptError(fmt::format(
        "script '{}': {} of {} '{}' is not known while building, and an ONNX model needs it; "
        "declare it in the lambda's {} (FLOAT<\"N\">; a std::tuple of typed values for several "
        "results) (script at {})",
        script, missing, role, v->name(), role == "input" ? "parameter" : "return type",
        detail::where(location)));
  };
  for (const ir::Value* in : model.graph().inputs())
    if (!in->const_value()) check(in, "input");
  for (const ir::Value* out : model.graph().outputs()) check(out, "output");
}

}  // namespace

void Function::save(const std::filesystem::path& path) const {
  ir::Model model = to_model();
  check_model_signature(model, impl_->name, impl_->location);
  if (path.extension() == ".txt") {
    write_file_atomically(path, text::print_model(model));
  } else {
    serde::save_model(model, path);
  }
}

namespace {

// A concrete value passed for an input that declares its type must fit it
// as Session::run requires of a model's inputs (eval::type_mismatch: kind,
// element type, rank, static dimensions).
void check_eager_input(const std::string& function, const std::string& name,
                       const std::optional<ir::Type>& declared, const Value& value,
                       const std::source_location& location) {
  if (!declared || !value.is_concrete()) return;
  const std::string problem = eval::type_mismatch(*declared, value.concrete());
  if (!problem.empty())
    throw ScriptError(fmt::format("'{}': input '{}' must be {}: {} (at {})", function, name,
                                  declared->to_string(), problem, detail::where(location)));
}

}  // namespace

Outputs Function::call(std::vector<detail::Argument> arguments,
                       std::source_location location) const {
  const Impl& impl = *impl_;
  if (arguments.size() > impl.params.size()) {
    throw ScriptError(fmt::format("'{}' takes {} arguments, got {} (at {})", impl.name,
                                  impl.params.size(), arguments.size(), detail::where(location)));
  }
  std::vector<Value> inputs;
  std::vector<ir::Attribute> given;     // attributes passed explicitly (for call nodes)
  std::vector<ir::Attribute> complete;  // every attribute, defaults filled in (for eager runs)
  bool traced = false;
  for (size_t i = 0; i < impl.params.size(); ++i) {
    const Param& param = impl.params[i];
    if (impl.kinds[i] == ParamKind::kInput) {
      if (i >= arguments.size()) {
        throw ScriptError(fmt::format("'{}': input '{}' is missing (at {})", impl.name, param.name,
                                      detail::where(location)));
      }
      inputs.push_back(arguments[i].value);
      traced |= arguments[i].value.is_traced();
      continue;
    }
    if (i < arguments.size()) {
      if (!arguments[i].attribute) {
        throw ScriptError(
            fmt::format("'{}': argument {} must be a value for attribute '{}' (at {})", impl.name,
                        i, param.name, detail::where(location)));
      }
      given.push_back(detail::convert_attribute(
          arguments[i].attribute(param.name), impl.attribute_types[i], impl.name,
          fmt::format("attribute '{}'", param.name), location));
      complete.push_back(given.back());
    } else if (!std::holds_alternative<std::monostate>(param.default_value)) {
      complete.push_back(detail::default_attribute(param));
    } else {
      throw ScriptError(fmt::format("'{}': attribute '{}' is missing (at {})", impl.name,
                                    param.name, detail::where(location)));
    }
  }

  if (traced) {
    TraceScope* scope = TraceScope::current();
    if (!scope) {
      throw ScriptError(fmt::format("'{}' is called on a traced value outside any trace (at {})",
                                    impl.name, detail::where(location)));
    }
    const ir::Function& fn = to_function();
    std::vector<ir::Value*> ins;
    for (const Value& v : inputs) {
      if (v.is_traced()) {
        ins.push_back(v.ir_value());
      } else {
        // Concrete values and literals become constants of the caller's graph.
        throw ScriptError(
            fmt::format("'{}': mixing traced and non-traced inputs is not supported yet (at {})",
                        impl.name, detail::where(location)));
      }
    }
    scope->use_opset(impl.domain, impl.domain_version);
    ir::Node* node = scope->graph().append_node(impl.name, std::move(ins),
                                                fn.body().outputs().size(), impl.domain);
    detail::mark_origin(*node, location);
    for (ir::Attribute& a : given) node->set_attribute(std::move(a));
    std::vector<Value> outs;
    for (ir::Value* out : node->outputs()) {
      out->set_name(scope->fresh_name());
      outs.push_back(Value::traced(out));
    }
    if (!tracing_callees.empty()) {
      auto& list = *tracing_callees.back();
      bool known = false;
      for (const Function& f : list) known |= (f.impl_ == impl_);
      if (!known) list.push_back(*this);
    }
    return Outputs(std::move(outs));
  }

  // The Session checks a model's inputs against their declared types; an
  // eager call checks the same, so both modes accept the same arguments.
  for (size_t i = 0, input = 0; i < impl.params.size(); ++i) {
    if (impl.kinds[i] != ParamKind::kInput) continue;
    check_eager_input(impl.name, impl.params[i].name, impl.input_types[i], inputs[input++],
                      location);
  }
  std::vector<eval::RuntimeValue> results = impl.body->run(inputs, complete);
  std::vector<Value> outs;
  outs.reserve(results.size());
  for (auto& r : results) outs.emplace_back(r);
  return Outputs(std::move(outs));
}

}  // namespace onnxscript
