// examples/chunk.cc: a function with attributes and a data-dependent If, and
// a model returning a sequence. The model passes the checker, its text is
// pinned, and eager mode, a Session and ONNX Runtime give the pieces that
// torch.chunk's rule, computed here, predicts.

#include <gtest/gtest.h>

#include <vector>

#define ONNXSCRIPT_EXAMPLE_NO_MAIN
#include "chunk.cc"
#include "golden.h"
#include "interop/ort_runner.h"
#include "onnxscript/check/check.h"
#include "onnxscript/serde/serde.h"

namespace {

using namespace onnxscript;

// torch.chunk's piece lengths: ceil(n / chunks) each, the last one shorter.
std::vector<int64_t> chunk_lengths(int64_t n, int64_t chunks) {
  const int64_t per = (n + chunks - 1) / chunks;
  std::vector<int64_t> lengths;
  for (int64_t start = 0; start < n; start += per) lengths.push_back(std::min(per, n - start));
  return lengths;
}

void expect_pieces(const eval::RuntimeValue& pieces, const Tensor& x, const char* what) {
  ASSERT_TRUE(pieces.is_sequence()) << what << ": " << pieces.describe();
  const auto& items = pieces.sequence().items;
  const std::vector<int64_t> lengths = chunk_lengths(x.numel(), 10);
  ASSERT_EQ(items.size(), lengths.size()) << what;
  int64_t offset = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const Tensor& piece = items[i].tensor();
    ASSERT_EQ(piece.shape(), (std::vector<int64_t>{lengths[i]})) << what << " piece " << i;
    for (int64_t j = 0; j < lengths[i]; ++j) {
      EXPECT_EQ(piece.data<float>()[j], x.data<float>()[offset + j]) << what << " piece " << i;
    }
    offset += lengths[i];
  }
}

// ONNX Runtime's Node binding cannot return sequence outputs, so ORT runs this
// wrapper instead: the same aten_chunk call, with the pieces' count, their
// lengths (a SequenceMap over the pieces) and the pieces concatenated back as
// tensor outputs.
const Function ten_chunks_summary = script("ten_chunks_summary", {"tensor"}, [](FLOAT<"M"> tensor) {
  Value pieces = aten_chunk(tensor, 10);
  const Graph length =
      graph("length", {"piece"}, [](FLOAT<AnyRank> piece) { return op::Shape(piece); });
  Value lengths =
      op::ConcatFromSequence(op::SequenceMap(pieces, {}, {.body = length})[0], {.axis = 0});
  return std::tuple{op::SequenceLength(pieces), lengths,
                    op::ConcatFromSequence(pieces, {.axis = 0})};
});

void expect_summary(const std::vector<eval::RuntimeValue>& outs, const Tensor& x,
                    const char* what) {
  ASSERT_EQ(outs.size(), 3u) << what;
  const std::vector<int64_t> lengths = chunk_lengths(x.numel(), 10);
  EXPECT_EQ(outs[0].tensor().at<int64_t>({}), static_cast<int64_t>(lengths.size())) << what;
  EXPECT_TRUE(outs[1].tensor().same_contents(Tensor::from_span<int64_t>(lengths))) << what;
  EXPECT_TRUE(outs[2].tensor().same_contents(x)) << what;
}

// aten_chunk's `dim` default is a function attribute default, an IR 9
// feature, and libonnx 1.12's checker stops at IR 8. This is the same model
// with that default written at the call site instead, which IR 8 can say.
ir::Model with_defaults_at_call_sites(ir::Model model) {
  for (const auto& fn : model.functions()) {
    if (fn->attribute_defaults.empty()) continue;
    for (ir::Node* node : model.graph().nodes()) {
      if (node->op_type() != fn->name || node->domain() != fn->domain) continue;
      for (const ir::Attribute& d : fn->attribute_defaults)
        if (!node->attribute(d.name)) node->set_attribute(d);
    }
    for (const ir::Attribute& d : fn->attribute_defaults) fn->attribute_names.push_back(d.name);
    fn->attribute_defaults.clear();
  }
  model.ir_version = 8;
  return model;
}

TEST(Chunk, ExportedModelPassesTheChecker) {
  const ir::Model model = ten_chunks_model.to_model();
  EXPECT_EQ(model.ir_version, 9) << "the dim default needs IR 9";
  const check::CheckResult result =
      check::check_model(with_defaults_at_call_sites(ten_chunks_model.to_model()));
  EXPECT_TRUE(result.ok()) << result.skipped_reason << ::testing::PrintToString(result.errors);
  const check::CheckResult summary =
      check::check_model(with_defaults_at_call_sites(ten_chunks_summary.to_model()));
  EXPECT_TRUE(summary.ok()) << summary.skipped_reason << ::testing::PrintToString(summary.errors);
}

TEST(Chunk, EagerGivesEightPiecesOfThreeAndOneOfOne) {
  const Tensor x = Tensor::arange<float>(0, 25);
  const eval::RuntimeValue pieces = ten_chunks_model(x);
  expect_pieces(pieces, x, "eager");
  ASSERT_EQ(pieces.sequence().items.size(), 9u);
  EXPECT_EQ(pieces.sequence().items.back().tensor().numel(), 1);
  // Without a remainder the else branch runs: 30 elements, ten pieces of 3.
  const Tensor y = Tensor::arange<float>(0, 30);
  expect_pieces(ten_chunks_model(y), y, "eager, no remainder");
  // The summary wrapper runs eagerly too, SequenceMap included.
  const Outputs summary = ten_chunks_summary(x);
  expect_summary({summary[0].concrete(), summary[1].concrete(), summary[2].concrete()}, x,
                 "eager summary");
}

TEST(Chunk, SessionOnExportedModelGivesThePieces) {
  eval::Session session(ten_chunks_model.to_model());
  eval::Session summary(ten_chunks_summary.to_model());
  for (int64_t n : {25, 30, 7}) {
    const Tensor x = Tensor::arange<float>(0, static_cast<float>(n));
    expect_pieces(session.run({x}).at(0), x, "session");
    expect_summary(summary.run({x}), x, "session summary");
  }
}

TEST(Chunk, OnnxRuntimeOnSummaryModelGivesThePieces) {
  const ir::Model model = ten_chunks_summary.to_model();
  for (int64_t n : {25, 30, 7}) {
    const Tensor x = Tensor::arange<float>(0, static_cast<float>(n));
    expect_summary(onnxscript::testing::run_in_onnxruntime(model, {x}), x, "onnxruntime");
  }
}

TEST(Golden, Chunk) {
  onnxscript::testing::expect_golden("examples/chunk", ten_chunks_model.to_text());
}

}  // namespace
