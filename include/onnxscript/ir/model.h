#pragma once
/// \file
/// Model and Function: the top-level containers of the IR, with their opset
/// imports and metadata.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnxscript/ir/graph.h"

namespace onnxscript::ir {

/// Opset imports in their original order: (domain, version) pairs. "" is the
/// default ONNX domain.
class OpsetImports {
 public:
  /// The imported version of `domain`, or nullopt.
  std::optional<int64_t> find(std::string_view domain) const;
  /// Imports `domain` at `version`, replacing an existing entry in place.
  void set(std::string domain, int64_t version);
  /// Entries in order.
  const std::vector<std::pair<std::string, int64_t>>& entries() const { return entries_; }
  /// Appends an entry without checking for duplicates (the reader keeps files as they are).
  void append(std::string domain, int64_t version) { entries_.emplace_back(std::move(domain), version); }
  /// True when nothing is imported.
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<std::pair<std::string, int64_t>> entries_;
};

/// A model-local or library function (ONNX FunctionProto). Its body is a Graph
/// whose inputs and outputs are the function's.
class Function {
 public:
  /// An empty function.
  Function(std::string domain, std::string name)
      : domain(std::move(domain)), name(std::move(name)), body_(std::make_unique<Graph>(this->name)) {}

  /// The body: inputs, outputs, nodes and value_info.
  Graph& body() { return *body_; }
  /// The body: inputs, outputs, nodes and value_info.
  const Graph& body() const { return *body_; }
  /// Takes the body out (for example to make it a model's main graph),
  /// leaving an empty one.
  std::unique_ptr<Graph> take_body() {
    return std::exchange(body_, std::make_unique<Graph>(name));
  }

  std::string domain;    ///< FunctionProto.domain.
  std::string name;      ///< FunctionProto.name.
  std::string overload;  ///< FunctionProto.overload (IR 10).
  /// Attribute names without defaults (FunctionProto.attribute).
  std::vector<std::string> attribute_names;
  /// Attributes with defaults, or with type information (FunctionProto.attribute_proto, IR 9).
  std::vector<Attribute> attribute_defaults;
  OpsetImports opset_imports;    ///< FunctionProto.opset_import.
  std::string doc_string;        ///< FunctionProto.doc_string.
  MetadataProps metadata_props;  ///< FunctionProto.metadata_props (IR 10).
  std::string unknown_fields;    ///< Unknown FunctionProto fields, serialized.

 private:
  std::unique_ptr<Graph> body_;
};

/// An ONNX model: a main graph, the functions it uses, and metadata.
class Model {
 public:
  /// A model with an empty main graph.
  Model() : graph_(std::make_unique<Graph>()) {}
  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;

  /// The main graph.
  Graph& graph() { return *graph_; }
  /// The main graph.
  const Graph& graph() const { return *graph_; }
  /// Replaces the main graph.
  void set_graph(std::unique_ptr<Graph> graph) { graph_ = std::move(graph); }

  /// Model-local functions in order.
  std::vector<std::unique_ptr<Function>>& functions() { return functions_; }
  /// Model-local functions in order.
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  /// The function with this (domain, name, overload), or null.
  Function* find_function(std::string_view domain, std::string_view name,
                          std::string_view overload = "") const;

  int64_t ir_version = 0;        ///< ModelProto.ir_version.
  OpsetImports opset_imports;    ///< ModelProto.opset_import.
  std::string producer_name;     ///< ModelProto.producer_name.
  std::string producer_version;  ///< ModelProto.producer_version.
  std::string domain;            ///< ModelProto.domain.
  int64_t model_version = 0;     ///< ModelProto.model_version.
  std::string doc_string;        ///< ModelProto.doc_string.
  MetadataProps metadata_props;  ///< ModelProto.metadata_props.
  /// ModelProto.training_info entries as serialized TrainingInfoProto bytes:
  /// preserved through load and save, not yet modelled.
  std::vector<std::string> training_info;
  /// ModelProto.configuration entries (IR 11) as serialized bytes: preserved, not modelled.
  std::vector<std::string> configuration;
  std::string unknown_fields;    ///< Unknown ModelProto fields, serialized.

 private:
  std::unique_ptr<Graph> graph_;
  std::vector<std::unique_ptr<Function>> functions_;
};

}  // namespace onnxscript::ir
