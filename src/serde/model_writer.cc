// ir::Model -> ModelProto.
//
// The writer is the reader's mirror: each optional string or number is
// written when it differs from its default, then the residue kept by the
// reader (serde/residue.h) restores what the IR cannot say: unknown fields
// and fields that were present with their default value.
//
// Nodes refer to values by name, so the writer checks that each name it
// writes resolves, in the scope chain of the graph being written, to the very
// value the IR points at. That catches unnamed values, duplicate names and
// values that belong to an unrelated graph, which would otherwise produce a
// file that means something else.

#include <unordered_map>
#include <variant>

#include "serde/model_io.h"
#include "serde/residue.h"

namespace onnxscript::serde::detail {
namespace {

struct Scope {
  const Scope* parent = nullptr;
  std::unordered_map<std::string_view, const ir::Value*> values;

  const ir::Value* find(std::string_view name) const {
    for (const Scope* s = this; s != nullptr; s = s->parent) {
      auto it = s->values.find(name);
      if (it != s->values.end()) return it->second;
    }
    return nullptr;
  }
};

// The attribute type that each payload alternative stands for.
ir::AttributeType payload_type(const ir::Attribute::Payload& value) {
  using T = ir::AttributeType;
  return std::visit(
      [](const auto& v) -> T {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) return T::kUndefined;
        if constexpr (std::is_same_v<V, float>) return T::kFloat;
        if constexpr (std::is_same_v<V, int64_t>) return T::kInt;
        if constexpr (std::is_same_v<V, std::string>) return T::kString;
        if constexpr (std::is_same_v<V, ir::Tensor>) return T::kTensor;
        if constexpr (std::is_same_v<V, std::shared_ptr<ir::Graph>>) return T::kGraph;
        if constexpr (std::is_same_v<V, ir::SparseTensor>) return T::kSparseTensor;
        if constexpr (std::is_same_v<V, ir::Type>) return T::kTypeProto;
        if constexpr (std::is_same_v<V, std::vector<float>>) return T::kFloats;
        if constexpr (std::is_same_v<V, std::vector<int64_t>>) return T::kInts;
        if constexpr (std::is_same_v<V, std::vector<std::string>>) return T::kStrings;
        if constexpr (std::is_same_v<V, std::vector<ir::Tensor>>) return T::kTensors;
        if constexpr (std::is_same_v<V, std::vector<std::shared_ptr<ir::Graph>>>) return T::kGraphs;
        if constexpr (std::is_same_v<V, std::vector<ir::SparseTensor>>) return T::kSparseTensors;
        if constexpr (std::is_same_v<V, std::vector<ir::Type>>) return T::kTypeProtos;
      },
      value);
}

class ModelWriter {
 public:
  ModelWriter(ErrorContext& ctx, TensorDataSink* sink) : ctx_(ctx), sink_(sink) {}

  void write(const ir::Model& m, wire::ModelProto* p) {
    if (m.ir_version != 0) p->set_ir_version(m.ir_version);
    write_opsets(m.opset_imports, p->mutable_opset_import());
    if (!m.producer_name.empty()) p->set_producer_name(m.producer_name);
    if (!m.producer_version.empty()) p->set_producer_version(m.producer_version);
    if (!m.domain.empty()) p->set_domain(m.domain);
    if (m.model_version != 0) p->set_model_version(m.model_version);
    if (!m.doc_string.empty()) p->set_doc_string(m.doc_string);
    write_graph(m.graph(), p->mutable_graph(), nullptr);
    encode_metadata(m.metadata_props, p->mutable_metadata_props());
    for (const std::string& bytes : m.training_info)
      parse_into(bytes, p->add_training_info(), "training_info");
    for (const auto& f : m.functions()) write_function(*f, p->add_functions());
    for (const std::string& bytes : m.configuration)
      parse_into(bytes, p->add_configuration(), "configuration");
    apply_residue(m.unknown_fields, p, ctx_);
  }

 private:
  // Fields kept as bytes (training_info, device configurations) go back as
  // they came; bytes that do not parse were not produced by the reader.
  void parse_into(const std::string& bytes, google::protobuf::Message* msg, const char* what) {
    if (!msg->ParseFromString(bytes))
      ctx_.fail(fmt::format("an entry of {} does not hold a valid {}", what,
                            msg->GetDescriptor()->name()));
  }

  static void write_opsets(const ir::OpsetImports& opsets,
                           google::protobuf::RepeatedPtrField<wire::OperatorSetIdProto>* out) {
    for (const auto& [domain, version] : opsets.entries()) {
      auto* op = out->Add();
      if (!domain.empty()) op->set_domain(domain);
      op->set_version(version);
    }
  }

  void define(Scope& scope, const ir::Value* v) {
    if (v->name().empty()) return;
    auto [it, inserted] = scope.values.try_emplace(v->name(), v);
    if (!inserted && it->second != v)
      ctx_.fail(fmt::format("two different values are named '{}'", v->name()));
  }

