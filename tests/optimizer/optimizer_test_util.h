#pragma once
// Helpers for the optimizer's tests: run passes over a model in the textual
// syntax, print the result with what each pass did, and check that the
// optimized model computes what the original does.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "onnxscript/eval/conformance.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::testing {

/// The model `text` after `passes` (empty: the default list), printed, then
/// one comment line per pass that did something.
inline std::string optimized_text(std::string_view text, std::vector<std::string> passes,
                                  optimizer::FoldOptions fold = {}) {
  ir::Model model = text::parse_model(text);
  optimizer::OptimizeOptions options;
  options.passes = std::move(passes);
  options.fold = fold;
  const optimizer::PassManagerResult result = optimizer::optimize(model, options);
  std::string out = text::print_model(model);
  for (const optimizer::PassStats& p : result.passes) {
    const optimizer::PassCounts& c = p.counts;
    if (c.empty()) continue;
    out += fmt::format(
        "# {}: {} removed, {} folded, {} rewritten, {} initializers, {} functions, {} opsets\n",
        p.name, c.nodes_removed, c.nodes_folded, c.nodes_rewritten, c.initializers_removed,
        c.functions_removed, c.opsets_removed);
  }
  return out;
}

/// Runs `text` before and after the default optimization on `inputs`, and
/// expects the same outputs.
inline void expect_same_results(std::string_view text,
                                const std::vector<eval::RuntimeValue>& inputs) {
  ir::Model original = text::parse_model(text);
  ir::Model optimized = text::parse_model(text);
  optimizer::optimize(optimized);
  const eval::Session before(std::move(original));
  const eval::Session after(std::move(optimized));
  const std::vector<eval::RuntimeValue> expected = before.run(inputs);
  const std::vector<eval::RuntimeValue> actual = after.run(inputs);
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(eval::compare_values(expected[i], actual[i], {0, 0}, fmt::format("output {}", i)),
              "");
}

}  // namespace onnxscript::testing
