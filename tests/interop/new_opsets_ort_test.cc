// Reference cases for the operator versions beyond libonnx 1.12 (ai.onnx 18+,
// ai.onnx.ml 4+), run in ONNX Runtime 1.30 and in our Session.
//
// For every such version that a vendored ONNX 1.22 node case uses, the first
// case (in name order) that ONNX Runtime can load (opset <= 26, tensors only)
// runs in both: ONNX Runtime's outputs are compared with ONNX's expected data,
// and ours with ONNX Runtime's. So each new kernel is checked against a
// second implementation, not only against the data it was written to pass.
// Where ONNX Runtime departs from the expected data, the case is listed below
// with the reason, and only our Session is compared.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "interop/ort_runner.h"
#include "onnxscript/eval/conformance.h"
#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::testing {
namespace {

namespace fs = std::filesystem;

// The newest opset of each domain that libonnx 1.12 knows: versions above
// these are the ones this test is about.
int64_t libonnx_newest(const std::string& domain) {
  if (domain.empty() || domain == "ai.onnx") return 17;
  if (domain == "ai.onnx.ml") return 3;
  return 0;  // ai.onnx.preview: every version is new
}

// ONNX Runtime 1.30 loads ai.onnx up to 26 and ai.onnx.ml up to 5, and has
// no ai.onnx.preview kernels.
bool onnxruntime_loads(const ir::Model& model) {
  for (const auto& [domain, version] : model.opset_imports.entries()) {
    if ((domain.empty() || domain == "ai.onnx") && version > 26) return false;
    if (domain == "ai.onnx.ml" && version > 5) return false;
    if (domain == "ai.onnx.preview") return false;
  }
  return true;
}

bool tensors_only(const ir::Graph& graph) {
  for (const ir::Value* v : graph.inputs())
    if (!v->type() || !v->type()->is_tensor()) return false;
  for (const ir::Value* v : graph.outputs())
    if (!v->type() || !v->type()->is_tensor()) return false;
  return true;
}

// "Op-N" for every node of the main graph whose schema version is beyond
// libonnx 1.12 (e.g. "ReduceMax-18", "ai.onnx.ml.LabelEncoder-4").
std::set<std::string> new_versions_used(const ir::Model& model) {
  std::set<std::string> used;
  for (const ir::Node* node : model.graph().nodes()) {
    const std::optional<int64_t> opset = model.opset_imports.find(node->domain());
    if (!opset) continue;
    const std::optional<int64_t> since =
        eval::schema_version(node->domain(), node->op_type(), *opset);
    if (!since || *since <= libonnx_newest(node->domain())) continue;
    used.insert(fmt::format("{}{}{}-{}", node->domain(), node->domain().empty() ? "" : ".",
                            node->op_type(), *since));
  }
  return used;
}

// Operator versions ONNX Runtime 1.30 has no kernel for, or whose outputs
// are random draws: cases that use them are not chosen.
const std::map<std::string, std::string>& versions_not_compared() {
  static const std::map<std::string, std::string> versions = {
      {"RoiAlign-22", "ONNX Runtime 1.30 registers no RoiAlign-22 kernel"},
      {"ImageDecoder-20", "ONNX Runtime 1.30 registers no ImageDecoder kernel"},
      {"RandomUniformLike-22", "random draws (and ONNX Runtime 1.30 has no kernel for it)"},
      {"Bernoulli-22", "random draws"},
  };
  return versions;
}

// Cases ONNX Runtime 1.30 refuses although it has the operator: another
// case of the same version is chosen when there is one.
const std::map<std::string, std::string>& cases_onnxruntime_rejects() {
  static const std::map<std::string, std::string> cases = {
      {"test_gru_batchwise", "ONNX Runtime's CPU GRU supports only layout 0"},
      {"test_attention_4d_diff_heads_mask4d_padded_kv",
       "ONNX Runtime's Attention rejects nonpad_kv_seqlen with a 4-D mask when computing the "
       "output shape"},
  };
  return cases;
}

// Cases whose expected data ONNX Runtime 1.30 does not reproduce, with why.
// Our Session is still compared with the expected data there.
const std::map<std::string, std::string>& onnxruntime_departures() {
  static const std::map<std::string, std::string> departures = {
      {"test_dft",
       "ONNX Runtime's float32 DFT gives errors up to 1.6e-4 where the exact result is 0 "
       "(ours, computed in double, is within 1e-7)"},
  };
  return departures;
}

// element types onnxruntime-node's .npy bridge (tests/interop/ort_run.mjs)
// cannot carry: float8, 4-bit and 2-bit types, bfloat16, complex.
bool npy_bridge_carries(ir::DataType t) {
  switch (t) {
    case ir::DataType::kFloat:
    case ir::DataType::kDouble:
    case ir::DataType::kFloat16:
    case ir::DataType::kInt8:
    case ir::DataType::kInt16:
    case ir::DataType::kInt32:
    case ir::DataType::kInt64:
    case ir::DataType::kUint8:
    case ir::DataType::kUint16:
    case ir::DataType::kUint32:
    case ir::DataType::kUint64:
    case ir::DataType::kBool:
    case ir::DataType::kString:
      return true;
    default:
      return false;
  }
}

bool bridge_carries_all(const ir::Graph& graph) {
  for (const ir::Value* v : graph.inputs())
    if (!npy_bridge_carries(v->type()->elem_type)) return false;
  for (const ir::Value* v : graph.outputs())
    if (!npy_bridge_carries(v->type()->elem_type)) return false;
  return true;
}

struct ChosenCase {
  fs::path dir;
  std::set<std::string> versions;  // the new versions it is chosen for
};

// One case per new version, the first in name order that ONNX Runtime can run.
std::vector<ChosenCase> choose_cases(std::set<std::string>* uncovered) {
  const fs::path root = fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22" / "node";
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root)) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  std::set<std::string> covered;
  std::vector<ChosenCase> chosen;
  for (const fs::path& dir : dirs) {
    const ir::Model model = serde::load_model(dir / "model.onnx");
    const std::set<std::string> used = new_versions_used(model);
    bool runnable = onnxruntime_loads(model) && tensors_only(model.graph()) &&
                    bridge_carries_all(model.graph()) &&
                    !cases_onnxruntime_rejects().count(dir.filename().string());
    for (const std::string& v : used) runnable = runnable && !versions_not_compared().count(v);
    ChosenCase c{dir, {}};
    for (const std::string& v : used) {
      if (covered.count(v)) continue;
      if (!runnable) {
        uncovered->insert(v);
        continue;
      }
      c.versions.insert(v);
      covered.insert(v);
    }
    if (!c.versions.empty()) chosen.push_back(std::move(c));
  }
  for (const std::string& v : covered) uncovered->erase(v);
  return chosen;
}