  // The name under which `v` can be referred to here; fails when that name
  // would resolve to another value (or to none).
  const std::string& reference(const ir::Value* v, const Scope& scope, std::string_view what) {
    if (v->name().empty()) ctx_.fail(fmt::format("{} is a value without a name", what));
    if (scope.find(v->name()) != v) {
      ctx_.fail(fmt::format(
          "{} '{}' does not resolve to the value used: no value of that name is defined in this "
          "graph or around it, or another one hides it",
          what, v->name()));
    }
    return v->name();
  }

  void write_value_info(const ir::Value* v, wire::ValueInfoProto* p) {
    p->set_name(v->name());
    if (v->type()) encode_type(*v->type(), p->mutable_type());
    if (!v->doc_string().empty()) p->set_doc_string(v->doc_string());
    encode_metadata(v->metadata_props(), p->mutable_metadata_props());
    apply_residue(v->unknown_fields(), p, ctx_);
  }

  void write_graph(const ir::Graph& g, wire::GraphProto* p, const Scope* parent) {
    ErrorContext::Frame frame(ctx_, "graph", g.name());
    Scope scope{parent, {}};
    scope.values.reserve(g.inputs().size() + g.initializers().size() +
                         g.sparse_initializers().size() + g.num_nodes());
    for (const ir::Value* v : g.inputs()) define(scope, v);
    for (const ir::Value* v : g.initializers()) define(scope, v);
    for (const ir::Value* v : g.sparse_initializers()) define(scope, v);
    for (const ir::Node* n : g.nodes())
      for (const ir::Value* v : n->outputs()) define(scope, v);

    if (!g.name().empty()) p->set_name(g.name());
    for (const ir::Value* v : g.inputs()) write_value_info(v, p->add_input());
    for (const ir::Value* v : g.initializers()) {
      ErrorContext::Frame init_frame(ctx_, "initializer", v->name());
      if (v->name().empty()) ctx_.fail("an initializer has no name");
      encode_tensor(*v->const_value(), p->add_initializer(), ctx_, sink_, &v->name());
    }
    for (const ir::Value* v : g.sparse_initializers()) {
      ErrorContext::Frame init_frame(ctx_, "sparse initializer", v->name());
      if (v->name().empty()) ctx_.fail("a sparse initializer has no name");
      encode_sparse_tensor(*v->sparse_value(), p->add_sparse_initializer(), ctx_, sink_,
                           &v->name());
    }
    write_nodes(g, p->mutable_node(), scope);
    for (const ir::Value* v : g.outputs()) {
      reference(v, scope, "graph output");
      write_value_info(v, p->add_output());
    }
    for (const ir::Value* v : g.value_info()) write_value_info(v, p->add_value_info());
    if (!g.doc_string.empty()) p->set_doc_string(g.doc_string);
    for (const auto& qa : g.quantization_annotation) {
      auto* a = p->add_quantization_annotation();
      a->set_tensor_name(qa.tensor_name);
      encode_metadata(qa.quant_parameter_tensor_names, a->mutable_quant_parameter_tensor_names());
    }
    encode_metadata(g.metadata_props, p->mutable_metadata_props());
    apply_residue(g.unknown_fields, p, ctx_);
  }

  void write_nodes(const ir::Graph& g, google::protobuf::RepeatedPtrField<wire::NodeProto>* out,
                   const Scope& scope) {
    int64_t index = 0;
    for (const ir::Node* n : g.nodes()) {
      ErrorContext::Frame frame(ctx_, "node", n->name(), n->op_type(), index++);
      wire::NodeProto* p = out->Add();
      for (const ir::Value* in : n->inputs()) {
        if (in == nullptr) {
          p->add_input();
        } else {
          p->add_input(reference(in, scope, "input"));
        }
      }
      for (const ir::Value* v : n->outputs()) p->add_output(v->name());
      if (!n->name().empty()) p->set_name(n->name());
      p->set_op_type(n->op_type());
      if (!n->domain().empty()) p->set_domain(n->domain());
      if (!n->overload().empty()) p->set_overload(n->overload());
      for (const ir::Attribute& a : n->attributes()) write_attribute(a, p->add_attribute(), &scope);
      if (!n->doc_string().empty()) p->set_doc_string(n->doc_string());
      encode_metadata(n->metadata_props(), p->mutable_metadata_props());
      for (const std::string& bytes : n->device_configurations())
        parse_into(bytes, p->add_device_configurations(), "device_configurations");
      apply_residue(n->unknown_fields(), p, ctx_);
    }
  }

