#include "onnxscript/ir/graph.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>
#include <unordered_map>

#include "ir/interned_string.h"

namespace onnxscript::ir {

// ---------------------------------------------------------------- Value

bool Value::is_graph_input() const {
  const auto ins = graph_->inputs();
  return std::find(ins.begin(), ins.end(), this) != ins.end();
}

bool Value::is_graph_output() const {
  const auto& outs = graph_->outputs();
  return std::find(outs.begin(), outs.end(), this) != outs.end();
}

// Graph::ir_version_bound counts as the highest version what it cannot
// follow: the rare fields of nodes and values (where the IR 10 and 11
// features live: overload, metadata, device configurations), and graph
// attributes, whose graphs may be edited after they are attached.
constexpr int64_t kUnboundedIrVersion = std::numeric_limits<int64_t>::max();

template <typename T>
void Value::store_type(T&& type) {
  if (std::optional<Type>* held = type_.get()) {
    *held = std::forward<T>(type);
  } else {
    type_.emplace(graph_->arena_, std::forward<T>(type));
  }
}

void Value::set_type(std::optional<Type> type) {
  if (!type) {
    if (type_.get()) type_.get()->reset();
    return;
  }
  graph_->raise_ir_version_bound(min_ir_version(*type));
  store_type(std::move(*type));
}

void Value::set_type(const Type& type) {
  graph_->raise_ir_version_bound(min_ir_version(type));
  store_type(type);
}

void Value::rare_fields_allocated() { graph_->raise_ir_version_bound(kUnboundedIrVersion); }

void Value::add_use(Node* node, size_t index) {
  node->use_slots_[index] = static_cast<uint32_t>(uses_.size());
  uses_.push_back({node, static_cast<int>(index)});
}

void Value::remove_use(Use use, uint32_t slot) {
  ONNXSCRIPT_CHECK(slot < uses_.size() && uses_[slot] == use, "use of '{}' not recorded", name_);
  // The last use fills the hole; its node learns where it went.
  const Use last = uses_.back();
  uses_[slot] = last;
  last.node->use_slots_[static_cast<size_t>(last.index)] = slot;
  uses_.pop_back();
}

void Value::replace_all_uses_with(Value* other) {
  if (other == this) return;
  // set_input edits uses_, so work on a copy.
  const std::vector<Use> uses(uses_.begin(), uses_.end());
  for (const Use& use : uses) use.node->set_input(static_cast<size_t>(use.index), other);
  for (Value*& out : graph_->outputs()) {
    if (out == this) out = other;
  }
}

// ---------------------------------------------------------------- Node

Node::Node(Graph* graph, std::string_view op_type, std::string_view domain)
    : op_type_(&detail::intern(op_type)), domain_(&detail::intern(domain)), graph_(graph) {}

void Node::set_input(size_t i, Value* value) {
  Value*& slot = inputs_.at(i);
  if (slot == value) return;
  if (slot) slot->remove_use({this, static_cast<int>(i)}, use_slots_[i]);
  slot = value;
  if (value) value->add_use(this, i);
}

void Node::append_input(Value* value) {
  inputs_.push_back(nullptr);
  use_slots_.push_back(0);
  set_input(inputs_.size() - 1, value);
}

void Node::pop_input() {
  ONNXSCRIPT_CHECK(!inputs_.empty(), "pop_input on a node without inputs");
  set_input(inputs_.size() - 1, nullptr);
  inputs_.pop_back();
  use_slots_.pop_back();
}

Value* Node::append_output(std::string name) {
  Value* v = graph_->new_value(std::move(name));
  v->producer_ = this;
  v->output_index_ = static_cast<int>(outputs_.size());
  outputs_.push_back(v);
  return v;
}

void Node::rare_fields_allocated() { graph_->raise_ir_version_bound(kUnboundedIrVersion); }

Node::~Node() { std::destroy_n(attributes_, num_attributes_); }

void Node::set_name(std::string name) {
  if (std::string* held = name_.get()) {
    *held = std::move(name);
  } else if (!name.empty()) {
    name_.emplace(graph_->arena_, std::move(name));
  }
}

const Attribute* Node::attribute(std::string_view name) const {
  for (const Attribute& a : attributes())
    if (a.name == name) return &a;
  return nullptr;
}

void Node::adopt_subgraphs(const Attribute& attribute) {
  if (const auto* g = std::get_if<std::shared_ptr<Graph>>(&attribute.value)) {
    if (*g) (*g)->parent_node_ = this;
  } else if (const auto* gs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&attribute.value)) {
    for (const auto& sub : *gs)
      if (sub) sub->parent_node_ = this;
  }
}

