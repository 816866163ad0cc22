// optimize_with_rewrites: the optimizer's pass list with the rewriter in it.
// The dependency points from the rewriter to the optimizer, never back: the
// optimizer library stays below the eDSL, which the rewriter's patterns need.

#include <algorithm>

#include "onnxscript/optimizer/passes.h"
#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/rewriter/rules.h"

namespace onnxscript::rewriter {

std::vector<std::string> pass_names_with_rewrite() {
  std::vector<std::string> names = optimizer::pass_names();
  auto at = std::find(names.begin(), names.end(), "identity");
  names.insert(at == names.end() ? at : at + 1, "rewrite");
  return names;
}

optimizer::PassManagerResult optimize_with_rewrites(ir::Model& model,
                                                    const optimizer::OptimizeOptions& options,
                                                    std::vector<Rule> rules) {
  const std::vector<std::string> names =
      options.passes.empty() ? pass_names_with_rewrite() : options.passes;
  std::vector<std::unique_ptr<optimizer::Pass>> passes;
  passes.reserve(names.size());
  for (const std::string& name : names) {
    if (name == "rewrite") {
      passes.push_back(make_rewrite_pass(rules));
    } else {
      passes.push_back(optimizer::make_pass(name, options.fold));
    }
  }
  optimizer::PassManager manager(std::move(passes), options.max_iterations);
  return manager.run(model);
}

optimizer::PassManagerResult optimize_with_rewrites(ir::Model& model,
                                                    const optimizer::OptimizeOptions& options) {
  return optimize_with_rewrites(model, options, default_rules());
}

}  // namespace onnxscript::rewriter
