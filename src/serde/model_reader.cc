// ModelProto -> ir::Model.
//
// Values are resolved by name through a chain of scopes: a subgraph sees its
// own names first, then those of the graphs around it. Files may list nodes
// out of topological order, so each graph is read in two passes: first every
// node is created with its outputs (so every name is defined), then inputs
// and attributes are connected. The file's node order is kept, so a round
// trip is exact; cycles are detected, not repaired.

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <google/protobuf/util/message_differencer.h>

#include "serde/model_io.h"
#include "serde/residue.h"

namespace onnxscript::serde::detail {
namespace {

using A = wire::AttributeProto;

// The names one graph (or function body) defines, and the scope around it.
struct Scope {
  const Scope* parent = nullptr;
  // Keys view the Values' own names, which stay put while reading.
  std::unordered_map<std::string_view, ir::Value*> values;

  ir::Value* find_local(std::string_view name) const {
    auto it = values.find(name);
    return it == values.end() ? nullptr : it->second;
  }
  ir::Value* find(std::string_view name) const {
    for (const Scope* s = this; s != nullptr; s = s->parent)
      if (ir::Value* v = s->find_local(name)) return v;
    return nullptr;
  }
};

// One value field of AttributeProto: whether it is set, and the type it implies.
struct ValueField {
  bool set;
  A::AttributeType type;
  const char* name;
};

std::vector<ValueField> value_fields(const A& a) {
  return {{a.has_f(), A::FLOAT, "f"},
          {a.has_i(), A::INT, "i"},
          {a.has_s(), A::STRING, "s"},
          {a.has_t(), A::TENSOR, "t"},
          {a.has_g(), A::GRAPH, "g"},
          {a.has_sparse_tensor(), A::SPARSE_TENSOR, "sparse_tensor"},
          {a.has_tp(), A::TYPE_PROTO, "tp"},
          {a.floats_size() > 0, A::FLOATS, "floats"},
          {a.ints_size() > 0, A::INTS, "ints"},
          {a.strings_size() > 0, A::STRINGS, "strings"},
          {a.tensors_size() > 0, A::TENSORS, "tensors"},
          {a.graphs_size() > 0, A::GRAPHS, "graphs"},
          {a.sparse_tensors_size() > 0, A::SPARSE_TENSORS, "sparse_tensors"},
          {a.type_protos_size() > 0, A::TYPE_PROTOS, "type_protos"}};
}

class ModelReader {
 public:
  ModelReader(ErrorContext& ctx, ExternalDataSource* external,
              const std::vector<std::shared_ptr<ir::Storage>>* initializer_raw_data)
      : ctx_(ctx), external_(external), main_raw_data_(initializer_raw_data) {}

  ir::Model read(wire::ModelProto& p) {
    ir::Model m;
    std::string residue = capture_residue(p, ctx_);
    m.ir_version = p.ir_version();
    read_opsets(p.opset_import(), wire::ModelProto::kOpsetImportFieldNumber, &m.opset_imports,
                &residue);
    m.producer_name = p.producer_name();
    m.producer_version = p.producer_version();
    m.domain = p.domain();
    m.model_version = p.model_version();
    m.doc_string = p.doc_string();
    m.metadata_props = decode_metadata(p.metadata_props(), ctx_);
    for (const auto& t : p.training_info()) m.training_info.push_back(t.SerializeAsString());
    for (const auto& c : p.configuration()) m.configuration.push_back(c.SerializeAsString());
    for (auto& fp : *p.mutable_functions()) {
      auto f = std::make_unique<ir::Function>(fp.domain(), fp.name());
      read_function(fp, *f);
      m.functions().push_back(std::move(f));
    }
    if (p.has_graph()) {
      // The lifted raw_data belongs to the main graph's initializers: the
      // next graph read (not one inside a function above).
      pending_raw_data_ = main_raw_data_;
      read_graph(*p.mutable_graph(), m.graph(), nullptr);
    } else {
      append_absent_directive(&residue, p, wire::ModelProto::kGraphFieldNumber);
    }
    m.unknown_fields = std::move(residue);
    return m;
  }

