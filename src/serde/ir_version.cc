// required_ir_version: the lowest IR version whose format can hold a model.
//
// Each feature below came with an IR version (see the Version enum comments in
// onnx.proto):
//   3  opset_import (the floor: older files have no opset imports)
//   4  initializers that are not graph inputs; bfloat16
//   5  quantization_annotation
//   6  sparse tensors (SparseTensorProto, sparse_initializer)
//   7  training_info
//   8  model-local functions, optional types, sparse tensor types
//   9  float8 types, function attribute defaults (attribute_proto)
//   10 int4/uint4, overload, metadata_props on nodes, graphs, functions,
//      values and tensors, value_info in functions
//   11 float4e2m1, multi-device configuration
//   12 float8e8m0
//   13 int2/uint2
// An opset import also needs the IR version its release came with: a model
// using ai.onnx opset 21 must say IR 10 even if it uses no new proto field,
// as onnx.helper.make_model_gen_version computes it.

#include <algorithm>
#include <unordered_set>

#include "onnxscript/serde/serde.h"

namespace onnxscript::serde {
namespace {

// The IR version of the ONNX release that introduced each opset version.
int64_t opset_ir_version(std::string_view domain, int64_t version) {
  if (domain.empty() || domain == "ai.onnx") {
    if (version <= 8) return 3;
    if (version == 9) return 4;
    if (version == 10) return 5;
    if (version == 11) return 6;
    if (version <= 14) return 7;
    if (version <= 18) return 8;
    if (version <= 20) return 9;
    if (version <= 22) return 10;
    if (version == 23) return 11;
    if (version == 24) return 12;
    return 13;
  }
  if (domain == "ai.onnx.ml") {
    if (version <= 1) return 3;
    if (version == 2) return 6;
    if (version == 3) return 8;
    if (version == 4) return 9;
    return 10;
  }
  if (domain == "ai.onnx.training" || domain == "ai.onnx.preview.training") return 7;
  return 3;  // custom domains carry no IR requirement of their own
}

class Requirement {
 public:
  explicit Requirement(int64_t floor = 3) : version_(floor) {}

  int64_t version() const { return version_; }
  void need(int64_t v) { version_ = std::max(version_, v); }

  void tensor(const ir::Tensor& t) { need(ir::min_ir_version(t)); }

  void type(const ir::Type& t) { need(ir::min_ir_version(t)); }

  void value(const ir::Value* v) {
    if (v == nullptr) return;
    if (v->type()) type(*v->type());
    if (!v->metadata_props().empty()) need(10);
  }

  void attribute(const ir::Attribute& a) {
    need(ir::min_ir_version(a, [this](const ir::Graph& g) {
      Requirement inner(version_);
      inner.graph(g, false);
      return inner.version();
    }));
  }

  void graph(const ir::Graph& g, bool is_function_body) {
    if (!g.metadata_props.empty()) need(10);
    if (!g.quantization_annotation.empty()) need(5);
    for (const ir::Value* v : g.inputs()) value(v);
    for (const ir::Value* v : g.outputs()) value(v);
    for (const ir::Value* v : g.value_info()) value(v);
    if (is_function_body && !g.value_info().empty()) need(10);
    if (version_ < 4 && !g.initializers().empty()) {
      const std::unordered_set<const ir::Value*> inputs(g.inputs().begin(), g.inputs().end());
      for (const ir::Value* v : g.initializers())
        if (!inputs.contains(v)) need(4);
    }
    // The graph keeps a bound of what its nodes and initializers need; when
    // that is no more than what is needed already, reading them all cannot
    // raise it.
    if (g.ir_version_bound() <= version_) return;
    for (const ir::Value* v : g.initializers()) tensor(*v->const_value());
    for (const ir::Value* v : g.sparse_initializers()) need(ir::min_ir_version(*v->sparse_value()));
    // Order does not matter here, and a big graph's nodes are read fastest
    // in memory order.
    g.for_each_node_unordered([&](const ir::Node& n) {
      if (!n.overload().empty() || !n.metadata_props().empty()) need(10);
      if (!n.device_configurations().empty()) need(11);
      for (const ir::Value* v : n.outputs()) value(v);
      for (const ir::Attribute& a : n.attributes()) attribute(a);
    });
  }

 private:
  int64_t version_;
};

}  // namespace

int64_t required_ir_version(const ir::Model& model) {
  Requirement r;
  for (const auto& [domain, version] : model.opset_imports.entries())
    r.need(opset_ir_version(domain, version));
  if (!model.training_info.empty()) r.need(7);
  if (!model.configuration.empty()) r.need(11);
  r.graph(model.graph(), false);
  for (const auto& f : model.functions()) {
    r.need(8);
    if (!f->attribute_defaults.empty()) r.need(9);
    if (!f->overload.empty() || !f->metadata_props.empty()) r.need(10);
    for (const auto& [domain, version] : f->opset_imports.entries())
      r.need(opset_ir_version(domain, version));
    for (const ir::Attribute& a : f->attribute_defaults) r.attribute(a);
    r.graph(f->body(), true);
  }
  return r.version();
}

}  // namespace onnxscript::serde
