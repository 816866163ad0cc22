#pragma once
// Helpers for the rewriter's tests: rewrite a model in the textual syntax and
// print the result with what fired, and check that the rewritten model
// computes what the original does.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "onnxscript/eval/conformance.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/rewriter/rules.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::testing {

/// `model` after the "rewrite" pass with `rules`, run to its fixed point,
/// printed, then one comment line per rule that fired.
inline std::string rewritten_text(ir::Model& model, std::vector<rewriter::Rule> rules) {
  std::vector<std::unique_ptr<optimizer::Pass>> passes;
  passes.push_back(rewriter::make_rewrite_pass(std::move(rules)));
  const auto* pass = static_cast<const rewriter::RewritePass*>(passes.back().get());
  optimizer::PassManager manager(std::move(passes));
  manager.run(model);
  std::string out = text::print_model(model);
  for (const auto& [name, n] : pass->fired()) out += fmt::format("# {}: fired {}\n", name, n);
  out += fmt::format("# rewrite: {} nodes rewritten\n", pass->counts().nodes_rewritten);
  return out;
}

/// As above, for a model in the textual syntax.
inline std::string rewritten_text(std::string_view text, std::vector<rewriter::Rule> rules) {
  ir::Model model = text::parse_model(text);
  return rewritten_text(model, std::move(rules));
}

/// Runs `text` as it is and after optimize_with_rewrites(`rules`) on
/// `inputs`, and expects the same outputs within `tolerance`.
inline void expect_same_results(std::string_view text,
                                const std::vector<eval::RuntimeValue>& inputs,
                                std::vector<rewriter::Rule> rules,
                                eval::Tolerance tolerance = {1e-5, 1e-6}) {
  ir::Model original = text::parse_model(text);
  ir::Model rewritten = text::parse_model(text);
  rewriter::optimize_with_rewrites(rewritten, {}, std::move(rules));
  const eval::Session before(std::move(original));
  const eval::Session after(std::move(rewritten));
  const std::vector<eval::RuntimeValue> expected = before.run(inputs);
  const std::vector<eval::RuntimeValue> actual = after.run(inputs);
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(eval::compare_values(expected[i], actual[i], tolerance, fmt::format("output {}", i)),
              "");
}

/// How many nodes of operator `op` the main graph of `text` has after
/// optimize_with_rewrites(`rules`).
inline size_t count_after(std::string_view text, std::string_view op,
                          std::vector<rewriter::Rule> rules) {
  ir::Model model = text::parse_model(text);
  rewriter::optimize_with_rewrites(model, {}, std::move(rules));
  size_t n = 0;
  for (const ir::Node* node : model.graph().nodes()) n += node->op_type() == op;
  return n;
}

}  // namespace onnxscript::testing
