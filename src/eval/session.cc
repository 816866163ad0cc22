#include "onnxscript/eval/session.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <cblas.h>
#include <fmt/format.h>

#include "eval/fusion.h"
#include "eval/schema_functions.h"
#include "eval/schema_version_table.h"
#include "eval/util/parallel.h"
#include "eval/util/stacking.h"
#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/ir/clone.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::eval {
namespace detail {

// A reference to a value inside a frame: a slot (>= 0), a constant of the plan
// (encoded as -2 - index), or nothing (kOmitted).
constexpr int kOmitted = -1;
constexpr int constant_ref(size_t index) { return -2 - static_cast<int>(index); }
constexpr bool is_constant_ref(int ref) { return ref <= -2; }
constexpr size_t constant_index(int ref) { return static_cast<size_t>(-2 - ref); }

// How a step hands an input to its kernel.
enum class InputMode : uint8_t {
  kCopy,      // copy the slot (shared inputs, subgraph nodes, constants)
  kMoveBack,  // move out for the call, move back after it (saves refcount traffic)
  kMoveDrop,  // last use: move out and let it go after the call
};

struct Plan;

// A call of a function (model-local or from an ONNX schema) at one call site.
struct FunctionCall {
  // Static bodies are planned once, at planning time.
  std::unique_ptr<Plan> plan;
  // Context-dependent schema bodies are built per input-type signature, on
  // first use, because the types are only known at run time.
  bool context_dependent = false;
  int64_t schema_version = 0;
  std::vector<ir::Attribute> attributes;  // the call's (resolved) attributes
  int depth = 0;
  mutable std::vector<std::pair<std::string, std::unique_ptr<Plan>>> by_signature;
  mutable std::vector<std::unique_ptr<ir::Function>> owned_bodies;
};

struct Step {
  const ir::Node* node = nullptr;
  OpId op{};
  KernelFn fn = nullptr;
  std::vector<int> inputs;
  std::vector<InputMode> modes;
  int out_begin = 0;
  int num_outputs = 0;
  std::vector<ir::Attribute> attributes;
  std::vector<std::pair<const ir::Graph*, std::unique_ptr<Plan>>> subplans;
  std::unique_ptr<FunctionCall> call;
  std::vector<int> free_after;  // slots released once the step is done
  std::string unavailable;      // why a function body could not be used, if so
  // Set at planning for an ONNX operator whose opset selects a version with
  // no kernel and no function body: "ReduceMax-18 (opset 18) has no kernel ...".
  std::string version_missing;
};

struct PlanInput {
  int slot = 0;
  int default_ref = kOmitted;  // an initializer that stands in when the input is not given
  const ir::Value* value = nullptr;
  // Declared optional: a plain tensor or sequence bound here is wrapped, as
  // ONNX Runtime does (e.g. a Loop body whose carried optional comes back
  // from the body as a plain sequence).
  bool wants_optional = false;
};

// A graph compiled for execution.
struct Plan {
  const ir::Graph* graph = nullptr;
  int num_slots = 0;
  size_t max_inputs = 0;
  std::vector<RuntimeValue> constants;
  std::vector<PlanInput> inputs;
  std::vector<std::pair<int, int>> captures;  // (ref in the parent frame, slot here)
  std::vector<int> free_at_start;             // inputs nobody reads
  std::vector<Step> steps;
  std::vector<int> outputs;
  std::vector<bool> output_move;
};

// Attributes of the enclosing function call, by name (null outside functions).
using AttributeEnv = std::unordered_map<std::string, const ir::Attribute*>;

struct PlanContext {
  const ir::Model* model = nullptr;
  SessionOptions options;
  std::set<std::string> missing;
  // Converted static schema bodies, shared by every call site.
  std::map<std::tuple<std::string, std::string, int64_t>, std::unique_ptr<ir::Function>>
      schema_bodies;
  std::map<std::tuple<std::string, std::string, int64_t>, std::vector<ir::Attribute>>
      schema_defaults;
  // Guards the members above, and the per-call caches of context-dependent
  // bodies, when a run plans such a body.
  std::mutex planning;
  // Buffers tensors of past runs gave back (null with reuse_buffers off).
  std::shared_ptr<ir::BufferPool> buffers;
  // Threads an operator may use (options.intra_op_threads resolved).
  int threads = 1;
};

namespace {

std::string op_name(std::string_view domain, std::string_view op_type) {
  if (domain.empty() || domain == "ai.onnx") return std::string(op_type);
  return fmt::format("{}.{}", domain, op_type);
}

std::string node_label(const ir::Node& node) {
  if (node.name().empty()) return fmt::format("{} node", op_name(node.domain(), node.op_type()));
  return fmt::format("{} node '{}'", op_name(node.domain(), node.op_type()), node.name());
}

std::optional<int64_t> imported_version(const ir::OpsetImports& opsets, std::string_view domain) {
  if (auto v = opsets.find(domain)) return v;
  if (domain.empty()) return opsets.find("ai.onnx");
  if (domain == "ai.onnx") return opsets.find("");
  return std::nullopt;
}

// Subgraphs a node runs: graph attributes, after resolving references.
std::vector<const ir::Graph*> graphs_of(std::span<const ir::Attribute> attributes) {
  std::vector<const ir::Graph*> out;
  for (const ir::Attribute& a : attributes) {
    if (const auto* g = std::get_if<std::shared_ptr<ir::Graph>>(&a.value)) {
      if (*g) out.push_back(g->get());
    } else if (const auto* gs = std::get_if<std::vector<std::shared_ptr<ir::Graph>>>(&a.value)) {
      for (const auto& g2 : *gs)
        if (g2) out.push_back(g2.get());
    }
  }
  return out;
}

// Resolves references to the enclosing function's attributes. Outside a
// function (env == null) references cannot be satisfied and are dropped, as a
// node without the attribute.
std::vector<ir::Attribute> resolve_attributes(const ir::Node& node, const AttributeEnv* env) {
  std::vector<ir::Attribute> out;
  out.reserve(node.attributes().size());
  for (const ir::Attribute& a : node.attributes()) {
    if (!a.is_reference()) {
      out.push_back(a);
      continue;
    }
    if (!env) continue;
    auto it = env->find(a.ref_attr_name);
    if (it == env->end()) continue;  // not given and no default: the attribute is absent
    ir::Attribute copy = *it->second;
    copy.name = a.name;
    copy.ref_attr_name.clear();
    out.push_back(std::move(copy));
  }
  return out;
}

// Builds Plans. One Planner per Session; it holds state shared across the
// graphs it plans.
class Planner {
 public:
  explicit Planner(PlanContext& ctx) : ctx_(ctx) {}

