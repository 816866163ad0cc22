#include "onnxscript/script/op_call.h"

#include <cstddef>
#include <memory>
#include <new>
#include <span>

#include <fmt/format.h>

#include "onnxscript/eval/eager.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/ir/element_types.h"
#include "onnxscript/ir/graph.h"
#include "onnxscript/script/trace.h"
#include "script/constant_node.h"
#include "script/literal.h"
#include "script/node_origin.h"
#include "script/subgraph.h"

namespace onnxscript::detail {

std::string where(const std::source_location& location) {
  return fmt::format("{}:{}", location.file_name(), location.line());
}

namespace {

// A run-sized array that lives on the stack when it is small, which it almost
// always is (operators have a handful of inputs and type parameters): eager
// calls are measured in tens of nanoseconds, and each heap allocation costs
// about twenty.
template <typename T, size_t kInline = 6>
class ScratchArray {
 public:
  // Exactly `size` elements are value-initialized: a one-input call does
  // not pay for constructing and destroying kInline values.
  explicit ScratchArray(size_t size) : size_(size) {
    if (size > kInline) {
      heap_.resize(size);
      data_ = heap_.data();
    } else {
      data_ = std::launder(reinterpret_cast<T*>(inline_));
      std::uninitialized_value_construct_n(data_, size);
    }
  }
  ~ScratchArray() {
    if (size_ <= kInline) std::destroy_n(data_, size_);
  }
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  std::span<T> span() { return {data_, size_}; }
  std::span<const T> span() const { return {data_, size_}; }

