// onnxscript optimize IN OUT: runs the optimizer's passes and prints, per
// pass, what it changed and the time it took.
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::cli {

namespace {

// "3 nodes removed, 2 folded": the non-zero counts, or "no change".
std::string describe(const optimizer::PassCounts& c) {
  std::string out;
  auto add = [&](size_t n, const char* what) {
    if (n == 0) return;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", n, what);
  };
  add(c.nodes_removed, "nodes removed");
  add(c.nodes_folded, "nodes folded");
  add(c.nodes_rewritten, "nodes rewritten");
  add(c.initializers_removed, "initializers removed");
  add(c.functions_removed, "functions removed");
  add(c.opsets_removed, "opset imports removed");
  return out.empty() ? "no change" : out;
}

size_t count_nodes(const ir::Graph& graph) {
  size_t n = 0;
  for (const ir::Node* node : graph.nodes()) {
    ++n;
    for (const ir::Graph* sub : node->subgraphs()) n += count_nodes(*sub);
  }
  return n;
}

}  // namespace

int optimize_command(const OptimizeOptions& options) {
  ir::Model model = load_model_file(options.input);
  const size_t before = count_nodes(model.graph());
  optimizer::OptimizeOptions opt;
  opt.passes = options.passes;
  opt.fold.max_output_bytes = options.fold_limit;
  opt.max_iterations = options.max_iterations;
  const optimizer::PassManagerResult result = optimizer::optimize(model, opt);
  for (const optimizer::PassStats& p : result.passes)
    std::cout << fmt::format("{:<20} {:>9.3f} ms  {}\n", p.name, p.seconds * 1e3,
                             describe(p.counts));
  std::cout << fmt::format("{} rounds{}, {:.3f} ms; main graph: {} -> {} nodes\n",
                           result.iterations, result.fixed_point ? "" : " (stopped at the cap)",
                           result.seconds * 1e3, before, count_nodes(model.graph()));
  if (is_text_path(options.output)) {
    write_file_atomically(options.output, text::print_model(model));
  } else {
    serde::save_model(model, options.output);
  }
  std::cerr << "wrote " << options.output.string() << "\n";
  return 0;
}

}  // namespace onnxscript::cli