  // Plans `graph`. `parent`/`parent_refs` describe the enclosing frame for
  // subgraphs (null for the main graph and function bodies).
  std::unique_ptr<Plan> plan_graph(const ir::Graph& graph, const Plan* parent,
                                   const std::unordered_map<const ir::Value*, int>* parent_refs,
                                   const AttributeEnv* env, const ir::OpsetImports& opsets,
                                   int depth) {
    auto plan = std::make_unique<Plan>();
    Plan& p = *plan;
    p.graph = &graph;
    std::unordered_map<const ir::Value*, int> refs;

    // Outer-scope references become captures (or constants, when the outer
    // value is a constant).
    for (const ir::Value* v : free_vars_.of(graph)) {
      const auto it = parent_refs ? parent_refs->find(v)
                                  : std::unordered_map<const ir::Value*, int>::const_iterator{};
      if (!parent_refs || it == parent_refs->end()) {
        throw ValidationError(
            fmt::format("graph '{}' uses value '{}', which is not defined in its scope",
                        graph.name(), v->name()));
      }
      if (is_constant_ref(it->second)) {
        refs[v] = add_constant(p, parent->constants[constant_index(it->second)]);
      } else {
        refs[v] = p.num_slots;
        p.captures.emplace_back(it->second, p.num_slots++);
      }
    }
    for (const ir::Value* v : graph.inputs()) {
      PlanInput in;
      in.slot = p.num_slots++;
      in.value = v;
      if (const Tensor* t = v->const_value()) in.default_ref = add_constant(p, *t);
      in.wants_optional = v->type() && v->type()->kind == ir::TypeKind::kOptional;
      refs[v] = in.slot;
      p.inputs.push_back(in);
    }
    for (const ir::Value* v : graph.initializers())
      if (!refs.count(v)) refs[v] = add_constant(p, *v->const_value());
    for (const ir::Value* v : graph.sparse_initializers())
      if (!refs.count(v)) refs[v] = add_constant(p, densify(*v->sparse_value()));

    // Fusions: every member but the last is skipped; the last's place gets
    // the fused step. Function bodies (env set) are planned as written.
    std::vector<Fusion> fusions;
    if (ctx_.options.optimize && !env) fusions = find_fusions(graph, opsets);
    std::unordered_map<const ir::Node*, const Fusion*> fused_at;
    std::unordered_set<const ir::Node*> fused_away;
    for (const Fusion& f : fusions) {
      fused_at[f.last] = &f;
      for (const ir::Node* m : f.members)
        if (m != f.last) fused_away.insert(m);
    }

    for (const ir::Node* node : graph.topological_order()) {
      if (fused_away.count(node)) continue;
      if (auto it = fused_at.find(node); it != fused_at.end()) {
        add_fused_step(p, refs, *it->second);
        continue;
      }
      Step step;
      step.node = node;
      for (const ir::Value* v : node->inputs()) {
        if (!v) {
          step.inputs.push_back(kOmitted);
          continue;
        }
        auto it = refs.find(v);
        if (it == refs.end())
          throw ValidationError(fmt::format("{} reads '{}', which is not defined before it",
                                            node_label(*node), v->name()));
        step.inputs.push_back(it->second);
      }
      step.out_begin = p.num_slots;
      step.num_outputs = static_cast<int>(node->outputs().size());
      for (const ir::Value* v : node->outputs()) refs[v] = p.num_slots++;
      step.attributes = resolve_attributes(*node, env);
      for (const ir::Graph* sub : graphs_of(step.attributes))
        step.subplans.emplace_back(sub, plan_graph(*sub, &p, &refs, env, opsets, depth));
      resolve_op(step, *node, env, opsets, depth);
      if (ctx_.options.optimize && precompute(p, refs, step, node->outputs())) continue;
      p.max_inputs = std::max(p.max_inputs, step.inputs.size());
      p.steps.push_back(std::move(step));
    }
    for (const ir::Value* v : graph.outputs()) {
      auto it = refs.find(v);
      if (it == refs.end())
        throw ValidationError(fmt::format("graph '{}' output '{}' is not defined", graph.name(),
                                          v ? v->name() : "?"));
      p.outputs.push_back(it->second);
    }
    plan_lifetimes(p, refs);
    return plan;
  }

