#pragma once
// Helpers the script tests share: what a traced graph holds, and whether the
// ONNX checker accepts a model.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxscript/check/check.h"
#include "onnxscript/ir/ir.h"

namespace onnxscript::testing {

/// The operator types of `g`'s nodes, in order.
inline std::vector<std::string> op_types(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const ir::Node* n : g.nodes()) out.push_back(n->op_type());
  return out;
}

/// Expects `onnxscript check` (libonnx where it applies, and the validator) to accept `model`.
inline void expect_checker_accepts(const ir::Model& model) {
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.ok()) << result.skipped_reason << ::testing::PrintToString(result.errors);
}

}  // namespace onnxscript::testing
