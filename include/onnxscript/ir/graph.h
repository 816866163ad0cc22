#pragma once
/// \file
/// The graph IR: Value, Node and Graph. They are defined together because each
/// refers to the others: a Value knows its producer and its uses, a Node its
/// inputs and outputs, a Graph owns both.
///
/// Ownership: a Graph owns every Node and Value created in it, and keeps them
/// alive until the Graph itself is destroyed, even after erase(). That is what
/// makes it safe to mutate a graph while iterating over it: an iterator that
/// stands on an erased node still knows where to go next.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/attribute.h"
#include "onnxscript/ir/object_pool.h"
#include "onnxscript/ir/small_vector.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/ir/type.h"

namespace onnxscript::ir {

class Graph;
class Node;

/// The ValueInfoProto fields that few values carry.
struct ValueProtoFields {
  std::string doc_string;        ///< ValueInfoProto.doc_string.
  MetadataProps metadata_props;  ///< ValueInfoProto.metadata_props (IR 10).
  std::string unknown_fields;    ///< Unknown ValueInfoProto fields, serialized.
};

/// The NodeProto fields that few nodes carry.
struct NodeProtoFields {
  std::string overload;          ///< NodeProto.overload (IR 10).
  std::string doc_string;        ///< NodeProto.doc_string.
  MetadataProps metadata_props;  ///< NodeProto.metadata_props (IR 10).
  /// NodeProto.device_configurations (IR 11), each kept as serialized bytes:
  /// preserved through load and save, not yet modelled.
  std::vector<std::string> device_configurations;
  std::string unknown_fields;  ///< Unknown NodeProto fields, serialized.
};

/// The proto fields that few nodes and values carry, kept in a box that the
/// first write allocates, with the accessors the two share. A big graph holds
/// millions of nodes and values, and every pass over it (building,
/// serializing, freeing) moves their bytes through the cache: keeping these
/// fields out of line takes a third off a node (392 to 256 bytes on x86-64).
/// `Fields` is ValueProtoFields or NodeProtoFields, and `Owner` the Value or
/// Node that holds them; the owner hears when the box is first allocated
/// (`rare_fields_allocated()`), which Graph::ir_version_bound counts on.
template <typename Fields, typename Owner>
class RareProtoFields {
 public:
  RareProtoFields(const RareProtoFields&) = delete;
  RareProtoFields& operator=(const RareProtoFields&) = delete;

  /// The doc_string field.
  const std::string& doc_string() const { return rare().doc_string; }
  /// Sets the doc string.
  void set_doc_string(std::string doc) { set(&Fields::doc_string, std::move(doc)); }
  /// The metadata_props field (IR 10).
  const MetadataProps& metadata_props() const { return rare().metadata_props; }
  /// The metadata, for writing.
  MetadataProps& mutable_metadata_props() { return mutable_rare().metadata_props; }
  /// Replaces the metadata.
  void set_metadata_props(MetadataProps props) { set(&Fields::metadata_props, std::move(props)); }
  /// Unknown fields of the proto message, serialized.
  const std::string& unknown_fields() const { return rare().unknown_fields; }
  /// Sets the unknown fields.
  void set_unknown_fields(std::string bytes) { set(&Fields::unknown_fields, std::move(bytes)); }

 protected:
  RareProtoFields() = default;
  ~RareProtoFields() = default;

  /// The fields; all empty when none was ever written.
  const Fields& rare() const { return box_ ? *box_ : none(); }
  /// The fields, for writing.
  Fields& mutable_rare() {
    if (!box_) {
      box_ = std::make_unique<Fields>();
      static_cast<Owner*>(this)->rare_fields_allocated();
    }
    return *box_;
  }
  /// Sets one field. Setting an empty value allocates nothing, so a reader
  /// may copy every field across unconditionally.
  template <typename T>
  void set(T Fields::*field, T value) {
    if (box_ || !value.empty()) mutable_rare().*field = std::move(value);
  }