 private:
  static int add_constant(Plan& p, RuntimeValue value) {
    p.constants.push_back(std::move(value));
    return constant_ref(p.constants.size() - 1);
  }

  // Adds the one step that runs a fusion's group of nodes.
  void add_fused_step(Plan& p, std::unordered_map<const ir::Value*, int>& refs, const Fusion& f) {
    Step step;
    step.node = f.first;
    step.op = f.op;
    step.fn = f.fn;
    step.attributes = f.attributes;
    for (const FusedInput& in : f.inputs) {
      if (in.constant)
        step.inputs.push_back(add_constant(p, *in.constant));
      else
        step.inputs.push_back(in.value ? refs.at(in.value) : kOmitted);
    }
    step.out_begin = p.num_slots;
    step.num_outputs = static_cast<int>(f.outputs.size());
    for (const ir::Value* v : f.outputs) refs[v] = p.num_slots++;
    if (precompute(p, refs, step, f.outputs)) return;
    p.max_inputs = std::max(p.max_inputs, step.inputs.size());
    p.steps.push_back(std::move(step));
  }

  // A kernel step whose inputs are all constants runs now, once, and its
  // outputs become constants of the plan (as ONNX Runtime folds constant
  // subgraphs when it creates a session): weights computed from
  // initializers are not recomputed on every run. A kernel that fails here
  // is left in the plan, so that the run reports the failure as it would
  // have without this.
  static bool precompute(Plan& p, std::unordered_map<const ir::Value*, int>& refs, const Step& step,
                         std::span<const ir::Value* const> output_values) {
    if (!step.fn || !step.subplans.empty() || !is_deterministic(step.op.domain, step.op.op_type))
      return false;
    for (int ref : step.inputs)
      if (ref != kOmitted && !is_constant_ref(ref)) return false;
    std::vector<RuntimeValue> inputs;
    for (int ref : step.inputs)
      inputs.push_back(ref == kOmitted ? RuntimeValue() : p.constants[constant_index(ref)]);
    std::vector<RuntimeValue> outputs(static_cast<size_t>(step.num_outputs));
    try {
      KernelContext kc(step.op, inputs, outputs, step.attributes);
      kc.set_node(step.node);
      step.fn(kc);
    } catch (const Error&) {
      return false;
    }
    for (size_t o = 0; o < output_values.size() && o < outputs.size(); ++o)
      if (output_values[o]) refs[output_values[o]] = add_constant(p, std::move(outputs[o]));
    return true;
  }

