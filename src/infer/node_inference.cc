// Per-node inference through libonnx's per-operator rules, as a node is
// recorded: what lets a traced value know its element type and shape while
// the graph grows.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>
#include <onnx/shape_inference/implementation.h>

#include "infer/inference_memo.h"
#include "infer/rule_context.h"
#include "infer/rules_beyond_libonnx.h"
#include "infer/symbolic_value.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/onnx_interop.h"

namespace onnxscript::infer {

namespace {

// Tensors larger than this are not offered to data propagation: inference
// reads constant inputs only for shape-like operands (Reshape's shape,
// Slice's starts), and converting a large weight on every node would
// dominate build time.
constexpr int64_t kMaxPropagatedElements = 1024;

// False for attributes the inference context cannot carry: graphs (If, Loop
// and Scan are typed from their bodies instead), sparse tensors, and
// references to a function attribute whose value is unknown until the call.
bool convert_attribute(const ir::Attribute& a, onnx::AttributeProto* p) {
  if (a.is_reference()) return false;
  p->set_name(a.name);
  p->set_type(static_cast<onnx::AttributeProto_AttributeType>(a.type));
  switch (a.type) {
    case ir::AttributeType::kFloat:
      p->set_f(a.as_float());
      return true;
    case ir::AttributeType::kInt:
      p->set_i(a.as_int());
      return true;
    case ir::AttributeType::kString:
      p->set_s(a.as_string());
      return true;
    case ir::AttributeType::kTensor:
      *p->mutable_t() = serde::to_onnx_tensor(a.as_tensor());
      return true;
    case ir::AttributeType::kFloats:
      for (float f : a.as_floats()) p->add_floats(f);
      return true;
    case ir::AttributeType::kInts:
      for (int64_t i : a.as_ints()) p->add_ints(i);
      return true;
    case ir::AttributeType::kStrings:
      for (const std::string& s : a.as_strings()) p->add_strings(s);
      return true;
    case ir::AttributeType::kTensors:
      for (const ir::Tensor& t : a.as_tensors()) *p->add_tensors() = serde::to_onnx_tensor(t);
      return true;
    case ir::AttributeType::kTypeProto:
      *p->mutable_tp() = serde::to_onnx_type(std::get<ir::Type>(a.value));
      return true;
    default:
      return false;
  }
}

class NodeContext final : public onnx::InferenceContext {
 public:
  NodeContext(const ir::Node& node, size_t num_outputs) : outputs_(num_outputs) {
    const auto inputs = node.inputs();
    input_types_.resize(inputs.size());
    input_data_.resize(inputs.size());
    known_.resize(inputs.size(), nullptr);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ir::Value* v = inputs[i];
      if (!v) continue;  // an omitted optional input
      if (v->type()) {
        input_types_[i] = serde::to_onnx_type(*v->type());
      } else {
        // An empty TypeProto, not null: some of libonnx's rules dereference
        // an input's type without checking it (DictVectorizer's, for one).
        input_types_[i] = onnx::TypeProto();
        all_inputs_typed_ = false;
      }
      const ir::Tensor* data = known_data(v);
      if (data && data->numel() <= kMaxPropagatedElements) known_[i] = data;
    }
  }

  bool add_attribute(const ir::Attribute& a) {
    auto proto = std::make_unique<onnx::AttributeProto>();
    if (!convert_attribute(a, proto.get())) return false;
    attributes_.push_back(std::move(proto));
    return true;
  }

  bool all_inputs_typed() const { return all_inputs_typed_; }
  // True once the rule has asked for the data of any input: its result may
  // then depend on more than the types (see inference_memo.h).
  bool data_requested() const { return data_requested_; }
  const onnx::TypeProto& output(size_t i) const { return outputs_[i]; }

  const onnx::AttributeProto* getAttribute(const std::string& name) const override {
    for (const auto& a : attributes_) {
      if (a->name() == name) return a.get();
    }
    return nullptr;
  }
  size_t getNumInputs() const override { return input_types_.size(); }
  const onnx::TypeProto* getInputType(size_t index) const override {
    return index < input_types_.size() && input_types_[index] ? &*input_types_[index] : nullptr;
  }
  // Converted on request: most rules never ask, and converting every
  // constant operand up front would dominate the cost of inference.
  const onnx::TensorProto* getInputData(size_t index) const override {
    data_requested_ = true;
    if (index >= known_.size() || !known_[index]) return nullptr;
    if (!input_data_[index]) input_data_[index] = serde::to_onnx_tensor(*known_[index]);
    return &*input_data_[index];
  }
  size_t getNumOutputs() const override { return outputs_.size(); }
  onnx::TypeProto* getOutputType(size_t index) override { return &outputs_.at(index); }
  onnx::GraphInferencer* getGraphAttributeInferencer(const std::string&) override {
    return nullptr;
  }
  const onnx::SparseTensorProto* getInputSparseData(size_t) const override { return nullptr; }
  const onnx::TensorShapeProto* getSymbolicInput(size_t) const override { return nullptr; }