namespace {

// True when `g` is `root` or a graph nested in it.
bool is_within(const Graph* g, const Graph* root) {
  for (; g != nullptr; g = g->parent_graph())
    if (g == root) return true;
  return false;
}

// Gives back the uses that the nodes of `sub` (and of the graphs nested in
// them) make of values outside `root`, so that no outer value keeps a use by
// a node about to die.
void release_outer_uses(const Graph& sub, const Graph& root) {
  for (Node* node : sub.nodes()) {
    for (size_t i = 0; i < node->inputs().size(); ++i) {
      const Value* in = node->input(i);
      if (in != nullptr && !is_within(in->graph(), &root)) node->set_input(i, nullptr);
    }
    for (const Graph* nested : node->subgraphs()) release_outer_uses(*nested, root);
  }
}

// Called on an attribute a node drops: a graph that dies with it (no other
// holder) releases its uses of outer values first. A graph held elsewhere
// keeps them, since its nodes still read those values.
void release_dying_subgraphs(const Attribute& attribute) {
  const auto release = [](const std::shared_ptr<Graph>& g) {
    if (g && g.use_count() == 1) release_outer_uses(*g, *g);
  };
  if (const auto* g = std::get_if<std::shared_ptr<Graph>>(&attribute.value)) {
    release(*g);
  } else if (const auto* gs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&attribute.value)) {
    for (const auto& sub : *gs) release(sub);
  }
}

}  // namespace

void Node::set_attribute(Attribute attribute) {
  adopt_subgraphs(attribute);
  graph_->raise_ir_version_bound(
      min_ir_version(attribute, [](const Graph&) { return kUnboundedIrVersion; }));
  for (Attribute& a : std::span(attributes_, num_attributes_)) {
    if (a.name == attribute.name) {
      release_dying_subgraphs(a);
      a = std::move(attribute);
      return;
    }
  }
  if (num_attributes_ == attribute_capacity_) grow_attributes();
  new (attributes_ + num_attributes_) Attribute(std::move(attribute));
  ++num_attributes_;
}

// Moves the attributes to an array twice as large. The old array's memory
// stays in the arena until the graph dies: nodes rarely gain more than a
// few attributes, so little is left behind.
void Node::grow_attributes() {
  static_assert(std::is_nothrow_move_constructible_v<Attribute>,
                "moving attributes to a larger array must not fail halfway");
  const uint32_t capacity = attribute_capacity_ == 0 ? 1 : 2 * attribute_capacity_;
  auto* fresh = static_cast<Attribute*>(
      graph_->arena_.allocate(capacity * sizeof(Attribute), alignof(Attribute)));
  std::uninitialized_move_n(attributes_, num_attributes_, fresh);
  std::destroy_n(attributes_, num_attributes_);
  attributes_ = fresh;
  attribute_capacity_ = capacity;
}

bool Node::remove_attribute(std::string_view name) {
  Attribute* end = attributes_ + num_attributes_;
  Attribute* it =
      std::find_if(attributes_, end, [&](const Attribute& a) { return a.name == name; });
  if (it == end) return false;
  release_dying_subgraphs(*it);
  std::move(it + 1, end, it);
  std::destroy_at(end - 1);
  --num_attributes_;
  return true;
}