  // Kernel first for ONNX operators; a model-local function of the same name
  // wins, since the model asked for it explicitly; then a schema body.
  void resolve_op(Step& step, const ir::Node& node, const AttributeEnv* env,
                  const ir::OpsetImports& opsets, int depth) {
    const std::string& domain = node.domain();
    std::optional<int64_t> version = imported_version(opsets, domain);
    if (!version && &opsets != &ctx_.model->opset_imports)
      version = imported_version(ctx_.model->opset_imports, domain);
    if (!version) {
      // Functions may live in a domain the model does not import as an opset.
      if (ctx_.model->find_function(domain, node.op_type(), node.overload()))
        version = 1;
      else
        throw ValidationError(fmt::format("{} uses domain '{}', which the model does not import",
                                          node_label(node), domain));
    }
    step.op = OpId{node.domain(), node.op_type(), *version};
    (void)env;

    if (const ir::Function* f =
            ctx_.model->find_function(domain, node.op_type(), node.overload())) {
      step.call = plan_call(*f, {}, step.attributes, depth);
      return;
    }
    step.fn = KernelRegistry::builtin().find(domain, node.op_type(), *version);
    if (step.fn) return;
    const std::string schema_domain = domain == "ai.onnx" ? "" : domain;
    SchemaFunctionInfo info = find_schema_function(schema_domain, node.op_type(), *version);
    if (info.kind == SchemaFunctionKind::kStatic) {
      auto key = std::make_tuple(schema_domain, node.op_type(), info.since_version);
      auto it = ctx_.schema_bodies.find(key);
      if (it == ctx_.schema_bodies.end()) {
        try {
          it = ctx_.schema_bodies
                   .emplace(key, schema_function_body(schema_domain, node.op_type(), *version))
                   .first;
        } catch (const Error& e) {
          ctx_.missing.insert(fmt::format("{}-{}", op_name(domain, node.op_type()), *version));
          step.unavailable = e.what();
          return;
        }
      }
      step.call = plan_call(*it->second, defaults_for(schema_domain, node.op_type(), *version),
                            step.attributes, depth);
      return;
    }
    if (info.kind == SchemaFunctionKind::kContextDependent) {
      auto call = std::make_unique<FunctionCall>();
      call->context_dependent = true;
      call->schema_version = *version;
      call->attributes = step.attributes;
      for (const ir::Attribute& d : defaults_for(schema_domain, node.op_type(), *version)) {
        bool given = std::any_of(call->attributes.begin(), call->attributes.end(),
                                 [&](const ir::Attribute& a) { return a.name == d.name; });
        if (!given) call->attributes.push_back(d);
      }
      call->depth = depth + 1;
      step.call = std::move(call);
      return;
    }
    // An ONNX operator whose opset selects a version that has neither a kernel
    // nor a body: never an older version's kernel in its place.
    if (auto why = version_without_kernel(domain, node.op_type(), *version)) {
      const auto since = schema_version(domain, node.op_type(), *version);
      ctx_.missing.insert(
          since ? fmt::format("{}-{} (opset {})", op_name(domain, node.op_type()), *since, *version)
                : fmt::format("{}-{}", op_name(domain, node.op_type()), *version));
      step.version_missing = std::move(*why);
      return;
    }
    ctx_.missing.insert(fmt::format("{}-{}", op_name(domain, node.op_type()), *version));
  }