 private:
  void read_opsets(const google::protobuf::RepeatedPtrField<wire::OperatorSetIdProto>& opsets,
                   int field_number, ir::OpsetImports* out, std::string* residue) {
    for (const auto& op : opsets) {
      check_unknown_fields(op, ctx_);
      out->append(op.domain(), op.version());
      if (op.has_domain() && op.domain().empty())
        append_opset_domain_directive(residue, field_number, op.version());
    }
  }

  // Adds `v` to `scope`, rejecting a second definition of a name.
  void define(Scope& scope, ir::Value* v, std::string_view what) {
    if (v->name().empty()) return;
    auto [it, inserted] = scope.values.try_emplace(v->name(), v);
    if (!inserted) {
      ctx_.fail(
          fmt::format("value '{}' is defined twice in one graph (again as {})", v->name(), what));
    }
  }

  void apply_value_info(ir::Value* v, const wire::ValueInfoProto& vi) {
    ErrorContext::Frame frame(ctx_, "value", vi.name());
    if (vi.has_type()) {
      v->set_type(decode_type(vi.type(), ctx_));
    } else {
      v->set_type(std::nullopt);
    }
    v->set_doc_string(vi.doc_string());
    v->set_metadata_props(decode_metadata(vi.metadata_props(), ctx_));
    v->set_unknown_fields(capture_residue(vi, ctx_));
  }

  // Gives `v` the facts of `vi`, unless another ValueInfoProto already did:
  // then returns whether the two agree (the IR holds one per value).
  bool attach_value_info(ir::Value* v, const wire::ValueInfoProto& vi) {
    auto [it, inserted] = info_source_.try_emplace(v, &vi);
    if (inserted) {
      apply_value_info(v, vi);
      return true;
    }
    return google::protobuf::util::MessageDifferencer::Equals(*it->second, vi);
  }

  // value_info entries: a value of this graph gets the facts, unless it
  // already has different ones (a graph output may carry a less precise type
  // than its value_info); then, as for names defined nowhere here, the entry
  // is kept as a detached value so that it is written back as it was read.
  void read_value_infos(const google::protobuf::RepeatedPtrField<wire::ValueInfoProto>& infos,
                        ir::Graph& g, const Scope& scope) {
    for (const auto& vi : infos) {
      ir::Value* v = scope.find_local(vi.name());
      if (v == nullptr || !attach_value_info(v, vi)) {
        v = g.create_detached_value(vi.name());
        info_source_.emplace(v, &vi);
        apply_value_info(v, vi);
      }
      g.value_info().push_back(v);
    }
  }

  void read_graph(wire::GraphProto& p, ir::Graph& g, const Scope* parent) {
    read_graph_contents(p, g, parent);
    check_acyclic(g);  // outside the graph's frame: the message names the graph
  }

