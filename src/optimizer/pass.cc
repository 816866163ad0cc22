#include "onnxscript/optimizer/pass.h"

#include <algorithm>
#include <chrono>

#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {

PassCounts& PassCounts::operator+=(const PassCounts& other) {
  nodes_removed += other.nodes_removed;
  nodes_folded += other.nodes_folded;
  nodes_rewritten += other.nodes_rewritten;
  initializers_removed += other.initializers_removed;
  functions_removed += other.functions_removed;
  opsets_removed += other.opsets_removed;
  return *this;
}

bool PassCounts::empty() const {
  return nodes_removed == 0 && nodes_folded == 0 && nodes_rewritten == 0 &&
         initializers_removed == 0 && functions_removed == 0 && opsets_removed == 0;
}

PassManager::PassManager(std::vector<std::unique_ptr<Pass>> passes, int max_iterations)
    : passes_(std::move(passes)), max_iterations_(std::max(1, max_iterations)) {}

PassManagerResult PassManager::run(ir::Model& model) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PassManagerResult result;
  result.passes.resize(passes_.size());
  for (size_t i = 0; i < passes_.size(); ++i) {
    result.passes[i].name = std::string(passes_[i]->name());
    passes_[i]->reset_counts();
  }
  while (result.iterations < max_iterations_) {
    ++result.iterations;
    bool round_changed = false;
    for (size_t i = 0; i < passes_.size(); ++i) {
      PassStats& stats = result.passes[i];
      const auto pass_start = Clock::now();
      const bool changed = passes_[i]->run(model);
      stats.seconds += std::chrono::duration<double>(Clock::now() - pass_start).count();
      ++stats.runs;
      if (changed) ++stats.changed_runs;
      round_changed |= changed;
    }
    result.changed |= round_changed;
    if (!round_changed) {
      result.fixed_point = true;
      break;
    }
  }
  // Types recorded for values the passes removed would name nothing.
  detail::prune_value_info(model);
  for (size_t i = 0; i < passes_.size(); ++i) result.passes[i].counts = passes_[i]->counts();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace onnxscript::optimizer