std::vector<Graph*> Node::subgraphs() const {
  std::vector<Graph*> out;
  for (const Attribute& a : attributes()) {
    if (const auto* g = std::get_if<std::shared_ptr<Graph>>(&a.value)) {
      if (*g) out.push_back(g->get());
    } else if (const auto* gs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&a.value)) {
      for (const auto& sub : *gs)
        if (sub) out.push_back(sub.get());
    }
  }
  return out;
}

Node* Node::next() const {
  Node* n = next_;
  while (n && n->erased_) n = n->next_;
  return n;
}

Node* Node::prev() const {
  Node* n = prev_;
  while (n && n->erased_) n = n->prev_;
  return n;
}

NodeRange::iterator& NodeRange::iterator::operator++() {
  node_ = node_->next();
  return *this;
}

// ---------------------------------------------------------------- Graph

Graph::Graph(std::string name) : name_(std::move(name)) {}

// Members are released without touching use lists: values of outer graphs may
// already be gone when a subgraph dies.
Graph::~Graph() = default;

Value* Graph::new_value(std::string name) {
  new (values_.next_slot()) Value(this, std::move(name));
  return values_.commit();
}

Value* Graph::add_input(std::string name, std::optional<Type> type) {
  Value* v = new_value(std::move(name));
  v->set_type(std::move(type));
  inputs_.push_back(v);
  return v;
}

void Graph::remove_input(size_t index) {
  inputs_.erase(inputs_.begin() + static_cast<ptrdiff_t>(index));
}

Value* Graph::add_initializer(std::string name, Tensor value) {
  Value* v = new_value(std::move(name));
  set_initializer(v, std::move(value));
  return v;
}

void Graph::set_initializer(Value* value, Tensor tensor) {
  ONNXSCRIPT_CHECK(value->graph() == this, "initializer '{}' belongs to another graph",
                   value->name());
  if (const Tensor* old = value->const_value_.get()) {
    initializer_bytes_ -= old->nbytes();
  } else {
    value->initializer_slot_ = static_cast<int32_t>(initializers_.size());
    initializers_.push_back(value);
  }
  initializer_bytes_ += tensor.nbytes();
  raise_ir_version_bound(min_ir_version(tensor));
  value->const_value_.emplace(arena_, std::move(tensor));
}

Value* Graph::add_sparse_initializer(std::string name, SparseTensor value) {
  Value* v = new_value(std::move(name));
  raise_ir_version_bound(min_ir_version(value));
  v->sparse_value_.emplace(arena_, std::move(value));
  sparse_initializers_.push_back(v);
  return v;
}

void Graph::remove_initializer(Value* value) {
  // A hole where the value was (constant time), filled by the next read of
  // initializers(): removing every initializer one by one stays linear.
  if (const int32_t slot = value->initializer_slot_;
      value->graph_ == this && slot >= 0 && static_cast<size_t>(slot) < initializers_.size() &&
      initializers_[static_cast<size_t>(slot)] == value) {
    initializers_[static_cast<size_t>(slot)] = nullptr;
    ++initializer_holes_;
    value->initializer_slot_ = -1;
  }
  if (!sparse_initializers_.empty()) std::erase(sparse_initializers_, value);
  if (const Tensor* old = value->const_value_.get(); old && value->graph_ == this)
    initializer_bytes_ -= old->nbytes();
  value->const_value_.reset();
  value->sparse_value_.reset();
}

void Graph::compact_initializers() const {
  size_t kept = 0;
  for (Value* v : initializers_) {
    if (!v) continue;
    v->initializer_slot_ = static_cast<int32_t>(kept);
    initializers_[kept++] = v;
  }
  initializers_.resize(kept);
  initializer_holes_ = 0;
}

Value* Graph::create_detached_value(std::string name) { return new_value(std::move(name)); }