 private:
  size_t size_;
  T* data_;
  alignas(T) std::byte inline_[kInline * sizeof(T)];
  std::vector<T> heap_;
};

// The formal input that actual input `i` binds to (variadic formals are last
// and absorb the rest).
const FormalInput* formal_of(const OpSignature& sig, size_t i) {
  if (sig.inputs.empty()) return nullptr;
  if (i < sig.inputs.size()) return &sig.inputs[i];
  return sig.inputs.back().variadic ? &sig.inputs.back() : nullptr;
}

std::string tensor_type_string(DataType dtype) {
  return fmt::format("tensor({})", ir::data_type_name(dtype));
}

// True when `type` spells "tensor(<dtype>)". No allocation: every operator
// call checks each input, eager calls included.
bool is_tensor_type(std::string_view type, DataType dtype) {
  constexpr std::string_view prefix = "tensor(";
  const std::string_view name = ir::data_type_name(dtype);
  return type.size() == prefix.size() + name.size() + 1 &&
         type.substr(0, prefix.size()) == prefix &&
         type.substr(prefix.size(), name.size()) == name && type.back() == ')';
}

// "tensor(int64)" -> kInt64; nullopt for anything that is not a tensor type.
std::optional<DataType> parse_tensor_type(std::string_view type) {
  constexpr std::string_view prefix = "tensor(";
  if (type.substr(0, prefix.size()) != prefix || type.back() != ')') return std::nullopt;
  return ir::parse_data_type(type.substr(prefix.size(), type.size() - prefix.size() - 1));
}

// The element type a literal, or a value that adapts its type, takes.
struct LiteralPlan {
  DataType dtype = DataType::kUndefined;  // kUndefined: keep its own
  int cast_like = -1;                     // index of a traced peer of unknown type to CastLike to
};

// Throws a ScriptError that names the operator and the user's line.
[[noreturn]] void fail_op(const OpSignature& sig, const std::source_location& location,
                          const std::string& message) {
  throw ScriptError(fmt::format("{}{}{}: {} (at {})", sig.domain, sig.domain.empty() ? "" : ".",
                                sig.name, message, where(location)));
}

// Throws unless type parameter `param` of `sig` allows `dtype` for `formal`.
void require_allowed(const OpSignature& sig, const FormalInput& formal, const TypeParam& param,
                     DataType dtype, const std::source_location& location) {
  const auto bit = static_cast<unsigned>(dtype);
  if (bit >= 64 || ((param.tensor_mask >> bit) & 1) == 0) {
    fail_op(sig, location,
            fmt::format("input '{}' has type {}, which {} does not allow; allowed: {}", formal.name,
                        tensor_type_string(dtype), param.name, fmt::join(param.allowed, ", ")));
  }
}

// Checks known element types against the type constraints, and that inputs
// sharing a type parameter agree. `bound` (one slot per type parameter,
// empty on entry) receives the element type each parameter is bound to.
// Values that adapt their type (attributes used as values) are left to
// plan_literals, like literals: they take the type their peers bind.
void check_input_types(const OpSignature& sig, std::span<const Value> inputs,
                       std::span<std::optional<DataType>> bound,
                       const std::source_location& location) {
  ScratchArray<size_t> bound_by(sig.type_params.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const FormalInput& formal = *formal_of(sig, i);
    if (inputs[i].adapts_type()) continue;
    const auto dtype = inputs[i].dtype();
    if (!dtype) continue;
    if (formal.type_param < 0) {
      if (!formal.fixed_type.empty() && !is_tensor_type(formal.fixed_type, *dtype)) {
        fail_op(sig, location,
                fmt::format("input '{}' has type {}, but the operator takes {}", formal.name,
                            tensor_type_string(*dtype), formal.fixed_type));
      }
      continue;
    }
    const TypeParam& param = sig.type_params[static_cast<size_t>(formal.type_param)];
    require_allowed(sig, formal, param, *dtype, location);
    auto& b = bound[static_cast<size_t>(formal.type_param)];
    if (b && *b != *dtype && !formal.variadic) {
      fail_op(
          sig, location,
          fmt::format("inputs '{}' and '{}' share type {} but are {} and {}",
                      sig.inputs[std::min(bound_by[static_cast<size_t>(formal.type_param)],
                                          sig.inputs.size() - 1)]
                          .name,
                      formal.name, param.name, tensor_type_string(*b), tensor_type_string(*dtype)));
    }
    if (!b) {
      b = dtype;
      bound_by[static_cast<size_t>(formal.type_param)] = i;
    }
  }
}

// Records the user's line and types the node's outputs, as the options say.
void finish_traced_node(ir::Node& node, int64_t opset_version,
                        const std::source_location& location) {
  mark_origin(node, location);
  if (!trace_options().infer_types) return;
  try {
    infer::infer_node_outputs(node, opset_version);
  } catch (const infer::InferenceError& e) {
    throw ScriptError(fmt::format("{} (at {})", e.what(), where(location)));
  }
}

// Appends the operator's node to the graph being traced, on inputs already
// in the graph, names its outputs and returns them as traced values. The
// caller has declared the operator's opset (use_opset): before tracing any
// graph attribute, so that the opset imports list the outer domain first.
OpOutputs emit_node(TraceScope& scope, const OpSignature& sig, int64_t opset_version,
                    std::span<ir::Value* const> inputs, std::span<ir::Attribute> attributes,
                    size_t num_outputs, const std::source_location& location) {
  ir::Node* node = scope.graph().append_node(sig.name, inputs, num_outputs, sig.domain);
  for (ir::Attribute& a : attributes) node->set_attribute(std::move(a));
  OpOutputs outs;
  outs.reserve(num_outputs);
  for (ir::Value* out : node->outputs()) {
    out->set_name(scope.fresh_name());
    outs.push_back(Value::traced(out));
  }
  finish_traced_node(*node, opset_version, location);
  return outs;
}

class OpCall {
 public:
  OpCall(const OpSignature& sig, int64_t opset_version, std::span<const Value> inputs,
         std::vector<ir::Attribute> attributes, size_t num_outputs, std::source_location location)
      : sig_(sig),
        opset_version_(opset_version),
        inputs_(inputs),
        attributes_(std::move(attributes)),
        num_outputs_(num_outputs),
        location_(location) {}

