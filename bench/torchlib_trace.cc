// What tracing a torchlib function costs per emitted ONNX node, over every
// sample call of the comparison suite's table (tests/torch_lib_libtorch/
// samples/): the exporter calls these functions once per TorchScript node,
// so this is what keeps an export linear and fast.
//
// For each sample: trace it into a model (the overload's C++ runs on traced
// values, with inference while building, as when exporting) `--repeat` times
// and count the nodes it emitted (subgraphs included). The floor is the raw
// IR: appending the same top-level nodes with their attributes to a fresh
// graph, which is what any builder must pay at least. See bench/README.md.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "onnxscript/ir/model.h"
#include "torch_lib_libtorch/compare.h"

namespace {

using onnxscript::ir::Graph;
using onnxscript::ir::Model;
using onnxscript::ir::Node;
using Clock = std::chrono::steady_clock;
namespace cmp = onnxscript::torch_lib::comparison;

constexpr const char* kUsage = R"(usage: torchlib_trace [--repeat N] [--top K]

Traces every sample call of torchlib's comparison table into a model N times
(default 20) and prints the time per emitted node, overall and for the K
names (default 10) that cost most per node, next to the floor: appending the
same nodes to a fresh graph with the raw IR API.
)";

size_t count_nodes(const Graph& g) {
  size_t n = 0;
  for (const Node* node : g.nodes()) {
    ++n;
    for (const Graph* sub : node->subgraphs()) n += count_nodes(*sub);
  }
  return n;
}

// Appends copies of `from`'s top-level nodes (graph attributes left out) to
// a fresh graph; returns how many.
size_t rebuild_with_raw_ir(const Graph& from) {
  Model m;
  Graph& g = m.graph();
  std::unordered_map<const onnxscript::ir::Value*, onnxscript::ir::Value*> map;
  for (const onnxscript::ir::Value* in : from.inputs())
    map[in] = g.add_input(in->name(), in->type());
  size_t n = 0;
  std::vector<onnxscript::ir::Value*> inputs;
  for (const Node* node : from.nodes()) {
    inputs.clear();
    for (const onnxscript::ir::Value* v : node->inputs()) inputs.push_back(v ? map[v] : nullptr);
    Node* copy = g.append_node(node->op_type(), inputs, node->outputs().size(), node->domain());
    for (const onnxscript::ir::Attribute& a : node->attributes())
      if (a.type != onnxscript::ir::AttributeType::kGraph &&
          a.type != onnxscript::ir::AttributeType::kGraphs)
        copy->set_attribute(a);
    for (size_t i = 0; i < node->outputs().size(); ++i) {
      copy->output(i)->set_name(node->output(i)->name());
      copy->output(i)->set_type(node->output(i)->type());
      map[node->output(i)] = copy->output(i);
    }
    ++n;
  }
  return n;
}

struct PerName {
  double trace_seconds = 0, floor_seconds = 0;
  size_t nodes = 0, floor_nodes = 0, samples = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int repeat = 20, top = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if ((a == "--repeat" || a == "--top") && i + 1 < argc) {
      const int v = std::atoi(argv[++i]);
      if (v <= 0) {
        std::fprintf(stderr, "torchlib_trace: %s needs a positive number\n", a.c_str());
        return 2;
      }
      (a == "--repeat" ? repeat : top) = v;
      continue;
    }
    std::fprintf(stderr, "torchlib_trace: unknown argument %s\n%s", a.c_str(), kUsage);
    return 2;
  }

  std::map<std::string, PerName> by_name;
  size_t failed = 0;
  for (const cmp::Sample& sample : cmp::samples()) {
    std::vector<onnxscript::Tensor> inputs;
    Model model;
    try {
      model = cmp::trace(sample, inputs);  // once untimed: first-call costs
    } catch (const std::exception&) {
      ++failed;  // the comparison suite reports why
      continue;
    }
    PerName& p = by_name[sample.name];
    ++p.samples;
    const size_t nodes = count_nodes(model.graph());
    auto start = Clock::now();
    for (int r = 0; r < repeat; ++r) {
      inputs.clear();
      const Model traced = cmp::trace(sample, inputs);
      (void)traced;
    }
    p.trace_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    p.nodes += nodes * static_cast<size_t>(repeat);
    start = Clock::now();
    size_t floor_nodes = 0;
    for (int r = 0; r < repeat; ++r) floor_nodes += rebuild_with_raw_ir(model.graph());
    p.floor_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    p.floor_nodes += floor_nodes;
  }

  PerName all;
  std::vector<std::pair<double, std::string>> cost;
  for (const auto& [name, p] : by_name) {
    all.trace_seconds += p.trace_seconds;
    all.floor_seconds += p.floor_seconds;
    all.nodes += p.nodes;
    all.floor_nodes += p.floor_nodes;
    all.samples += p.samples;
    if (p.nodes > 0) cost.emplace_back(1e6 * p.trace_seconds / static_cast<double>(p.nodes), name);
  }
  if (all.nodes == 0 || all.floor_nodes == 0) {
    std::fprintf(stderr, "torchlib_trace: no sample emitted a node\n");
    return 1;
  }
  const double trace_us = 1e6 * all.trace_seconds / static_cast<double>(all.nodes);
  const double floor_us = 1e6 * all.floor_seconds / static_cast<double>(all.floor_nodes);
  std::printf("names %zu, samples %zu (%zu did not trace), nodes per repetition %zu, repeat %d\n",
              by_name.size(), all.samples, failed, all.nodes / static_cast<size_t>(repeat), repeat);
  std::printf("trace: %.2f us/node   raw IR floor: %.3f us/node   trace/floor: %.1f\n", trace_us,
              floor_us, trace_us / floor_us);
  std::sort(cost.rbegin(), cost.rend());
  std::printf("\nmost per node (us/node, nodes per call):\n");
  for (int i = 0; i < top && i < static_cast<int>(cost.size()); ++i) {
    const PerName& p = by_name[cost[i].second];
    std::printf("  %-40s %8.2f %6.1f\n", cost[i].second.c_str(), cost[i].first,
                static_cast<double>(p.nodes) / static_cast<double>(p.samples * repeat));
  }
  return 0;
}
