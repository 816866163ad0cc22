#include "onnxscript/optimizer/optimize.h"

#include <fmt/format.h>

#include "onnxscript/serde/text.h"
#include "onnxscript/support/error.h"

namespace onnxscript::optimizer {

PassManagerResult optimize(ir::Model& model, const OptimizeOptions& options) {
  const std::vector<std::string> names = options.passes.empty() ? pass_names() : options.passes;
  std::vector<std::unique_ptr<Pass>> passes;
  passes.reserve(names.size());
  for (const std::string& name : names) passes.push_back(make_pass(name, options.fold));
  PassManager manager(std::move(passes), options.max_iterations);
  return manager.run(model);
}

PassManagerResult optimize_checked(ir::Model& model, const OptimizeOptions& options) {
  PassManagerResult first = optimize(model, options);
  const std::string once = text::print_model(model);
  const PassManagerResult second = optimize(model, options);
  std::string changed;
  for (const PassStats& p : second.passes)
    if (p.changed_runs > 0) changed += fmt::format("{}{}", changed.empty() ? "" : ", ", p.name);
  if (!changed.empty())
    throw Error(
        fmt::format("optimize: a second run still changed the model (passes: {})", changed));
  if (text::print_model(model) != once)
    throw Error("optimize: a second run changed the printed model without reporting it");
  return first;
}

}  // namespace onnxscript::optimizer