  void read_graph_contents(wire::GraphProto& p, ir::Graph& g, const Scope* parent) {
    ErrorContext::Frame frame(ctx_, "graph", p.name());
    std::string residue = capture_residue(p, ctx_);
    Scope scope{parent, {}};
    scope.values.reserve(static_cast<size_t>(p.input_size() + p.initializer_size() +
                                             p.sparse_initializer_size() + p.node_size()));
    g.set_name(p.name());

    const std::vector<std::shared_ptr<ir::Storage>>* lifted =
        std::exchange(pending_raw_data_, nullptr);
    if (lifted && lifted->size() != static_cast<size_t>(p.initializer_size())) {
      ctx_.fail(fmt::format("the loader found {} initializers, protobuf {}", lifted->size(),
                            p.initializer_size()));
    }
    std::unordered_set<ir::Value*> inputs;
    for (const auto& vi : p.input()) {
      ir::Value* v = g.add_input(vi.name());
      info_source_.emplace(v, &vi);
      apply_value_info(v, vi);
      define(scope, v, "a graph input");
      inputs.insert(v);
    }
    for (int i = 0; i < p.initializer_size(); ++i) {
      wire::TensorProto& tp = *p.mutable_initializer(i);
      ir::Tensor t =
          decode_tensor(tp, ctx_, external_, lifted ? (*lifted)[static_cast<size_t>(i)] : nullptr);
      ErrorContext::Frame init_frame(ctx_, "initializer", tp.name());
      if (tp.name().empty()) ctx_.fail("an initializer has no name");
      ir::Value* v = scope.find_local(tp.name());
      if (v != nullptr && inputs.contains(v) && v->const_value() == nullptr) {
        // IR < 4: initializers are also graph inputs.
        g.set_initializer(v, std::move(t));
        continue;
      }
      if (v != nullptr)
        ctx_.fail(fmt::format("value '{}' is defined twice in one graph", tp.name()));
      ir::Type type = ir::Type::tensor(t.dtype(), ir::Shape(t.shape().begin(), t.shape().end()));
      v = g.add_initializer(tp.name(), std::move(t));
      v->set_type(std::move(type));
      define(scope, v, "an initializer");
    }
    for (auto& sp : *p.mutable_sparse_initializer()) {
      ir::SparseTensor s = decode_sparse_tensor(sp, ctx_, external_);
      const std::string& name = sp.values().name();
      ErrorContext::Frame init_frame(ctx_, "sparse initializer", name);
      if (name.empty()) ctx_.fail("a sparse initializer has no name");
      ir::Type type =
          ir::Type::sparse_tensor(s.values.dtype(), ir::Shape(s.dims.begin(), s.dims.end()));
      ir::Value* v = g.add_sparse_initializer(name, std::move(s));
      v->set_type(std::move(type));
      define(scope, v, "a sparse initializer");
    }

    const std::vector<ir::Node*> nodes = create_nodes(p.node(), g, scope);
    // Outputs and value_info before the subgraphs (read by connect_nodes), so
    // that this graph's own facts about its values take precedence over those
    // of a subgraph output that passes an outer value through.
    for (const auto& vi : p.output()) {
      ErrorContext::Frame out_frame(ctx_, "graph output", vi.name());
      ir::Value* v = scope.find(vi.name());
      if (v == nullptr) ctx_.fail("no value of this name is defined in the graph or around it");
      g.outputs().push_back(v);
      // A value listed twice with different facts keeps the first: the IR has
      // one type per value.
      attach_value_info(v, vi);
    }
    read_value_infos(p.value_info(), g, scope);
    connect_nodes(*p.mutable_node(), nodes, scope);

    for (const auto& qa : p.quantization_annotation()) {
      check_unknown_fields(qa, ctx_);
      g.quantization_annotation.push_back(
          {qa.tensor_name(), decode_metadata(qa.quant_parameter_tensor_names(), ctx_)});
    }
    g.doc_string = p.doc_string();
    g.metadata_props = decode_metadata(p.metadata_props(), ctx_);
    g.unknown_fields = std::move(residue);
  }

  // Pass 1: nodes and their outputs, so that every name is defined.
  std::vector<ir::Node*> create_nodes(
      const google::protobuf::RepeatedPtrField<wire::NodeProto>& protos, ir::Graph& g,
      Scope& scope) {
    std::vector<ir::Node*> nodes;
    nodes.reserve(static_cast<size_t>(protos.size()));
    for (int i = 0; i < protos.size(); ++i) {
      const wire::NodeProto& np = protos.Get(i);
      ErrorContext::Frame frame(ctx_, "node", np.name(), np.op_type(), i);
      ir::Node* node = g.append_node(np.op_type(), {}, 0, np.domain());
      node->set_name(np.name());
      node->set_overload(np.overload());
      node->set_doc_string(np.doc_string());
      node->set_metadata_props(decode_metadata(np.metadata_props(), ctx_));
      for (const auto& dc : np.device_configurations())
        node->mutable_device_configurations().push_back(dc.SerializeAsString());
      node->set_unknown_fields(capture_residue(np, ctx_));
      for (const std::string& out : np.output())
        define(scope, node->append_output(out), "a node output");
      nodes.push_back(node);
    }
    return nodes;
  }

