// libonnx 1.12 and the project's validator agree on the test models: every
// model of libonnx-testdata 1.12 and of the vendored ONNX 1.22 node suite is
// accepted by the validator, and by libonnx where libonnx applies.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "check/check_test_util.h"
#include "onnxscript/check/check.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript {
namespace {

using check_test::any_contains;
using check_test::joined;

namespace fs = std::filesystem;

std::vector<fs::path> models_under(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Test models that are not valid, with why, and a fragment each checker's
// message must contain. Both checkers must still reject them.
struct KnownInvalid {
  const char* reason;
  const char* libonnx_fragment;
  const char* ours_fragment;
};
// PyTorch's exporter of the time wrote Constant-1 nodes holding int64 (a
// Reshape's shape, a Tile's repeats) into opset 6 models, and Constant-1's T
// allows float16, float and double only: libonnx's strict inference and the
// validator's check of the inferred type both say so.
constexpr KnownInvalid kInt64Constant1 = {
    "opset 6: a Constant-1 node holds an int64 tensor, which Constant-1's T does not allow",
    "output has unsupported type tensor(int64)",
    "has type tensor(int64), which type parameter T of Constant-1 does not allow"};
const std::map<std::string, KnownInvalid> kKnownInvalid = {
    {"pytorch-converted/test_PixelShuffle", kInt64Constant1},
    {"pytorch-operator/test_operator_repeat", kInt64Constant1},
    {"pytorch-operator/test_operator_repeat_dim_overflow", kInt64Constant1},
};

const KnownInvalid* known_invalid(const fs::path& model) {
  const std::string key = model.parent_path().parent_path().filename().string() + "/" +
                          model.parent_path().filename().string();
  auto it = kKnownInvalid.find(key);
  return it == kKnownInvalid.end() ? nullptr : &it->second;
}

struct Counts {
  size_t models = 0, by_libonnx = 0, known_invalid = 0;
};

Counts check_corpus(const fs::path& dir) {
  Counts counts;
  for (const fs::path& path : models_under(dir)) {
    SCOPED_TRACE(path.string());
    ++counts.models;
    const ir::Model model = serde::load_model(path);
    const check::CheckResult result = check::check_model(model);
    EXPECT_TRUE(result.checked) << result.skipped_reason;
    const std::vector<std::string> ours = check::validate_model(model);
    std::vector<std::string> theirs;
    const bool libonnx_applies = !serde::beyond_libonnx(model);
    EXPECT_EQ(result.libonnx_checked, libonnx_applies);
    if (libonnx_applies) {
      ++counts.by_libonnx;
      theirs = serde::check_with_libonnx(model);
    }
    if (const KnownInvalid* k = known_invalid(path)) {
      ++counts.known_invalid;
      EXPECT_TRUE(any_contains(ours, k->ours_fragment)) << k->reason << joined(ours);
      if (libonnx_applies) {
        EXPECT_TRUE(any_contains(theirs, k->libonnx_fragment)) << k->reason << joined(theirs);
      }
      continue;
    }
    EXPECT_TRUE(ours.empty()) << "the validator rejects it:" << joined(ours);
    EXPECT_TRUE(theirs.empty()) << "libonnx rejects it:" << joined(theirs);
    EXPECT_TRUE(result.ok()) << joined(result.errors);
  }
  return counts;
}

TEST(CheckAgreement, Libonnx112NodeModels) {
  const Counts c = check_corpus(fs::path(ONNX_TESTDATA_DIR) / "node");
  EXPECT_EQ(c.models, 932u);
  EXPECT_EQ(c.by_libonnx, c.models);  // the 1.12 suite is within libonnx's bounds
}

TEST(CheckAgreement, Libonnx112SimpleModels) {
  const Counts c = check_corpus(fs::path(ONNX_TESTDATA_DIR) / "simple");
  EXPECT_EQ(c.models, 23u);
  EXPECT_EQ(c.by_libonnx, c.models);
}

TEST(CheckAgreement, Libonnx112PytorchConvertedModels) {
  const Counts c = check_corpus(fs::path(ONNX_TESTDATA_DIR) / "pytorch-converted");
  EXPECT_EQ(c.models, 82u);
  EXPECT_EQ(c.known_invalid, 1u);
}

TEST(CheckAgreement, Libonnx112PytorchOperatorModels) {
  const Counts c = check_corpus(fs::path(ONNX_TESTDATA_DIR) / "pytorch-operator");
  EXPECT_EQ(c.models, 35u);
  EXPECT_EQ(c.known_invalid, 2u);
}

// Every vendored ONNX 1.22 case: the validator alone for the models beyond
// libonnx (IR 9-13, opset 18-28), both where libonnx applies.
TEST(CheckAgreement, Onnx122NodeModels) {
  const Counts c = check_corpus(fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22" / "node");
  EXPECT_EQ(c.models, 804u);
  EXPECT_LT(c.by_libonnx, c.models);
}

}  // namespace
}  // namespace onnxscript