 private:
  static const Fields& none() {
    static const Fields empty;
    return empty;
  }
  std::unique_ptr<Fields> box_;
};

/// One use of a value: input `index` of `node`.
struct Use {
  Node* node;  ///< The consuming node.
  int index;   ///< Which of its inputs.
  bool operator==(const Use&) const = default;
};

/// A value in a graph: a graph input, an initializer, or a node output.
/// Values are owned by their Graph; refer to them by pointer.
class Value : public RareProtoFields<ValueProtoFields, Value> {
 public:
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  /// The name; empty for an omitted optional node output.
  const std::string& name() const { return name_; }
  /// Renames the value. Names must stay unique within the graph and its subgraphs;
  /// the serializer checks that.
  void set_name(std::string name) { name_ = std::move(name); }

  /// The type, when known.
  const std::optional<Type>& type() const { return type_.get() ? *type_.get() : kNoType; }
  /// Sets or clears the type.
  void set_type(std::optional<Type> type);
  /// Sets the type (copied straight into place: no optional in between).
  void set_type(const Type& type);

  /// The node that produces this value; null for graph inputs and initializers.
  Node* producer() const { return producer_; }
  /// Which output of producer() this is; -1 when there is no producer.
  int output_index() const { return output_index_; }
  /// The graph that owns this value.
  Graph* graph() const { return graph_; }

  /// Every node input that reads this value, in no particular order. Includes
  /// nodes inside subgraphs that capture it from an outer scope.
  std::span<const Use> uses() const { return uses_; }

  /// True when this value is one of its graph's inputs.
  bool is_graph_input() const;
  /// True when this value is one of its graph's outputs.
  bool is_graph_output() const;

  /// The initializer value, if this value is a (dense) initializer.
  const Tensor* const_value() const { return const_value_.get(); }
  /// The sparse initializer value, if this value is a sparse initializer.
  const SparseTensor* sparse_value() const { return sparse_value_.get(); }

  /// Makes every use of this value a use of `other` instead (including graph outputs).
  void replace_all_uses_with(Value* other);

 private:
  friend class Graph;
  friend class Node;
  friend class RareProtoFields<ValueProtoFields, Value>;
  explicit Value(Graph* graph, std::string name) : name_(std::move(name)), graph_(graph) {}
  // Removes `use`, which sits at uses_[slot]: constant time.
  void remove_use(Use use, uint32_t slot);
  // Appends a use of this value by input `index` of `node`.
  void add_use(Node* node, size_t index);
  void rare_fields_allocated();
  template <typename T>
  void store_type(T&& type);

  static inline const std::optional<Type> kNoType;

  std::string name_;
  // In the graph's arena, and only once set: a value traced without type
  // inference carries a pointer, not an empty 64-byte optional.
  ArenaBox<std::optional<Type>> type_;
  Graph* graph_;
  Node* producer_ = nullptr;
  int output_index_ = -1;
  // Where this value sits in its graph's initializer list (-1: nowhere), so
  // that removing an initializer does not search the list.
  int32_t initializer_slot_ = -1;
  // Unordered: a removal moves the last use into the freed place (and tells
  // that use's node, see Node::use_slots_).
  SmallVector<Use, 2> uses_;
  // Boxed: few values are initializers, and every value would otherwise
  // carry the room for a tensor and a sparse tensor.
  ArenaBox<Tensor> const_value_;         // in the graph's arena
  ArenaBox<SparseTensor> sparse_value_;  // in the graph's arena
};

/// An operator application. Created by Graph, which owns it.
class Node : public RareProtoFields<NodeProtoFields, Node> {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  ~Node();

  /// The operator name, e.g. "Add".
  const std::string& op_type() const { return *op_type_; }
  /// The operator domain; "" (or "ai.onnx") for the default ONNX domain.
  const std::string& domain() const { return *domain_; }
  /// The function overload (IR 10); usually empty.
  const std::string& overload() const { return rare().overload; }
  /// Sets the function overload.
  void set_overload(std::string overload) { set(&NodeProtoFields::overload, std::move(overload)); }

  /// The node's name; may be empty.
  const std::string& name() const { return name_.get() ? *name_.get() : kNoName; }
  /// Renames the node.
  void set_name(std::string name);

