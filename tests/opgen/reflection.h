#pragma once
// The reflection table that tools/opgen writes for these tests
// (build/generated/opsets/reflection.cc). Each entry calls the typed API, so a
// missing operator or a wrong parameter list fails to compile; the tests then
// compare the node each call records with libonnx's schema.

#include <memory>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/op_api.h"

namespace opgen_test {

/// Supplies the arguments of the reflection calls: fresh traced inputs and
/// sample attribute values.
class Sample {
 public:
  /// Inputs become inputs of `graph`.
  explicit Sample(onnxscript::ir::Graph& graph) : graph_(graph) {}

  /// A fresh traced input.
  onnxscript::Value input() {
    return onnxscript::Value::traced(graph_.add_input("in" + std::to_string(next_++)));
  }
  /// `n` fresh traced inputs.
  std::vector<onnxscript::Value> inputs(int n) {
    std::vector<onnxscript::Value> v;
    for (int i = 0; i < n; ++i) v.push_back(input());
    return v;
  }
  /// A small tensor attribute value.
  onnxscript::Tensor tensor() { return onnxscript::Tensor::from<float>({1.0f, 2.0f}); }
  /// A type attribute value.
  onnxscript::ir::Type type() { return onnxscript::ir::Type::tensor(onnxscript::DataType::kFloat); }
  /// A fresh subgraph with kSubgraphOutputs outputs.
  onnxscript::Graph subgraph() {
    auto g = std::make_shared<onnxscript::ir::Graph>("body");
    for (int i = 0; i < kSubgraphOutputs; ++i)
      g->outputs().push_back(g->add_input("b" + std::to_string(i)));
    return g;
  }

  /// Outputs of the subgraphs subgraph() makes.
  static constexpr int kSubgraphOutputs = 3;

 private:
  onnxscript::ir::Graph& graph_;
  int next_ = 0;
};

/// The outputs of a call as a list, whatever shape the call returns.
inline std::vector<onnxscript::Value> as_values(onnxscript::Value v) { return {v}; }
inline std::vector<onnxscript::Value> as_values(std::vector<onnxscript::Value> v) { return v; }
template <typename... Vs>
std::vector<onnxscript::Value> as_values(const std::tuple<Vs...>& t) {
  return std::apply([](const auto&... v) { return std::vector<onnxscript::Value>{v...}; }, t);
}

/// One schema version and two calls of its typed API: `full` passes every
/// input (2 values for a variadic one) and attribute and asks for every output
/// (2 for variadic outputs); `minimal` passes only what is required.
struct OpEntry {
  std::string_view domain;                             ///< "" for ai.onnx.
  std::string_view name;                               ///< Operator name.
  int64_t since_version;                               ///< Schema version.
  std::vector<onnxscript::Value> (*full)(Sample&);     ///< The full call.
  std::vector<onnxscript::Value> (*minimal)(Sample&);  ///< The minimal call.
};

/// One member of an opset namespace: `onnxscript::[domain::]opset<opset>::<name>`.
struct OpsetEntry {
  std::string_view domain;  ///< "" for ai.onnx.
  int64_t opset;            ///< The namespace's version.
  std::string_view name;    ///< Operator name.
  int64_t since_version;    ///< The schema version the namespace chose.
  int64_t recorded_opset;   ///< The opset version the object records on nodes.
};

/// Every schema version the generator saw.
std::span<const OpEntry> op_entries();
/// Every member of every opset namespace.
std::span<const OpsetEntry> opset_entries();

}  // namespace opgen_test