  const std::vector<ir::Attribute>& defaults_for(const std::string& domain, const std::string& op,
                                                 int64_t version) {
    auto key = std::make_tuple(domain, op, version);
    auto it = ctx_.schema_defaults.find(key);
    if (it == ctx_.schema_defaults.end())
      it = ctx_.schema_defaults.emplace(key, schema_attribute_defaults(domain, op, version)).first;
    return it->second;
  }

 public:
  // Plans a function body for one call site: the call's attributes, then the
  // function's defaults for the ones it omits, form the environment that
  // references in the body resolve against.
  std::unique_ptr<FunctionCall> plan_call(const ir::Function& f,
                                          std::span<const ir::Attribute> extra_defaults,
                                          std::span<const ir::Attribute> call_attributes,
                                          int depth) {
    if (depth >= ctx_.options.max_function_depth)
      throw ValidationError(fmt::format("function {} nests deeper than {} calls (is it recursive?)",
                                        op_name(f.domain, f.name),
                                        ctx_.options.max_function_depth));
    auto call = std::make_unique<FunctionCall>();
    call->attributes.assign(call_attributes.begin(), call_attributes.end());
    AttributeEnv env;
    for (const ir::Attribute& a : call->attributes) env.emplace(a.name, &a);
    for (const ir::Attribute& d : f.attribute_defaults)
      if (!std::holds_alternative<std::monostate>(d.value)) env.emplace(d.name, &d);
    for (const ir::Attribute& d : extra_defaults) env.emplace(d.name, &d);
    call->depth = depth + 1;
    const ir::OpsetImports& opsets =
        f.opset_imports.empty() ? ctx_.model->opset_imports : f.opset_imports;
    call->plan = plan_graph(f.body(), nullptr, nullptr, &env, opsets, depth + 1);
    return call;
  }

  // Records, for each slot, the last step that reads it, and turns that into
  // input modes and release lists. Graph outputs are never released.
  static void plan_lifetimes(Plan& p, const std::unordered_map<const ir::Value*, int>& refs) {
    std::vector<int> last_use(p.num_slots, -1);
    std::vector<bool> pinned(p.num_slots, false);
    for (int ref : p.outputs)
      if (ref >= 0) pinned[ref] = true;
    for (size_t s = 0; s < p.steps.size(); ++s) {
      Step& step = p.steps[s];
      for (int ref : step.inputs)
        if (ref >= 0) last_use[ref] = static_cast<int>(s);
      for (const auto& [graph, sub] : step.subplans)
        for (const auto& [outer, inner] : sub->captures) {
          (void)inner;
          if (outer >= 0) last_use[outer] = static_cast<int>(s);
        }
    }
    (void)refs;
    for (size_t s = 0; s < p.steps.size(); ++s) {
      Step& step = p.steps[s];
      const bool has_subgraphs = !step.subplans.empty();
      step.modes.assign(step.inputs.size(), InputMode::kCopy);
      std::vector<int> released;
      for (size_t i = 0; i < step.inputs.size(); ++i) {
        const int ref = step.inputs[i];
        if (ref < 0) continue;
        const bool shared = std::count(step.inputs.begin(), step.inputs.end(), ref) > 1;
        const bool last = last_use[ref] == static_cast<int>(s) && !pinned[ref];
        if (shared || has_subgraphs) {
          if (last) released.push_back(ref);
        } else {
          step.modes[i] = last ? InputMode::kMoveDrop : InputMode::kMoveBack;
        }
      }
      for (const auto& [graph, sub] : step.subplans)
        for (const auto& [outer, inner] : sub->captures) {
          (void)inner;
          if (outer >= 0 && last_use[outer] == static_cast<int>(s) && !pinned[outer])
            released.push_back(outer);
        }
      // Outputs nobody reads are dropped as soon as they are made.
      for (int o = step.out_begin; o < step.out_begin + step.num_outputs; ++o)
        if (last_use[o] < 0 && !pinned[o]) released.push_back(o);
      std::sort(released.begin(), released.end());
      released.erase(std::unique(released.begin(), released.end()), released.end());
      step.free_after = std::move(released);
    }
    for (const PlanInput& in : p.inputs)
      if (last_use[in.slot] < 0 && !pinned[in.slot]) p.free_at_start.push_back(in.slot);
    for (const auto& [outer, inner] : p.captures)
      if (last_use[inner] < 0 && !pinned[inner]) p.free_at_start.push_back(inner);
    p.output_move.assign(p.outputs.size(), false);
    for (size_t i = 0; i < p.outputs.size(); ++i) {
      const int ref = p.outputs[i];
      p.output_move[i] = ref >= 0 && std::find(p.outputs.begin() + static_cast<long>(i) + 1,
                                               p.outputs.end(), ref) == p.outputs.end();
    }
  }