Node* Graph::new_node(std::string_view op_type, std::span<Value* const> inputs, size_t num_outputs,
                      std::string_view domain) {
  new (nodes_.next_slot()) Node(this, op_type, domain);
  Node* node = nodes_.commit();
  // Edges are made here rather than through append_input() and
  // append_output(): a new node has no old inputs to unhook, and its outputs
  // start unnamed. One node per traced operator call comes through here.
  node->inputs_.reserve(inputs.size());
  node->use_slots_.resize(inputs.size(), 0);
  for (Value* in : inputs) {
    if (in) in->add_use(node, node->inputs_.size());
    node->inputs_.push_back(in);
  }
  node->outputs_.reserve(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) {
    Value* out = new_value({});
    out->producer_ = node;
    out->output_index_ = static_cast<int>(i);
    node->outputs_.push_back(out);
  }
  return node;
}

void Graph::link_before(Node* node, Node* position) {
  node->erased_ = false;
  if (position == nullptr) {  // append
    node->prev_ = tail_;
    node->next_ = nullptr;
    if (tail_) tail_->next_ = node;
    tail_ = node;
    if (!head_) head_ = node;
  } else {
    node->next_ = position;
    node->prev_ = position->prev_;
    if (position->prev_) {
      position->prev_->next_ = node;
    } else {
      head_ = node;
    }
    position->prev_ = node;
  }
  ++num_nodes_;
}

// Unlinks from the live list but keeps node->next_, so that an iterator
// standing on the node can still advance.
void Graph::unlink(Node* node) {
  if (node->prev_) {
    node->prev_->next_ = node->next_;
  } else {
    head_ = node->next_;
  }
  if (node->next_) {
    node->next_->prev_ = node->prev_;
  } else {
    tail_ = node->prev_;
  }
  --num_nodes_;
}

Node* Graph::append_node(std::string_view op_type, std::span<Value* const> inputs,
                         size_t num_outputs, std::string_view domain) {
  Node* node = new_node(op_type, inputs, num_outputs, domain);
  link_before(node, nullptr);
  return node;
}

Node* Graph::insert_node_before(Node* position, std::string_view op_type,
                                std::span<Value* const> inputs, size_t num_outputs,
                                std::string_view domain) {
  ONNXSCRIPT_CHECK(position && position->graph_ == this && !position->erased_,
                   "insertion point is not a live node of this graph");
  Node* node = new_node(op_type, inputs, num_outputs, domain);
  link_before(node, position);
  return node;
}

void Graph::move_before(Node* node, Node* position) {
  ONNXSCRIPT_CHECK(node->graph_ == this && !node->erased_,
                   "can only move live nodes of this graph");
  if (node == position) return;
  unlink(node);
  link_before(node, position);
}

namespace {
// Drops every use that `node` and the nodes of its subgraphs hold.
void drop_uses(Node* node) {
  for (size_t i = 0; i < node->inputs().size(); ++i) node->set_input(i, nullptr);
  for (Graph* sub : node->subgraphs())
    for (Node* inner : sub->nodes()) drop_uses(inner);
}
}  // namespace

void Graph::erase(Node* node) {
  ONNXSCRIPT_CHECK(node->graph_ == this && !node->erased_,
                   "can only erase live nodes of this graph");
  for (Value* out : node->outputs()) {
    if (!out->uses().empty() || out->is_graph_output()) {
      throw ValidationError(
          fmt::format("cannot erase node '{}' ({}): its output '{}' is still used", node->name(),
                      node->op_type(), out->name()));
    }
  }
  drop_uses(node);
  unlink(node);
  node->erased_ = true;
}

namespace {

// "node 'add' (Add, #3)", or "node #3 (com.example.Op)" for an unnamed node:
// what a message needs to find a node of a graph.
std::string describe_node(const Node& node, size_t position) {
  const std::string op = node.domain().empty() || node.domain() == "ai.onnx"
                             ? node.op_type()
                             : fmt::format("{}.{}", node.domain(), node.op_type());
  if (node.name().empty()) return fmt::format("node #{} ({})", position, op);
  return fmt::format("node '{}' ({}, #{})", node.name(), op, position);
}

// Calls `read(value)` for every value that the nodes of `graph` and of the
// graphs nested in them read, and that `graph` returns.
template <typename Read>
void for_each_value_read_in(const Graph& graph, const Read& read) {
  for (const Node* node : graph.nodes()) {
    for (const Value* v : node->inputs()) read(v);
    for (const Graph* sub : node->subgraphs()) for_each_value_read_in(*sub, read);
  }
  for (const Value* v : graph.outputs()) read(v);
}

}  // namespace

