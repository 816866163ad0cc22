// The optimizer's speed: time per node as the graph grows, which must stay
// flat, and folding a constant Conv against the Conv kernel's own time.
//
// Usage: optimize_speed [MODEL.onnx ...]
// Prints, for the chain of bench/chain.h at 12,500 to 200,000 nodes (one
// 16-element weight initializer per Add and Mul, all equal, so that
// initializer deduplication leaves one weight read by half the nodes):
//   chain <nodes> <case> <ms> <ns per node>
// for the cases
//   optimize  optimizer::optimize() with the default passes;
//   rewrite   rewriter::optimize_with_rewrites() (the default passes and the
//             rewrite pass with the default rules);
//   dce       "dedup-initializers" then "dce" on the chain with its output
//             cut off (the graph returns its input): every node is dead,
//             and each removal drops a use of the one shared weight;
//   unused    "unused-initializers" on that dead chain after "dce" without
//             deduplication: 50% of the nodes' worth of initializers go.
// Then, for each model file given, `model <file> <nodes> optimize <ms> <ns
// per node>`; and for a constant Conv (1x64x56x56 input, 64 3x3 filters,
// padding 1):
//   conv kernel <ms>   (a Session running the Conv, input and weights given)
//   conv fold <ms>     (the "fold" pass over the same Conv on initializers)
// Each figure is the best of three runs, in CPU time of the process (all
// threads), so that other jobs on the machine do not count. With
// ONNXSCRIPT_BENCH_PASSES=1, stderr gets each pass's time at each chain
// size (one run of each, in the default order, on one chain).
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "chain.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"

using namespace onnxscript;

namespace {

// CPU seconds of the process (every thread): on a shared machine, wall
// time measures the other jobs as much as this one.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

ir::Model chain_model(int64_t nodes) {
  ScopedTraceOptions options({.infer_types = false});
  std::vector<float> weights(16);
  for (int i = 0; i < 16; ++i) weights[i] = 0.01f * static_cast<float>(i + 1);
  return bench::chain_function(Tensor::from_span<float>(weights), nodes).to_model();
}

// The chain with its output cut off: the graph returns its input, through
// an Identity (an output must be computed in its graph), and every chain
// node is dead.
ir::Model dead_chain_model(int64_t nodes) {
  ir::Model model = chain_model(nodes);
  ir::Graph& g = model.graph();
  ir::Value* out = g.outputs()[0];
  ir::Node* id = g.append_node("Identity", {g.inputs()[0]}, 1);
  id->output(0)->set_type(out->type());
  const std::string name = out->name();
  out->set_name(name + "_dead");
  id->output(0)->set_name(name);
  g.outputs()[0] = id->output(0);
  return model;
}

// Best of three: `prepare` makes a fresh model, `run` is timed on it.
template <typename Prepare, typename Run>
double best_of_three(Prepare prepare, Run run) {
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    ir::Model model = prepare();
    const double start = cpu_seconds();
    run(model);
    best = std::min(best, cpu_seconds() - start);
  }
  return best;
}

optimizer::OptimizeOptions passes(std::vector<std::string> names) {
  optimizer::OptimizeOptions o;
  o.passes = std::move(names);
  return o;
}

void print(const char* what, const std::string& name, int64_t nodes, const char* which,
           double seconds) {
  std::printf("%s %s %lld %s %.1f %.1f\n", what, name.c_str(), static_cast<long long>(nodes), which,
              seconds * 1e3, seconds * 1e9 / static_cast<double>(nodes));
  std::fflush(stdout);
}