  // Pass 2: inputs and attributes (subgraphs see every name of this graph).
  void connect_nodes(google::protobuf::RepeatedPtrField<wire::NodeProto>& protos,
                     const std::vector<ir::Node*>& nodes, const Scope& scope) {
    for (int i = 0; i < protos.size(); ++i) {
      wire::NodeProto& np = *protos.Mutable(i);
      ErrorContext::Frame frame(ctx_, "node", np.name(), np.op_type(), i);
      ir::Node* node = nodes[static_cast<size_t>(i)];
      for (const std::string& in : np.input()) {
        if (in.empty()) {
          node->append_input(nullptr);  // an omitted optional input
          continue;
        }
        ir::Value* v = scope.find(in);
        if (v == nullptr)
          ctx_.fail(fmt::format("input '{}' is not defined in this graph or around it", in));
        node->append_input(v);
      }
      for (auto& ap : *np.mutable_attribute()) {
        ir::Attribute attr = read_attribute(ap, &scope);
        if (node->attribute(attr.name) != nullptr)
          ctx_.fail(fmt::format("attribute '{}' appears twice", attr.name));
        node->set_attribute(std::move(attr));
      }
    }
  }

  ir::Attribute read_attribute(wire::AttributeProto& p, const Scope* scope) {
    ErrorContext::Frame frame(ctx_, "attribute", p.name());
    // The type and value fields are always written by the writer; only their
    // absence needs recording, done below.
    std::string residue = capture_residue(
        p, ctx_,
        {A::kTypeFieldNumber, A::kFFieldNumber, A::kIFieldNumber, A::kSFieldNumber,
         A::kTFieldNumber, A::kGFieldNumber, A::kSparseTensorFieldNumber, A::kTpFieldNumber});

    const std::vector<ValueField> fields = value_fields(p);
    A::AttributeType type = p.type();
    if (type == A::UNDEFINED) {
      // IR 1 files have no type: it is whichever value field is set.
      int count = 0;
      for (const ValueField& f : fields) {
        if (f.set) {
          type = f.type;
          ++count;
        }
      }
      if (count > 1) ctx_.fail("the attribute has no type and sets several value fields");
      if (p.has_type()) {
        append_present_directive(&residue, p, A::kTypeFieldNumber);
      } else {
        append_absent_directive(&residue, p, A::kTypeFieldNumber);
      }
    }
    for (const ValueField& f : fields) {
      if (f.set && f.type != type) {
        ctx_.fail(fmt::format("the attribute is of type {} but sets field '{}'",
                              ir::attribute_type_name(static_cast<ir::AttributeType>(type)),
                              f.name));
      }
    }

    ir::Attribute a;
    a.name = p.name();
    a.type = static_cast<ir::AttributeType>(type);
    a.ref_attr_name = p.ref_attr_name();
    a.doc_string = p.doc_string();
    const bool is_ref = !a.ref_attr_name.empty();
    // A list attribute of a reference holds nothing, like make_reference's.
    auto list = [&](int size, auto make) {
      if (is_ref && size == 0) return;
      a.value = make();
    };
    switch (type) {
      case A::UNDEFINED:
        break;
      case A::FLOAT:
        if (p.has_f()) a.value = p.f();
        break;
      case A::INT:
        if (p.has_i()) a.value = p.i();
        break;
      case A::STRING:
        if (p.has_s()) a.value = p.s();
        break;
      case A::TENSOR:
        if (p.has_t()) a.value = decode_tensor(*p.mutable_t(), ctx_, external_);
        break;
      case A::GRAPH:
        if (p.has_g()) a.value = read_subgraph(*p.mutable_g(), scope);
        break;
      case A::SPARSE_TENSOR:
        if (p.has_sparse_tensor())
          a.value = decode_sparse_tensor(*p.mutable_sparse_tensor(), ctx_, external_);
        break;
      case A::TYPE_PROTO:
        if (p.has_tp()) a.value = decode_type(p.tp(), ctx_);
        break;
      case A::FLOATS:
        list(p.floats_size(),
             [&] { return std::vector<float>(p.floats().begin(), p.floats().end()); });
        break;
      case A::INTS:
        list(p.ints_size(), [&] { return std::vector<int64_t>(p.ints().begin(), p.ints().end()); });
        break;
      case A::STRINGS:
        list(p.strings_size(),
             [&] { return std::vector<std::string>(p.strings().begin(), p.strings().end()); });
        break;
      case A::TENSORS:
        list(p.tensors_size(), [&] {
          std::vector<ir::Tensor> v;
          for (auto& t : *p.mutable_tensors()) v.push_back(decode_tensor(t, ctx_, external_));
          return v;
        });
        break;
      case A::GRAPHS:
        list(p.graphs_size(), [&] {
          std::vector<std::shared_ptr<ir::Graph>> v;
          for (auto& g : *p.mutable_graphs()) v.push_back(read_subgraph(g, scope));
          return v;
        });
        break;
      case A::SPARSE_TENSORS:
        list(p.sparse_tensors_size(), [&] {
          std::vector<ir::SparseTensor> v;
          for (auto& s : *p.mutable_sparse_tensors())
            v.push_back(decode_sparse_tensor(s, ctx_, external_));
          return v;
        });
        break;
      case A::TYPE_PROTOS:
        list(p.type_protos_size(), [&] {
          std::vector<ir::Type> v;
          for (const auto& t : p.type_protos()) v.push_back(decode_type(t, ctx_));
          return v;
        });
        break;
    }
    a.unknown_fields = std::move(residue);
    return a;
  }