std::vector<Node*> Graph::topological_order() const {
  // Kahn's algorithm, taking ready nodes by their current position.
  std::vector<Node*> nodes;
  nodes.reserve(num_nodes_);
  std::unordered_map<const Node*, size_t> position;
  position.reserve(num_nodes_);
  for (Node* n : this->nodes()) {
    position.emplace(n, nodes.size());
    nodes.push_back(n);
  }
  const size_t n = nodes.size();

  // producers[first[i] .. first[i + 1]): the nodes that node i reads from,
  // once per read (a producer read twice is counted, and released, twice).
  std::vector<size_t> first(n + 1, 0);
  std::vector<size_t> producers;
  producers.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    first[i] = producers.size();
    auto read = [&](const Value* v) {
      if (!v || v->graph() != this || !v->producer()) return;
      const auto it = position.find(v->producer());
      if (it == position.end()) return;  // an erased node: nothing to order
      if (it->second == i) {
        throw ValidationError(
            fmt::format("graph '{}' has a cycle through {}, which reads its own output '{}'", name_,
                        describe_node(*nodes[i], i), v->name()));
      }
      producers.push_back(it->second);
    };
    for (const Value* v : nodes[i]->inputs()) read(v);
    for (const Graph* sub : nodes[i]->subgraphs()) for_each_value_read_in(*sub, read);
  }
  first[n] = producers.size();

  // The reverse edges, in the same layout.
  std::vector<size_t> first_consumer(n + 1, 0);
  for (size_t p : producers) ++first_consumer[p + 1];
  for (size_t i = 0; i < n; ++i) first_consumer[i + 1] += first_consumer[i];
  std::vector<size_t> consumers(producers.size());
  {
    std::vector<size_t> fill(first_consumer.begin(), first_consumer.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (size_t k = first[i]; k < first[i + 1]; ++k) consumers[fill[producers[k]]++] = i;
  }

  std::vector<size_t> pending(n);
  std::vector<size_t> ready;  // a min-heap on position
  const auto later = [](size_t a, size_t b) { return a > b; };
  for (size_t i = 0; i < n; ++i) {
    pending[i] = first[i + 1] - first[i];
    if (pending[i] == 0) ready.push_back(i);  // increasing: already a heap
  }
  std::vector<Node*> order;
  order.reserve(n);
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), later);
    const size_t i = ready.back();
    ready.pop_back();
    order.push_back(nodes[i]);
    for (size_t k = first_consumer[i]; k < first_consumer[i + 1]; ++k) {
      if (--pending[consumers[k]] == 0) {
        ready.push_back(consumers[k]);
        std::push_heap(ready.begin(), ready.end(), later);
      }
    }
  }
  if (order.size() == n) return order;

  // Every node left waits for another node left; walking back from one must
  // come round to a node on a cycle.
  size_t at = 0;
  while (pending[at] == 0) ++at;
  std::vector<bool> seen(n, false);
  while (!seen[at]) {
    seen[at] = true;
    for (size_t k = first[at]; k < first[at + 1]; ++k) {
      if (pending[producers[k]] != 0) {
        at = producers[k];
        break;
      }
    }
  }
  throw ValidationError(
      fmt::format("graph '{}' has a cycle through {}", name_, describe_node(*nodes[at], at)));
}

void Graph::sort_topologically() {
  for (Node* n : topological_order()) {
    unlink(n);
    link_before(n, nullptr);
  }
}

}  // namespace onnxscript::ir