  OpOutputs run() {
    for (const Value& v : inputs_) traced_ |= v.is_traced();
    // An operator without inputs (Constant, RandomNormal, SequenceEmpty)
    // belongs to the graph being traced: evaluating it now would freeze a
    // random draw into the graph, and Constant should stay a node.
    if (inputs_.empty() && TraceScope::current()) traced_ = true;
    // A body built inside the trace may read its values: the node belongs to
    // the trace even when its own inputs are concrete.
    has_graphs_ = has_graph_attribute(attributes_);
    if (has_graphs_ && !traced_ && TraceScope::current() && has_attached_graph(attributes_))
      traced_ = true;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (!formal_of(sig_, i))
        fail(fmt::format("takes at most {} inputs, got {}", sig_.inputs.size(), inputs_.size()));
    }
    check_input_types(sig_, inputs_, bound_.span(), location_);
    bind_adapting_inputs();
    plan_literals();
    return traced_ ? record() : evaluate();
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { fail_op(sig_, location_, message); }

  // A value that adapts its type binds its type parameter only when no
  // peer does, not even a traced peer of unknown type (which it follows
  // with CastLike): `alpha * 2` on an int attribute stays int64.
  void bind_adapting_inputs() {
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Value& v = inputs_[i];
      if (!v.adapts_type()) continue;
      const int param = formal_of(sig_, i)->type_param;
      const auto dtype = v.dtype();
      if (param < 0 || !dtype || bound_[static_cast<size_t>(param)]) continue;
      bool follows_peer = false;
      for (size_t j = 0; j < inputs_.size(); ++j) {
        follows_peer |= j != i && !inputs_[j].adapts_type() && inputs_[j].is_traced() &&
                        formal_of(sig_, j)->type_param == param;
      }
      if (follows_peer) continue;
      require_allowed(sig_, *formal_of(sig_, i), sig_.type_params[static_cast<size_t>(param)],
                      *dtype, location_);
      bound_[static_cast<size_t>(param)] = *dtype;
    }
  }

  void plan_literals() {
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const bool adapts = inputs_[i].adapts_type();
      if (!inputs_[i].is_literal() && !adapts) continue;
      const FormalInput& formal = *formal_of(sig_, i);
      LiteralPlan& plan = plans_[i];
      const DataType fallback = adapts ? DataType::kUndefined : default_literal_type(inputs_[i]);
      if (formal.type_param < 0) {
        plan.dtype = parse_tensor_type(formal.fixed_type).value_or(fallback);
        continue;
      }
      const auto p = static_cast<size_t>(formal.type_param);
      if (bound_[p]) {
        plan.dtype = *bound_[p];
        continue;
      }
      const TypeParam& param = sig_.type_params[p];
      if (param.allowed.size() == 1) {
        if (auto only = parse_tensor_type(param.allowed[0])) {
          plan.dtype = *only;
          continue;
        }
      }
      plan.dtype = fallback;
      // A traced peer whose type is not known yet: follow it at run time.
      for (size_t j = 0; j < inputs_.size(); ++j) {
        if (j != i && inputs_[j].is_traced() && !inputs_[j].adapts_type() &&
            formal_of(sig_, j)->type_param == formal.type_param) {
          plan.cast_like = static_cast<int>(j);
          // The constant keeps the literal's full precision until CastLike
          // gives it the peer's type: a float32 constant would round 0.01
          // before a double peer sees it, and eager mode does not.
          if (inputs_[i].kind() == Value::Kind::kFloatLiteral) plan.dtype = DataType::kDouble;
          break;
        }
      }
    }
  }