 private:
  PlanContext& ctx_;
  ir::FreeValues free_vars_;
};

// ---------------------------------------------------------------- execution

std::vector<RuntimeValue> execute(const Plan& plan, std::span<const RuntimeValue> inputs,
                                  const std::vector<RuntimeValue>* parent_frame,
                                  const PlanContext& ctx);

class StepRunner final : public GraphRunner {
 public:
  StepRunner(const Step& step, const std::vector<RuntimeValue>& frame, const PlanContext& ctx)
      : step_(step), frame_(frame), ctx_(ctx) {}
  std::vector<RuntimeValue> run(const ir::Graph& graph,
                                std::span<const RuntimeValue> inputs) override {
    for (const auto& [g, plan] : step_.subplans)
      if (g == &graph) return execute(*plan, inputs, &frame_, ctx_);
    throw KernelError(fmt::format("{}: the subgraph to run is not an attribute of the node",
                                  node_label(*step_.node)));
  }

 private:
  const Step& step_;
  const std::vector<RuntimeValue>& frame_;
  const PlanContext& ctx_;
};

std::string describe_inputs(std::span<const RuntimeValue> values) {
  std::vector<std::string> parts;
  for (const RuntimeValue& v : values) parts.push_back(v.describe());
  return fmt::format("{}", fmt::join(parts, ", "));
}

ir::Type type_for_schema(const RuntimeValue& v) {
  if (v.is_tensor()) return ir::Type::tensor(v.tensor().dtype(), v.type().shape);
  return v.type();
}

std::string signature_of(std::span<const RuntimeValue> values) {
  std::string s;
  for (const RuntimeValue& v : values) {
    s += v.is_tensor() ? std::string(ir::data_type_name(v.tensor().dtype())) : v.type().to_string();
    s += ';';
  }
  return s;
}

const Plan& context_dependent_plan(const Step& step, std::span<const RuntimeValue> inputs,
                                   const PlanContext& ctx) {
  FunctionCall& call = *step.call;
  const std::string signature = signature_of(inputs);
  PlanContext& mutable_ctx =
      const_cast<PlanContext&>(ctx);  // planning state, guarded by `planning`
  std::lock_guard<std::mutex> lock(mutable_ctx.planning);
  for (const auto& [sig, plan] : call.by_signature)
    if (sig == signature) return *plan;
  std::vector<ir::Type> types;
  for (const RuntimeValue& v : inputs) types.push_back(type_for_schema(v));
  std::string domain(step.op.domain == "ai.onnx" ? "" : step.op.domain);
  auto body =
      schema_function_body_for(domain, step.op.op_type, call.schema_version, call.attributes, types,
                               static_cast<size_t>(step.num_outputs));
  Planner planner(mutable_ctx);
  auto fc = planner.plan_call(*body, {}, call.attributes, call.depth);
  call.owned_bodies.push_back(std::move(body));
  call.by_signature.emplace_back(signature, std::move(fc->plan));
  return *call.by_signature.back().second;
}

void run_step(const Step& step, std::vector<RuntimeValue>& frame,
              std::vector<RuntimeValue>& scratch, const Plan& plan, const PlanContext& ctx) {
  const size_t n = step.inputs.size();
  for (size_t i = 0; i < n; ++i) {
    const int ref = step.inputs[i];
    if (ref == kOmitted) {
      scratch[i] = RuntimeValue();
    } else if (is_constant_ref(ref)) {
      scratch[i] = plan.constants[constant_index(ref)];
    } else if (step.modes[i] == InputMode::kCopy) {
      scratch[i] = frame[ref];
    } else {
      scratch[i] = std::move(frame[ref]);
    }
  }
  std::span<const RuntimeValue> inputs(scratch.data(), n);
  std::span<RuntimeValue> outputs(frame.data() + step.out_begin,
                                  static_cast<size_t>(step.num_outputs));
  if (step.fn) {
    if (step.subplans.empty()) {
      KernelContext kc(step.op, inputs, outputs, step.attributes);
      kc.set_node(step.node);
      step.fn(kc);
    } else {
      StepRunner runner(step, frame, ctx);
      KernelContext kc(step.op, inputs, outputs, step.attributes, &runner);
      kc.set_node(step.node);
      step.fn(kc);
    }
  } else if (step.call) {
    const Plan& body =
        step.call->context_dependent ? context_dependent_plan(step, inputs, ctx) : *step.call->plan;
    std::vector<RuntimeValue> results = execute(body, inputs, nullptr, ctx);
    for (size_t o = 0; o < outputs.size() && o < results.size(); ++o)
      outputs[o] = std::move(results[o]);
  } else if (!step.version_missing.empty()) {
    throw KernelError(fmt::format("{}: {} (inputs: {})", node_label(*step.node),
                                  step.version_missing, describe_inputs(inputs)));
  } else {
    throw KernelError(fmt::format(
        "no kernel for {}-{} (inputs: {}){}{}", op_name(step.op.domain, step.op.op_type),
        step.op.version, describe_inputs(inputs),
        step.node->name().empty() ? "" : fmt::format(" in node '{}'", step.node->name()),
        step.unavailable.empty() ? "" : "; its function body: " + step.unavailable));
  }
  for (size_t i = 0; i < n; ++i) {
    if (step.modes[i] == InputMode::kMoveBack) frame[step.inputs[i]] = std::move(scratch[i]);
    scratch[i] = RuntimeValue();
  }
  for (int s : step.free_after) frame[s] = RuntimeValue();
}

std::vector<RuntimeValue> execute(const Plan& plan, std::span<const RuntimeValue> inputs,
                                  const std::vector<RuntimeValue>* parent_frame,
                                  const PlanContext& ctx) {
  if (inputs.size() > plan.inputs.size())
    throw KernelError(fmt::format("graph '{}' takes {} inputs but was given {}", plan.graph->name(),
                                  plan.inputs.size(), inputs.size()));
  std::vector<RuntimeValue> frame(static_cast<size_t>(plan.num_slots));
  std::vector<RuntimeValue> scratch(plan.max_inputs);
  for (const auto& [outer, inner] : plan.captures) frame[inner] = (*parent_frame)[outer];
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const PlanInput& in = plan.inputs[i];
    if (i < inputs.size() && !inputs[i].is_none()) {
      if (in.wants_optional && !inputs[i].is_optional()) {
        const ir::Type& declared = *in.value->type();
        frame[in.slot] = RuntimeValue::optional(
            declared.element ? *declared.element : inputs[i].type(), inputs[i]);
      } else {
        frame[in.slot] = inputs[i];
      }
    } else if (in.default_ref != kOmitted) {
      frame[in.slot] = plan.constants[constant_index(in.default_ref)];
    }
  }
  for (int s : plan.free_at_start) frame[s] = RuntimeValue();
  for (const Step& step : plan.steps) run_step(step, frame, scratch, plan, ctx);
  std::vector<RuntimeValue> out;
  out.reserve(plan.outputs.size());
  for (size_t i = 0; i < plan.outputs.size(); ++i) {
    const int ref = plan.outputs[i];
    if (is_constant_ref(ref)) {
      out.push_back(plan.constants[constant_index(ref)]);
    } else if (plan.output_move[i]) {
      out.push_back(std::move(frame[ref]));
    } else {
      out.push_back(frame[ref]);
    }
  }
  return out;
}

}  // namespace
}  // namespace detail