  void write_attribute(const ir::Attribute& a, wire::AttributeProto* p, const Scope* scope) {
    ErrorContext::Frame frame(ctx_, "attribute", a.name);
    p->set_name(a.name);
    if (!a.ref_attr_name.empty()) p->set_ref_attr_name(a.ref_attr_name);
    if (!a.doc_string.empty()) p->set_doc_string(a.doc_string);
    if (a.type != ir::AttributeType::kUndefined) p->set_type(static_cast<A::AttributeType>(a.type));
    const ir::AttributeType held = payload_type(a.value);
    if (held != ir::AttributeType::kUndefined && a.type != ir::AttributeType::kUndefined &&
        held != a.type) {
      ctx_.fail(fmt::format("the attribute is of type {} but holds a value of type {}",
                            ir::attribute_type_name(a.type), ir::attribute_type_name(held)));
    }
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, float>) {
            p->set_f(v);
          } else if constexpr (std::is_same_v<V, int64_t>) {
            p->set_i(v);
          } else if constexpr (std::is_same_v<V, std::string>) {
            p->set_s(v);
          } else if constexpr (std::is_same_v<V, ir::Tensor>) {
            encode_tensor(v, p->mutable_t(), ctx_, sink_);
          } else if constexpr (std::is_same_v<V, std::shared_ptr<ir::Graph>>) {
            if (!v) ctx_.fail("the graph attribute holds a null graph");
            write_graph(*v, p->mutable_g(), scope);
          } else if constexpr (std::is_same_v<V, ir::SparseTensor>) {
            encode_sparse_tensor(v, p->mutable_sparse_tensor(), ctx_, sink_);
          } else if constexpr (std::is_same_v<V, ir::Type>) {
            encode_type(v, p->mutable_tp());
          } else if constexpr (std::is_same_v<V, std::vector<float>>) {
            p->mutable_floats()->Add(v.begin(), v.end());
          } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
            p->mutable_ints()->Add(v.begin(), v.end());
          } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
            for (const std::string& s : v) p->add_strings(s);
          } else if constexpr (std::is_same_v<V, std::vector<ir::Tensor>>) {
            for (const ir::Tensor& t : v) encode_tensor(t, p->add_tensors(), ctx_, sink_);
          } else if constexpr (std::is_same_v<V, std::vector<std::shared_ptr<ir::Graph>>>) {
            for (const auto& g : v) {
              if (!g) ctx_.fail("the graphs attribute holds a null graph");
              write_graph(*g, p->add_graphs(), scope);
            }
          } else if constexpr (std::is_same_v<V, std::vector<ir::SparseTensor>>) {
            for (const ir::SparseTensor& s : v)
              encode_sparse_tensor(s, p->add_sparse_tensors(), ctx_, sink_);
          } else if constexpr (std::is_same_v<V, std::vector<ir::Type>>) {
            for (const ir::Type& t : v) encode_type(t, p->add_type_protos());
          }
        },
        a.value);
    apply_residue(a.unknown_fields, p, ctx_);
  }

  void write_function(const ir::Function& f, wire::FunctionProto* p) {
    ErrorContext::Frame frame(ctx_, "function", f.name, f.domain);
    const ir::Graph& body = f.body();
    if (!body.initializers().empty() || !body.sparse_initializers().empty())
      ctx_.fail("a function body cannot hold initializers");
    Scope scope;
    scope.values.reserve(body.inputs().size() + body.num_nodes());
    for (const ir::Value* v : body.inputs()) define(scope, v);
    for (const ir::Node* n : body.nodes())
      for (const ir::Value* v : n->outputs()) define(scope, v);

    p->set_name(f.name);
    if (!f.domain.empty()) p->set_domain(f.domain);
    if (!f.overload.empty()) p->set_overload(f.overload);
    for (const ir::Value* v : body.inputs()) {
      if (v->name().empty()) ctx_.fail("a function input has no name");
      p->add_input(v->name());
    }
    for (const ir::Value* v : body.outputs()) p->add_output(reference(v, scope, "function output"));
    for (const std::string& name : f.attribute_names) p->add_attribute(name);
    for (const ir::Attribute& a : f.attribute_defaults)
      write_attribute(a, p->add_attribute_proto(), nullptr);
    write_nodes(body, p->mutable_node(), scope);
    if (!f.doc_string.empty()) p->set_doc_string(f.doc_string);
    write_opsets(f.opset_imports, p->mutable_opset_import());
    for (const ir::Value* v : body.value_info()) write_value_info(v, p->add_value_info());
    encode_metadata(f.metadata_props, p->mutable_metadata_props());
    apply_residue(f.unknown_fields, p, ctx_);
  }

  using A = wire::AttributeProto;
  ErrorContext& ctx_;
  TensorDataSink* sink_;
};

}  // namespace

void write_model_proto(const ir::Model& model, wire::ModelProto* proto, ErrorContext& ctx,
                       TensorDataSink* sink) {
  ModelWriter(ctx, sink).write(model, proto);
}

}  // namespace onnxscript::serde::detail