  OpOutputs record() {
    TraceScope* scope = TraceScope::current();
    if (!scope) fail("a traced value is used outside the script that traces it");
    ScratchArray<ir::Value*> ins(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Value& v = inputs_[i];
      if (v.adapts_type()) {
        const LiteralPlan& plan = plans_[i];
        if (v.is_concrete()) {
          ins[i] = append_constant(
              *scope, adapted(v, plan.cast_like >= 0 ? DataType::kUndefined : plan.dtype).tensor(),
              location_);
        } else {
          ins[i] = v.ir_value();
        }
        if (plan.cast_like >= 0) {
          ins[i] =
              append_cast(*scope, "CastLike",
                          {ins[i], inputs_[static_cast<size_t>(plan.cast_like)].ir_value()}, {});
        } else if (v.is_traced() && plan.dtype != DataType::kUndefined && plan.dtype != v.dtype()) {
          ins[i] = append_cast(*scope, "Cast", {ins[i]},
                               {ir::Attribute::make_int("to", static_cast<int64_t>(plan.dtype))});
        }
      } else if (v.is_traced()) {
        ins[i] = v.ir_value();
      } else if (v.is_literal()) {
        ins[i] = append_constant(*scope, literal_tensor(v, plans_[i].dtype), location_);
        if (plans_[i].cast_like >= 0) {
          ins[i] = append_cast(
              *scope, "CastLike",
              {ins[i], inputs_[static_cast<size_t>(plans_[i].cast_like)].ir_value()}, {});
        }
      } else if (v.is_concrete()) {
        if (!v.concrete().is_tensor())
          fail(
              fmt::format("input {} is a concrete {}, which a graph cannot hold", i, v.describe()));
        ins[i] = append_constant(*scope, v.tensor(), location_);
      }
    }
    scope->use_opset(sig_.domain, opset_version_);
    if (has_graphs_) prepare_graph_attributes(attributes_);
    return emit_node(*scope, sig_, opset_version_, ins.span(), attributes_, num_outputs_,
                     location_);
  }

  // Appends a Cast or CastLike node that gives an input its planned type.
  ir::Value* append_cast(TraceScope& scope, const char* op, std::vector<ir::Value*> inputs,
                         std::vector<ir::Attribute> attributes) const {
    scope.use_default_onnx_opset(default_opset_version());
    ir::Node* cast = scope.graph().append_node(op, std::move(inputs), 1);
    for (ir::Attribute& a : attributes) cast->set_attribute(std::move(a));
    cast->output(0)->set_name(scope.fresh_name());
    finish_traced_node(*cast, default_opset_version(), location_);
    return cast->output(0);
  }

  // A concrete value that adapts its type, converted to its planned type
  // with the Cast kernel (or `value` itself when it has that type already).
  eval::RuntimeValue adapted(const Value& value, DataType dtype) const {
    if (dtype == DataType::kUndefined || value.dtype() == dtype) return value.concrete();
    const ir::Attribute to = ir::Attribute::make_int("to", static_cast<int64_t>(dtype));
    return eval::run_op("Cast", std::span<const eval::RuntimeValue>(&value.concrete(), 1),
                        std::span<const ir::Attribute>(&to, 1))
        .at(0);
  }

  OpOutputs evaluate() {
    if (has_graphs_) return evaluate_with_subgraphs();
    // Concrete inputs are pointed to, not copied; literals are materialized
    // beside them.
    size_t num_literals = 0;
    for (const Value& v : inputs_) num_literals += v.is_literal() || v.adapts_type() ? 1 : 0;
    ScratchArray<eval::RuntimeValue, 3> literals(num_literals);
    ScratchArray<const eval::RuntimeValue*> ins(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Value& v = inputs_[i];
      if (v.adapts_type()) {
        eval::RuntimeValue& converted = literals[--num_literals];
        converted = adapted(v, plans_[i].dtype);
        ins[i] = &converted;
      } else if (v.is_concrete()) {
        ins[i] = &v.concrete();
      } else if (v.is_literal()) {
        eval::RuntimeValue& literal = literals[--num_literals];
        literal = literal_tensor(v, plans_[i].dtype);
        ins[i] = &literal;
      } else {
        ins[i] = nullptr;
      }
    }
    ScratchArray<eval::RuntimeValue, 2> outs(num_outputs_);
    try {
      eval::run_op_into(sig_.name, ins.span(), outs.span(), attributes_, opset_version_,
                        sig_.domain);
    } catch (const Error& e) {
      rethrow_with_location(e);
    }
    OpOutputs result;
    result.reserve(outs.size());
    for (size_t i = 0; i < outs.size(); ++i) result.push_back(Value(std::move(outs[i])));
    return result;
  }