// ---------------------------------------------------------------- Session

Session::Session(ir::Model model, SessionOptions options)
    : Session(std::make_shared<const ir::Model>(std::move(model)), options) {}

Session::Session(std::shared_ptr<const ir::Model> model, SessionOptions options)
    : model_(std::move(model)), options_(options) {
  plan();
}

Session Session::load(const std::filesystem::path& path, SessionOptions options) {
  return Session(serde::load_model(path), options);
}

Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

void Session::plan() {
  context_ = std::make_unique<detail::PlanContext>();
  context_->model = model_.get();
  context_->options = options_;
  if (options_.reuse_buffers) context_->buffers = std::make_shared<ir::BufferPool>();
  context_->threads =
      options_.intra_op_threads > 0 ? options_.intra_op_threads : hardware_threads();
  detail::Planner planner(*context_);
  main_ = planner.plan_graph(model_->graph(), nullptr, nullptr, nullptr, model_->opset_imports, 0);
}

std::vector<std::string> Session::input_names() const {
  std::vector<std::string> names;
  for (const ir::Value* v : model_->graph().inputs()) names.push_back(v->name());
  return names;
}

std::vector<std::string> Session::output_names() const {
  std::vector<std::string> names;
  for (const ir::Value* v : model_->graph().outputs()) names.push_back(v->name());
  return names;
}