void chain_cases(int64_t n) {
  const std::string size = std::to_string(n);
  print(
      "chain", "", n, "optimize",
      best_of_three([&] { return chain_model(n); }, [](ir::Model& m) { optimizer::optimize(m); }));
  if (std::getenv("ONNXSCRIPT_BENCH_PASSES")) {
    // Each pass of the default list once, in order, on one chain.
    ir::Model m = chain_model(n);
    for (const std::string& name : optimizer::pass_names()) {
      const double start = cpu_seconds();
      optimizer::optimize(m, passes({name}));
      const double t = cpu_seconds() - start;
      std::fprintf(stderr, "  %-20s %8.1f ms %8.1f ns/node\n", name.c_str(), t * 1e3,
                   t * 1e9 / static_cast<double>(n));
    }
  }
  print("chain", "", n, "rewrite",
        best_of_three([&] { return chain_model(n); },
                      [](ir::Model& m) { rewriter::optimize_with_rewrites(m); }));
  print("chain", "", n, "dce",
        best_of_three([&] { return dead_chain_model(n); },
                      [](ir::Model& m) {
                        optimizer::optimize(m, passes({"dedup-initializers", "dce"}));
                      }));
  print("chain", "", n, "unused",
        best_of_three(
            [&] {
              ir::Model m = dead_chain_model(n);
              optimizer::optimize(m, passes({"dce"}));
              return m;
            },
            [](ir::Model& m) { optimizer::optimize(m, passes({"unused-initializers"})); }));
}

size_t count_nodes(const ir::Graph& g) {
  size_t n = 0;
  for (const ir::Node* node : g.nodes()) {
    ++n;
    for (const ir::Graph* sub : node->subgraphs()) n += count_nodes(*sub);
  }
  return n;
}

void conv_cases() {
  const Tensor x = Tensor::rand({1, 64, 56, 56}, 1);
  const Tensor w = Tensor::rand({64, 64, 3, 3}, 2);
  const char* text = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[1,64,56,56] x, float[64,64,3,3] w) => (float[1,64,56,56] y) {
   y = Conv <pads: ints = [1, 1, 1, 1]> (x, w)
}
)";
  const eval::Session session(text::parse_model(text));
  const std::vector<eval::RuntimeValue> inputs{x, w};
  double kernel = 1e30;
  for (int i = 0; i < 3; ++i) {
    const double start = cpu_seconds();
    session.run(inputs);
    kernel = std::min(kernel, cpu_seconds() - start);
  }
  std::printf("conv kernel %.2f\n", kernel * 1e3);
  const double fold = best_of_three(
      [&] {
        ir::Model m;
        m.ir_version = 9;
        m.opset_imports.set("", 18);
        ir::Graph& g = m.graph();
        ir::Value* xv = g.add_initializer("x", x);
        ir::Value* wv = g.add_initializer("w", w);
        ir::Node* conv = g.append_node("Conv", {xv, wv}, 1);
        conv->set_attribute(ir::Attribute::make_ints("pads", {1, 1, 1, 1}));
        conv->output(0)->set_name("y");
        conv->output(0)->set_type(ir::Type::tensor(ir::DataType::kFloat, ir::Shape{1, 64, 56, 56}));
        g.outputs().push_back(conv->output(0));
        return m;
      },
      [](ir::Model& m) {
        optimizer::OptimizeOptions o = passes({"fold"});
        o.fold.max_output_bytes = size_t{1} << 24;
        optimizer::optimize(m, o);
        if (m.graph().num_nodes() != 1 || m.graph().first_node()->op_type() != "Constant")
          std::fprintf(stderr, "the Conv did not fold\n");
      });
  std::printf("conv fold %.2f\n", fold * 1e3);
}

}  // namespace

int main(int argc, char** argv) try {
  for (int64_t n : {12500, 25000, 50000, 100000, 200000}) chain_cases(n);
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    const ir::Model probe = serde::load_model(path);
    const int64_t nodes = static_cast<int64_t>(count_nodes(probe.graph()));
    print("model", path, nodes, "optimize",
          best_of_three([&] { return serde::load_model(path); },
                        [](ir::Model& m) { optimizer::optimize(m); }));
  }
  conv_cases();
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "optimize_speed: %s\n", e.what());
  return 1;
}