  // Control-flow operators run their graph attributes through the eager
  // graph runner.
  OpOutputs evaluate_with_subgraphs() {
    std::vector<eval::RuntimeValue> ins(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Value& v = inputs_[i];
      if (v.adapts_type()) {
        ins[i] = adapted(v, plans_[i].dtype);
      } else if (v.is_concrete()) {
        ins[i] = v.concrete();
      } else if (v.is_literal()) {
        ins[i] = literal_tensor(v, plans_[i].dtype);
      }
    }
    std::vector<eval::RuntimeValue> outs;
    try {
      outs = run_with_subgraphs(sig_.domain, sig_.name, opset_version_, ins, attributes_,
                                num_outputs_);
    } catch (const Error& e) {
      rethrow_with_location(e);
    }
    OpOutputs result;
    result.reserve(outs.size());
    for (auto& o : outs) result.push_back(Value(std::move(o)));
    return result;
  }

  // A ScriptError passes through (it already names its line); any other
  // error gains the user's line.
  [[noreturn]] void rethrow_with_location(const Error& e) const {
    if (dynamic_cast<const ScriptError*>(&e)) throw;
    throw ScriptError(fmt::format("{} (at {})", e.what(), where(location_)));
  }

  const OpSignature& sig_;
  int64_t opset_version_;
  std::span<const Value> inputs_;
  std::vector<ir::Attribute> attributes_;
  size_t num_outputs_;
  std::source_location location_;
  bool traced_ = false;
  bool has_graphs_ = false;
  ScratchArray<std::optional<DataType>> bound_{sig_.type_params.size()};
  ScratchArray<LiteralPlan> plans_{inputs_.size()};
};

}  // namespace

OpOutputs call_op(const OpSignature& signature, int64_t opset_version,
                  std::span<const Value> inputs, std::vector<ir::Attribute> attributes,
                  size_t num_outputs, std::source_location location) {
  // The usual call while tracing: every input already in the graph, no
  // attributes. Nothing to materialize or evaluate, so it skips OpCall's
  // planning and goes straight to the node.
  constexpr size_t kMaxDirectInputs = 8;
  TraceScope* scope = TraceScope::current();
  if (scope != nullptr && attributes.empty() && !inputs.empty() &&
      inputs.size() <= kMaxDirectInputs && inputs.size() <= signature.inputs.size()) {
    ir::Value* ins[kMaxDirectInputs];
    size_t traced = 0;
    bool typed = false;
    while (traced < inputs.size() && inputs[traced].is_traced() && !inputs[traced].adapts_type()) {
      ins[traced] = inputs[traced].ir_value();
      typed |= ins[traced]->type().has_value();
      ++traced;
    }
    if (traced == inputs.size()) {
      // Inputs without types (traced with inference off) have nothing to check.
      if (typed) {
        ScratchArray<std::optional<DataType>> bound(signature.type_params.size());
        check_input_types(signature, inputs, bound.span(), location);
      }
      scope->use_opset(signature.domain, opset_version);
      return emit_node(*scope, signature, opset_version, {ins, traced}, {}, num_outputs, location);
    }
  }
  return OpCall(signature, opset_version, inputs, std::move(attributes), num_outputs, location)
      .run();
}

}  // namespace onnxscript::detail