  /// Inputs in order; an omitted optional input is nullptr.
  std::span<Value* const> inputs() const { return {inputs_.data(), inputs_.size()}; }
  /// Input `i`, or nullptr when omitted.
  Value* input(size_t i) const { return inputs_.at(i); }
  /// Replaces input `i` (nullptr omits it), keeping use lists right.
  void set_input(size_t i, Value* value);
  /// Appends an input (nullptr for an omitted one).
  void append_input(Value* value);
  /// Removes the last input.
  void pop_input();

  /// Outputs in order. Every slot has a Value; an omitted output has an empty name.
  std::span<Value* const> outputs() const { return {outputs_.data(), outputs_.size()}; }
  /// Output `i`.
  Value* output(size_t i) const { return outputs_.at(i); }
  /// Adds an output value with the given name.
  Value* append_output(std::string name);

  /// Attributes in order. Valid until the next set_attribute or
  /// remove_attribute on this node.
  std::span<const Attribute> attributes() const { return {attributes_, num_attributes_}; }
  /// The attribute called `name`, or null.
  const Attribute* attribute(std::string_view name) const;
  /// Adds or replaces an attribute. Graph-valued attributes become subgraphs of this node.
  void set_attribute(Attribute attribute);
  /// Removes an attribute; returns false when there was none.
  bool remove_attribute(std::string_view name);
  /// Subgraphs held by graph and graphs attributes, in attribute order.
  std::vector<Graph*> subgraphs() const;

  /// The graph that owns the node.
  Graph* graph() const { return graph_; }
  /// True after Graph::erase.
  bool is_erased() const { return erased_; }
  /// The next live node in the graph, or null.
  Node* next() const;
  /// The previous live node in the graph, or null.
  Node* prev() const;

  /// NodeProto.device_configurations (IR 11), each kept as serialized bytes:
  /// preserved through load and save, not yet modelled.
  const std::vector<std::string>& device_configurations() const {
    return rare().device_configurations;
  }
  /// The device configurations, for writing.
  std::vector<std::string>& mutable_device_configurations() {
    return mutable_rare().device_configurations;
  }

  /// The source line that built this node (the eDSL sets it), for messages
  /// such as "the value produced at file:line". Not serialized; empty
  /// (line 0) for nodes read from files. One pointer, so recording it costs
  /// tracing nothing measurable.
  std::source_location origin;

 private:
  friend class Graph;
  friend class Value;  // keeps use_slots_ right as use lists change
  friend class RareProtoFields<NodeProtoFields, Node>;
  Node(Graph* graph, std::string_view op_type, std::string_view domain);
  void rare_fields_allocated();
  void adopt_subgraphs(const Attribute& attribute);
  void grow_attributes();

  static inline const std::string kNoName;

  // Interned (src/ir/interned_string.h): nodes of one operator share the
  // text, and building a node copies none.
  const std::string* op_type_;
  const std::string* domain_;
  // In the graph's arena, and only once set: traced nodes go unnamed, and a
  // pointer costs a quarter of an inline std::string.
  ArenaBox<std::string> name_;
  SmallVector<Value*, 3> inputs_;
  // For each input, where its Use sits in the input value's use list: an
  // edit of input i finds its use without searching, which a value read by
  // many nodes (a shared weight) would otherwise make linear per edit.
  SmallVector<uint32_t, 3> use_slots_;
  SmallVector<Value*, 2> outputs_;
  // In the graph's attribute arena: a node's attributes cost no malloc.
  Attribute* attributes_ = nullptr;
  uint32_t num_attributes_ = 0;
  uint32_t attribute_capacity_ = 0;
  Graph* graph_;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;
  bool erased_ = false;
};

/// Iteration over a graph's live nodes that tolerates mutation: the current
/// node may be erased, and nodes may be inserted anywhere. Nodes inserted
/// after the current one are visited unless the current node was erased
/// before they were inserted.
class NodeRange {
 public:
  /// Forward iterator over live nodes.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    using pointer = Node**;
    using reference = Node*;
    iterator() = default;
    explicit iterator(Node* node) : node_(node) {}
    Node* operator*() const { return node_; }
    iterator& operator++();
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator&) const = default;

