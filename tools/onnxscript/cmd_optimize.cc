// onnxscript optimize IN OUT: runs the optimizer's passes and the rewriter
// and prints, per pass, what it changed and the time it took (per rule, how
// often it fired).
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/optimizer/passes.h"
#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/rewriter/rules.h"
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
  // The optimizer's passes by name, and the rewriter's "rewrite" (this tool
  // links both; the optimizer library does not know the rewriter).
  optimizer::FoldOptions fold;
  fold.max_output_bytes = options.fold_limit;
  std::vector<rewriter::Rule> rules = rewriter::default_rules();
  if (options.gemm) rules.push_back(rewriter::matmul_add_gemm_rule());
  const std::vector<std::string> names =
      options.passes.empty() ? rewriter::pass_names_with_rewrite() : options.passes;
  std::vector<std::unique_ptr<optimizer::Pass>> passes;
  const rewriter::RewritePass* rewrite = nullptr;
  for (const std::string& name : names) {
    if (name == "rewrite") {
      auto pass = rewriter::make_rewrite_pass(rules, {.debug = options.debug_rules});
      rewrite = pass.get();
      passes.push_back(std::move(pass));
    } else {
      passes.push_back(optimizer::make_pass(name, fold));
    }
  }
  optimizer::PassManager manager(std::move(passes), options.max_iterations);
  const optimizer::PassManagerResult result = manager.run(model);
  for (const optimizer::PassStats& p : result.passes) {
    std::cout << fmt::format("{:<20} {:>9.3f} ms  {}\n", p.name, p.seconds * 1e3,
                             describe(p.counts));
    if (p.name == "rewrite" && rewrite)
      for (const auto& [rule, n] : rewrite->fired())
        std::cout << fmt::format("  {:<18} fired {}\n", rule, n);
  }
  if (rewrite)
    for (const rewriter::RuleReport& report : rewrite->reports())
      std::cout << "  not fired in the last round: " << report.to_string() << "\n";
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