std::vector<eval::RuntimeValue> load_numbered(const fs::path& data_dir, const char* prefix) {
  std::vector<eval::RuntimeValue> values;
  for (int i = 0;; ++i) {
    const fs::path file = data_dir / fmt::format("{}_{}.pb", prefix, i);
    if (!fs::exists(file)) break;
    values.push_back(eval::load_value_pb(file, "tensor"));
  }
  return values;
}

TEST(NewOpsetsInOnnxRuntime, EachNewVersionAgreesWithOnnxRuntimeAndTheExpectedData) {
  ASSERT_TRUE(onnxruntime_available()) << onnxruntime_unavailable_reason();
  std::set<std::string> uncovered;
  const std::vector<ChosenCase> cases = choose_cases(&uncovered);
  size_t versions = 0;
  for (const ChosenCase& c : cases) versions += c.versions.size();
  // ONNX 1.22's cases use well over a hundred of the new versions at opsets
  // ONNX Runtime loads; a drop means the selection above broke.
  EXPECT_GE(versions, 120u);
  const eval::Tolerance tolerance{1e-3, 1e-4};
  for (const ChosenCase& c : cases) {
    const std::string name = c.dir.filename().string();
    SCOPED_TRACE(fmt::format("{} (for {})", name, fmt::join(c.versions, ", ")));
    const fs::path data = c.dir / "test_data_set_0";
    const std::vector<eval::RuntimeValue> inputs = load_numbered(data, "input");
    const std::vector<eval::RuntimeValue> expected = load_numbered(data, "output");
    std::vector<ir::Tensor> input_tensors;
    for (const eval::RuntimeValue& v : inputs) input_tensors.push_back(v.tensor());

    eval::SessionOptions options;
    options.check_input_shapes = false;  // as the conformance runner: some data disagree
    std::vector<eval::RuntimeValue> ours;
    try {
      ours = eval::Session(serde::load_model(c.dir / "model.onnx"), options).run(inputs);
    } catch (const Error& e) {
      ADD_FAILURE() << "our Session could not run it: " << e.what();
      continue;
    }

    std::vector<eval::RuntimeValue> ort;
    try {
      ort = run_in_onnxruntime(c.dir / "model.onnx", input_tensors);
    } catch (const Error& e) {
      ADD_FAILURE() << "ONNX Runtime could not run it: " << e.what();
      continue;
    }
    ASSERT_EQ(ort.size(), expected.size());
    ASSERT_EQ(ours.size(), expected.size());
    const bool departs = onnxruntime_departures().count(name) > 0;
    for (size_t i = 0; i < expected.size(); ++i) {
      const std::string what = fmt::format("output {}", i);
      EXPECT_EQ(eval::compare_values(expected[i], ours[i], tolerance, what), "") << "ours";
      if (departs) continue;
      EXPECT_EQ(eval::compare_values(expected[i], ort[i], tolerance, what), "") << "ONNX Runtime";
      EXPECT_EQ(eval::compare_values(ort[i], ours[i], tolerance, what), "") << "ours vs ORT";
    }
  }
  std::cout << fmt::format(
      "[ reference ] {} new operator versions checked in ONNX Runtime 1.30 through {} cases; "
      "{} only in cases it cannot run: {}\n",
      versions, cases.size(), uncovered.size(), fmt::join(uncovered, ", "));
}

}  // namespace
}  // namespace onnxscript::testing