   private:
    Node* node_ = nullptr;
  };
  explicit NodeRange(Node* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }

 private:
  Node* first_;
};

/// A graph annotation for quantization (GraphProto.quantization_annotation).
struct QuantizationAnnotation {
  std::string tensor_name;                     ///< The annotated tensor.
  MetadataProps quant_parameter_tensor_names;  ///< Parameter role -> tensor name.
};

/// A computation graph: inputs, initializers, nodes in order, outputs.
/// Also used as the body of a Function and as graph-valued attributes.
class Graph {
 public:
  /// An empty graph.
  explicit Graph(std::string name = "");
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  /// The graph's name.
  const std::string& name() const { return name_; }
  /// Renames the graph.
  void set_name(std::string name) { name_ = std::move(name); }

  // ---- inputs, outputs, initializers ----

  /// Adds a graph input.
  Value* add_input(std::string name, std::optional<Type> type = std::nullopt);
  /// Graph inputs in order.
  std::span<Value* const> inputs() const { return {inputs_.data(), inputs_.size()}; }
  /// Removes input `index`. The value stays alive (for example as an initializer).
  void remove_input(size_t index);

  /// Graph outputs in order. A value may appear more than once. Edit freely.
  std::vector<Value*>& outputs() { return outputs_; }
  /// Graph outputs in order.
  const std::vector<Value*>& outputs() const { return outputs_; }

  /// Adds an initializer that is not a graph input.
  Value* add_initializer(std::string name, Tensor value);
  /// Gives an existing value (normally a graph input, as in IR < 4) an initializer.
  void set_initializer(Value* value, Tensor tensor);
  /// Adds a sparse initializer.
  Value* add_sparse_initializer(std::string name, SparseTensor value);
  /// Dense initializers in order. After removals, the first call compacts
  /// the list (removals leave holes, so that each is constant time): do not
  /// call it from several threads on a graph that is being edited.
  std::span<Value* const> initializers() const {
    if (initializer_holes_ != 0) compact_initializers();
    return initializers_;
  }
  /// The element bytes of the dense initializers (Tensor::nbytes), summed as
  /// they are set and removed: a writer sizes its output from it without
  /// reading every tensor.
  uint64_t initializer_bytes() const { return initializer_bytes_; }
  /// Sparse initializers in order.
  std::span<Value* const> sparse_initializers() const { return sparse_initializers_; }
  /// Removes a value's initializer (dense or sparse).
  void remove_initializer(Value* value);

  /// Values listed in value_info, in order. Edit freely.
  std::vector<Value*>& value_info() { return value_info_; }
  /// Values listed in value_info, in order.
  const std::vector<Value*>& value_info() const { return value_info_; }

  /// Creates a value owned by this graph that belongs to no node or list; used
  /// for value_info entries that name nothing else.
  Value* create_detached_value(std::string name);

  // ---- nodes ----

  /// Creates a node with `num_outputs` unnamed outputs and appends it.
  Node* append_node(std::string_view op_type, std::span<Value* const> inputs, size_t num_outputs,
                    std::string_view domain = {});
  /// As above, for a braced list of inputs: `append_node("Add", {a, b}, 1)`.
  Node* append_node(std::string_view op_type, std::initializer_list<Value*> inputs,
                    size_t num_outputs, std::string_view domain = {}) {
    return append_node(op_type, std::span<Value* const>(inputs.begin(), inputs.size()), num_outputs,
                       domain);
  }
  /// Creates a node like append_node, placed just before `position`.
  Node* insert_node_before(Node* position, std::string_view op_type, std::span<Value* const> inputs,
                           size_t num_outputs, std::string_view domain = {});
  /// As above, for a braced list of inputs.
  Node* insert_node_before(Node* position, std::string_view op_type,
                           std::initializer_list<Value*> inputs, size_t num_outputs,
                           std::string_view domain = {}) {
    return insert_node_before(position, op_type,
                              std::span<Value* const>(inputs.begin(), inputs.size()), num_outputs,
                              domain);
  }
  /// Moves `node` (of this graph) to just before `position`.
  void move_before(Node* node, Node* position);
  /// Removes a node. Its outputs must have no uses and not be graph outputs;
  /// otherwise ValidationError. Its inputs lose the uses. Memory is kept until
  /// the graph dies, so iterators on it stay valid.
  void erase(Node* node);
  /// Live nodes in order; safe to mutate while iterating (see NodeRange).
  NodeRange nodes() const { return NodeRange(head_); }
  /// Number of live nodes.
  size_t num_nodes() const { return num_nodes_; }
  /// Calls `visit(const Node&)` on every live node, in creation order rather
  /// than graph order. For passes that do not care about order (what IR
  /// version a graph needs, say): on a graph of a million nodes it is
  /// several times faster than nodes(), which follows a pointer per node.
  template <typename Visit>
  void for_each_node_unordered(Visit&& visit) const {
    nodes_.for_each([&](const Node& node) {
      if (!node.erased_) visit(node);
    });
  }
  /// First live node, or null.
  Node* first_node() const { return head_; }
  /// Last live node, or null.
  Node* last_node() const { return tail_; }