 private:
  std::vector<std::optional<onnx::TypeProto>> input_types_;
  std::vector<const ir::Tensor*> known_;
  mutable std::vector<std::optional<onnx::TensorProto>> input_data_;
  std::vector<std::unique_ptr<onnx::AttributeProto>> attributes_;
  std::vector<onnx::TypeProto> outputs_;
  bool all_inputs_typed_ = true;
  mutable bool data_requested_ = false;
};

std::string describe_inputs(const ir::Node& node) {
  std::vector<std::string> parts;
  for (const ir::Value* v : node.inputs()) {
    parts.push_back(!v ? "(omitted)" : v->type() ? v->type()->to_string() : "(unknown type)");
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// libonnx's registry lookup walks nested maps of strings; building a graph
// asks for the same few schemas over and over.
const onnx::OpSchema* find_schema(std::string_view op_type, int64_t version,
                                  const std::string& domain) {
  thread_local std::unordered_map<std::string, const onnx::OpSchema*> cache;
  std::string key;
  key.reserve(op_type.size() + domain.size() + 8);
  key.append(op_type).append(1, '\0').append(domain).append(1, '\0').append(
      std::to_string(version));
  auto [it, inserted] = cache.try_emplace(std::move(key), nullptr);
  if (inserted)
    it->second =
        onnx::OpSchemaRegistry::Schema(std::string(op_type), static_cast<int>(version), domain);
  return it->second;
}

// What a rule gave: the output types, and whether it read input data (then
// the result is not memoized).
struct RuleOutcome {
  InferredTypes types;
  bool data_requested = false;
};

// Runs libonnx's rule `schema` on `node`. Nullopt when the node cannot be
// offered to it (an attribute the context cannot carry) or it fails while
// some input type is unknown.
std::optional<RuleOutcome> run_libonnx_rule(const ir::Node& node, const onnx::OpSchema& schema) {
  NodeContext ctx(node, node.outputs().size());
  for (const ir::Attribute& a : node.attributes()) {
    if (!ctx.add_attribute(a)) return std::nullopt;
  }
  try {
    if (schema.has_type_and_shape_inference_function()) {
      schema.GetTypeAndShapeInferenceFunction()(ctx);
    } else {
      // Operators that libonnx defines by a function body alone
      // (GreaterOrEqual, LessOrEqual, Celu, ...) are typed through the body,
      // as libonnx's whole-model inference does.
      onnx::shape_inference::InferShapeForFunctionNode(*schema.GetFunction(),
                                                       onnx::OpSchemaRegistry::Instance(), ctx);
    }
  } catch (const std::exception& e) {
    // With an input of unknown type, libonnx's rules fail for lack of
    // information rather than because the node is wrong: leave it untyped.
    if (!ctx.all_inputs_typed()) return std::nullopt;
    throw InferenceError(fmt::format("{}: inputs ({}) are rejected by type and shape inference: {}",
                                     node.op_type(), describe_inputs(node), e.what()));
  }
  RuleOutcome outcome{InferredTypes(node.outputs().size()), ctx.data_requested()};
  for (size_t i = 0; i < node.outputs().size(); ++i) {
    const onnx::TypeProto& type = ctx.output(i);
    if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) continue;
    if (type.has_tensor_type() && type.tensor_type().elem_type() == 0) continue;
    outcome.types[i] = serde::from_onnx_type(type);
  }
  return outcome;
}

// Runs one of the project's own rules on `node`, with the same contract.
std::optional<RuleOutcome> run_own_rule(const ir::Node& node, OwnRule rule) {
  for (const ir::Attribute& a : node.attributes()) {
    if (a.is_reference()) return std::nullopt;  // its value is unknown until the call
  }
  RuleContext ctx(node);
  try {
    rule(ctx);
  } catch (const RuleFailure& e) {
    for (const ir::Value* v : node.inputs()) {
      if (v && (!v->type() || v->type()->kind == ir::TypeKind::kUnspecified)) return std::nullopt;
    }
    throw InferenceError(fmt::format("{}: inputs ({}) are rejected by type and shape inference: {}",
                                     node.op_type(), describe_inputs(node), e.what()));
  }
  return RuleOutcome{std::move(ctx.outputs()), ctx.data_requested()};
}

// libonnx 1.12's Reshape rule gives no shape when the target shape is
// computed (a Concat of sizes read at run time, as exporters write for
// `view`). The target's symbolic value (symbolic_value.h) gives what it can:
// at least the output's rank (from the target's length), and each dimension
// the sizes it was built from tell. Later operators (Transpose's perm,
// chunk's split sizes, a rank-dependent choice in torchlib) need them.
void refine_reshape(const ir::Node& node, RuleOutcome& outcome) {
  if (node.op_type() != "Reshape" || !node.domain().empty() || node.inputs().size() < 2) return;
  // The result now depends on the target's producers, which the memo's key
  // does not hold.
  outcome.data_requested = true;
  std::optional<ir::Type>& out = outcome.types[0];
  if (!out || !out->is_tensor()) return;
  if (out->shape && std::none_of(out->shape->begin(), out->shape->end(),
                                 [](const ir::Dim& d) { return d.is_unknown(); }))
    return;
  const ir::Value* data = node.input(0);
  const ir::Shape* input = data && data->type() && data->type()->is_tensor() && data->type()->shape
                               ? &*data->type()->shape
                               : nullptr;
  const ir::Attribute* allowzero = node.attribute("allowzero");
  const bool zero_is_zero = allowzero && !allowzero->is_reference() &&
                            allowzero->type == ir::AttributeType::kInt && allowzero->as_int() != 0;
  std::optional<ir::Shape> refined = reshape_output_shape(input, node.input(1), zero_is_zero);
  if (!refined) {
    // The target's length alone, from its own static shape: the rank.
    const ir::Value* shape = node.input(1);
    if (out->shape || !shape || !shape->type() || !shape->type()->shape) return;
    const ir::Shape& dims = *shape->type()->shape;
    if (dims.size() != 1 || !dims[0].is_static()) return;
    out->shape = ir::Shape(std::vector<ir::Dim>(static_cast<size_t>(dims[0].value())));
    return;
  }
  if (!out->shape || out->shape->size() != refined->size()) {
    if (!out->shape) out->shape = std::move(refined);
    return;
  }
  // Keep what the rule knew; fill in what it did not.
  std::vector<ir::Dim> merged(out->shape->begin(), out->shape->end());
  for (size_t i = 0; i < merged.size(); ++i)
    if (merged[i].is_unknown()) merged[i] = (*refined)[i];
  out->shape = ir::Shape(merged);
}

}  // namespace

void infer_node_outputs(ir::Node& node, int64_t opset_version) {
  // libonnx infers If, Loop and Scan through a graph inferencer this context
  // cannot offer; their bodies are already typed, so type them from those.
  // Other operators with graph attributes (FlexAttention's score_mod) go to
  // their rule.
  if (!node.subgraphs().empty() && (node.domain().empty() || node.domain() == "ai.onnx")) {
    const std::string& op = node.op_type();
    if (op == "If" || op == "Loop" || op == "Scan" || op == "SequenceMap") {
      type_from_subgraphs(node);
      return;
    }
  }
  // Which rule: below libonnx's newest version of the domain, libonnx's own
  // for that opset; beyond it, the table's entry in force at the opset, or
  // failing one (the operator did not change since), libonnx's newest.
  const int64_t libonnx_max = libonnx_max_version(node.domain());
  const BeyondRule* beyond = nullptr;
  if (opset_version > libonnx_max) {
    beyond = find_rule_beyond_libonnx(node.domain(), node.op_type(), opset_version);
    if (!beyond && libonnx_max == 0) return;  // a domain nobody has rules for
    // A deprecated version: an older version's rule does not describe it.
    if (!beyond && deprecated_at(node.domain(), node.op_type(), opset_version)) return;
    if (beyond && beyond->from_bodies) return;  // typed above, when it has bodies
  }
  thread_local std::string key;  // reused: no allocation per node once warm
  const bool memoizable = inference_memo_key(node, opset_version, key);
  if (memoizable) {
    if (const InferredTypes* known = recall_inference(key)) {
      for (size_t i = 0; i < known->size(); ++i)
        if ((*known)[i]) node.output(i)->set_type(*(*known)[i]);
      return;
    }
  }
  std::optional<RuleOutcome> outcome;
  if (beyond && beyond->own) {
    outcome = run_own_rule(node, beyond->own);
  } else {
    const std::string_view op_type = beyond && !beyond->libonnx_op.empty()
                                         ? beyond->libonnx_op
                                         : std::string_view(node.op_type());
    const int64_t version = beyond && beyond->libonnx_version > 0
                                ? beyond->libonnx_version
                                : std::min(opset_version, libonnx_max);
    const onnx::OpSchema* schema = find_schema(op_type, version, node.domain());
    if (!schema || (!schema->has_type_and_shape_inference_function() && !schema->HasFunction())) {
      if (memoizable) remember_inference(key, InferredTypes(node.outputs().size()));
      return;
    }
    outcome = run_libonnx_rule(node, *schema);
  }
  if (!outcome) return;
  refine_reshape(node, *outcome);
  for (size_t i = 0; i < node.outputs().size(); ++i)
    if (outcome->types[i]) node.output(i)->set_type(outcome->types[i]);
  if (memoizable && !outcome->data_requested) remember_inference(key, std::move(outcome->types));
}

}  // namespace onnxscript::infer