  std::shared_ptr<ir::Graph> read_subgraph(wire::GraphProto& p, const Scope* scope) {
    auto g = std::make_shared<ir::Graph>();
    read_graph(p, *g, scope);
    return g;
  }

  void read_function(wire::FunctionProto& p, ir::Function& f) {
    ErrorContext::Frame frame(ctx_, "function", p.name(), p.domain());
    std::string residue = capture_residue(p, ctx_);
    f.overload = p.overload();
    f.attribute_names.assign(p.attribute().begin(), p.attribute().end());
    for (auto& ap : *p.mutable_attribute_proto())
      f.attribute_defaults.push_back(read_attribute(ap, nullptr));
    read_opsets(p.opset_import(), wire::FunctionProto::kOpsetImportFieldNumber, &f.opset_imports,
                &residue);
    f.doc_string = p.doc_string();
    f.metadata_props = decode_metadata(p.metadata_props(), ctx_);

    ir::Graph& body = f.body();
    Scope scope;
    scope.values.reserve(static_cast<size_t>(p.input_size() + p.node_size()));
    for (const std::string& name : p.input())
      define(scope, body.add_input(name), "a function input");
    const std::vector<ir::Node*> nodes = create_nodes(p.node(), body, scope);
    for (const std::string& name : p.output()) {
      ir::Value* v = scope.find(name);
      if (v == nullptr)
        ctx_.fail(fmt::format("function output '{}' is not defined in the function body", name));
      body.outputs().push_back(v);
    }
    read_value_infos(p.value_info(), body, scope);
    connect_nodes(*p.mutable_node(), nodes, scope);
    f.unknown_fields = std::move(residue);
    check_acyclic(body);
  }

  // Rejects a graph whose nodes depend on each other in a cycle (including
  // through values their subgraphs read), naming a node on the cycle.
  void check_acyclic(const ir::Graph& g) {
    try {
      (void)g.topological_order();
    } catch (const ValidationError& e) {
      ctx_.fail(e.what());
    }
  }

  ErrorContext& ctx_;
  ExternalDataSource* external_;
  // Lifted raw_data of the main graph's initializers (may be null), and the
  // same while the main graph is about to be read.
  const std::vector<std::shared_ptr<ir::Storage>>* main_raw_data_;
  const std::vector<std::shared_ptr<ir::Storage>>* pending_raw_data_ = nullptr;
  // Which ValueInfoProto gave each value its type, doc and metadata.
  std::unordered_map<const ir::Value*, const wire::ValueInfoProto*> info_source_;
};

}  // namespace

ir::Model read_model_proto(wire::ModelProto& proto, ErrorContext& ctx, ExternalDataSource* external,
                           const std::vector<std::shared_ptr<ir::Storage>>* initializer_raw_data) {
  return ModelReader(ctx, external, initializer_raw_data).read(proto);
}

}  // namespace onnxscript::serde::detail