  /// An upper bound of the IR version that this graph's nodes and
  /// initializers need: the nodes' rare fields (IR 10 or 11 once any is
  /// allocated), their attributes (a graph-valued one counts as unbounded:
  /// its graph may change after), the types of values of this graph, and
  /// the initializer tensors. It grows as they are set and never comes down,
  /// so serde::required_ir_version can skip reading every node and
  /// initializer when what the rest of the model needs is already as high.
  int64_t ir_version_bound() const { return ir_version_bound_; }

  /// The live nodes in an order where each comes after every node it depends
  /// on: the producers of its inputs, and of the values its subgraphs
  /// (however deeply nested) read from this graph as node inputs or return
  /// as outputs. Stable: of the nodes ready at each step the earliest in the
  /// current order comes first, so a sorted graph keeps its order. Does not
  /// rely on use lists. Throws ValidationError naming this graph and a node
  /// on the cycle (name, operator and position) when nodes depend on each
  /// other in a cycle, which includes a node that reads its own output.
  std::vector<Node*> topological_order() const;
  /// Reorders the nodes as topological_order() gives them; on a cycle,
  /// throws as it does and leaves the graph as it was.
  void sort_topologically();

  // ---- nesting ----

  /// The node whose attribute holds this graph; null for a top-level graph.
  Node* parent_node() const { return parent_node_; }
  /// The graph enclosing this one, or null.
  Graph* parent_graph() const { return parent_node_ ? parent_node_->graph() : nullptr; }

  std::string doc_string;        ///< GraphProto.doc_string.
  MetadataProps metadata_props;  ///< GraphProto.metadata_props (IR 10).
  std::vector<QuantizationAnnotation> quantization_annotation;  ///< As in GraphProto.
  std::string unknown_fields;  ///< Unknown GraphProto fields, serialized.

 private:
  friend class Node;
  friend class Value;
  void raise_ir_version_bound(int64_t version) {
    ir_version_bound_ = std::max(ir_version_bound_, version);
  }
  Value* new_value(std::string name);
  Node* new_node(std::string_view op_type, std::span<Value* const> inputs, size_t num_outputs,
                 std::string_view domain);
  void link_before(Node* node, Node* position);
  void unlink(Node* node);

  std::string name_;
  // The arena is declared first so that it dies last: nodes' attributes and
  // names, values' types, and initializer tensors live in it. Values are
  // declared next so that they die after the nodes, which point at them.
  ByteArena arena_;
  ObjectPool<Value> values_;
  ObjectPool<Node> nodes_;
  std::vector<Value*> inputs_, outputs_, sparse_initializers_, value_info_;
  // Dense initializers; null where one was removed and the list not yet
  // compacted (see initializers()).
  mutable std::vector<Value*> initializers_;
  mutable size_t initializer_holes_ = 0;
  void compact_initializers() const;
  Node* head_ = nullptr;
  Node* tail_ = nullptr;
  size_t num_nodes_ = 0;
  int64_t ir_version_bound_ = 3;
  uint64_t initializer_bytes_ = 0;
  Node* parent_node_ = nullptr;
};

}  // namespace onnxscript::ir