std::vector<std::string> Session::missing_kernels() const {
  return {context_->missing.begin(), context_->missing.end()};
}

std::vector<std::string> Session::planned_operators() const {
  std::vector<std::string> ops;
  for (const detail::Step& step : main_->steps)
    ops.push_back(detail::op_name(step.op.domain, step.op.op_type));
  return ops;
}

std::vector<RuntimeValue> Session::run(std::span<const RuntimeValue> inputs) const {
  const auto& declared = main_->inputs;
  if (inputs.size() > declared.size())
    throw ValidationError(
        fmt::format("the model takes {} inputs but {} were given", declared.size(), inputs.size()));
  std::vector<bool> given(declared.size(), false);
  for (size_t i = 0; i < inputs.size(); ++i) given[i] = !inputs[i].is_none();
  return run_checked({inputs.begin(), inputs.end()}, std::move(given));
}

std::vector<RuntimeValue> Session::run(
    const std::map<std::string, RuntimeValue, std::less<>>& inputs) const {
  const auto& declared = main_->inputs;
  std::vector<RuntimeValue> ordered(declared.size());
  std::vector<bool> given(declared.size(), false);
  for (const auto& [name, value] : inputs) {
    auto it = std::find_if(declared.begin(), declared.end(),
                           [&](const detail::PlanInput& in) { return in.value->name() == name; });
    if (it == declared.end())
      throw ValidationError(fmt::format("the model has no input named '{}' (its inputs: {})", name,
                                        fmt::join(input_names(), ", ")));
    const size_t i = static_cast<size_t>(it - declared.begin());
    ordered[i] = value;
    given[i] = !value.is_none();
  }
  return run_checked(std::move(ordered), std::move(given));
}

std::vector<RuntimeValue> Session::run_checked(std::vector<RuntimeValue> inputs,
                                               std::vector<bool> given) const {
  const auto& declared = main_->inputs;
  inputs.resize(declared.size());
  for (size_t i = 0; i < declared.size(); ++i) {
    const ir::Value* v = declared[i].value;
    if (!given[i]) {
      const bool optional = declared[i].default_ref != detail::kOmitted ||
                            (v->type() && v->type()->kind == ir::TypeKind::kOptional);
      if (!optional) throw ValidationError(fmt::format("input '{}' was not given", v->name()));
      continue;
    }
    if (options_.check_inputs && v->type()) {
      std::string problem = type_mismatch(*v->type(), inputs[i], options_.check_input_shapes);
      if (!problem.empty()) throw TypeError(fmt::format("input '{}': {}", v->name(), problem));
    }
    if (v->type() && v->type()->kind == ir::TypeKind::kOptional && !inputs[i].is_optional()) {
      const ir::Type elem = v->type()->element ? *v->type()->element : inputs[i].type();
      inputs[i] = RuntimeValue::optional(elem, inputs[i]);
    }
  }
  ir::BufferPoolScope buffers(context_->buffers);
  IntraOpThreads threads(context_->threads);
  // GEMMs are split over the session's threads (gemm_util.h), each block one
  // BLAS call, so BLAS itself runs on one thread for the run: its own threads
  // spin-wait on each other, which measured several times slower on a busy
  // machine (bench/README.md). Its count is process-wide; put it back after.
  struct BlasThreads {
    int before = openblas_get_num_threads();
    BlasThreads() {
      if (before != 1) openblas_set_num_threads(1);
    }
    ~BlasThreads() {
      if (before != 1) openblas_set_num_threads(before);
    }
  } blas;
  return detail::execute(*main_, inputs, nullptr, *context_);
}

}  // namespace onnxscript::eval
