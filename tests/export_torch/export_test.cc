// The PyTorch exporter end to end: TorchScript modules defined here with
// LibTorch (no Python), exported, and run in our Session and in ONNX
// Runtime 1.30 against LibTorch's own forward.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "interop/ort_runner.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/export/torch_module.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::torch {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

at::Tensor from_ours(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DataType::kFloat);
  std::vector<int64_t> sizes(t.shape().begin(), t.shape().end());
  return at::from_blob(const_cast<void*>(t.raw_data()), sizes, at::kFloat).clone();
}

Tensor to_ours(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  std::vector<int64_t> sizes(c.sizes().begin(), c.sizes().end());
  Tensor out(DataType::kFloat, sizes);
  std::memcpy(out.raw_data(), c.data_ptr(), c.nbytes());
  return out;
}

// max |a - b| over two float tensors of one shape.
double max_diff(const Tensor& ours, const at::Tensor& theirs) {
  EXPECT_EQ(std::vector<int64_t>(ours.shape().begin(), ours.shape().end()),
            std::vector<int64_t>(theirs.sizes().begin(), theirs.sizes().end()));
  return (from_ours(ours) - theirs).abs().max().item<double>();
}

::torch::jit::Module linear_relu() {
  ::torch::manual_seed(0);
  ::torch::jit::Module m("LinearRelu");
  m.register_parameter("weight", ::torch::randn({3, 4}), false);
  m.register_parameter("bias", ::torch::randn({3}), false);
  m.define(R"(
def forward(self, x):
    return torch.relu(torch.linear(x, self.weight, self.bias))
)");
  return m;
}

::torch::jit::Module small_cnn() {
  ::torch::manual_seed(1);
  ::torch::jit::Module m("SmallCnn");
  m.register_parameter("conv_w", ::torch::randn({4, 2, 3, 3}) * 0.3, false);
  m.register_parameter("conv_b", ::torch::randn({4}) * 0.1, false);
  m.register_buffer("bn_mean", ::torch::randn({4}) * 0.1);
  m.register_buffer("bn_var", ::torch::rand({4}) + 0.5);
  m.register_parameter("bn_w", ::torch::rand({4}) + 0.5, false);
  m.register_parameter("bn_b", ::torch::randn({4}) * 0.1, false);
  m.register_parameter("fc_w", ::torch::randn({5, 16}) * 0.2, false);
  m.register_parameter("fc_b", ::torch::randn({5}) * 0.1, false);
  m.define(R"(
def forward(self, x):
    y = torch.conv2d(x, self.conv_w, self.conv_b, [1, 1], [1, 1], [1, 1], 1)
    y = torch.batch_norm(y, self.bn_w, self.bn_b, self.bn_mean, self.bn_var, False, 0.1, 1e-5, False)
    y = torch.relu(y)
    y = torch.max_pool2d(y, [2, 2], [2, 2], [0, 0], [1, 1], False)
    y = torch.adaptive_avg_pool2d(y, [2, 2])
    y = torch.flatten(y, 1)
    return torch.softmax(torch.linear(y, self.fc_w, self.fc_b), 1)
)");
  return m;
}

TEST(TorchExport, LinearReluMatchesLibTorchInOurSessionAndInOnnxRuntime) {
  ::torch::jit::Module m = linear_relu();
  const at::Tensor x = ::torch::randn({2, 4});
  const at::Tensor expected = m.forward({x}).toTensor();
  const ONNXProgram program = export_module(m, {to_ours(x)});
  // The weights are initializers named after their parameters.
  std::vector<std::string> names;
  for (const ir::Value* v : program.model().graph().initializers()) names.push_back(v->name());
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("weight", "bias"));
  EXPECT_EQ(program.model().opset_imports.find(""), 18);
  EXPECT_LT(max_diff(program.run({to_ours(x)}).at(0).tensor(), expected), 1e-6);
  ASSERT_TRUE(testing::onnxruntime_available()) << testing::onnxruntime_unavailable_reason();
  const auto ort = testing::run_in_onnxruntime(program.model(), {to_ours(x)});
  EXPECT_LT(max_diff(ort.at(0).tensor(), expected), 1e-6);
}

TEST(TorchExport, ASmallCnnMatchesLibTorch) {
  ::torch::jit::Module m = small_cnn();
  const at::Tensor x = ::torch::randn({3, 2, 8, 8});
  const at::Tensor expected = m.forward({x}).toTensor();
  const ONNXProgram program = export_module(m, {to_ours(x)});
  EXPECT_LT(max_diff(program.run({to_ours(x)}).at(0).tensor(), expected), 1e-5);
  const auto ort = testing::run_in_onnxruntime(program.model(), {to_ours(x)});
  EXPECT_LT(max_diff(ort.at(0).tensor(), expected), 1e-5);
}

TEST(TorchExport, NamedDimensionsAcceptOtherSizes) {
  ::torch::jit::Module m = linear_relu();
  ExportOptions options;
  options.dynamic_shapes[0] = {{0, "batch"}};
  const ONNXProgram program = export_module(m, {to_ours(::torch::randn({2, 4}))}, options);
  EXPECT_EQ(program.model().graph().inputs()[0]->type()->to_string(), "float[batch,4]");
  const at::Tensor x = ::torch::randn({5, 4});
  EXPECT_LT(max_diff(program.run({to_ours(x)}).at(0).tensor(), m.forward({x}).toTensor()), 1e-6);
}

TEST(TorchExport, EveryUnsupportedOperatorIsReportedWithItsSourceLine) {
  ::torch::jit::Module m("Unsupported");
  m.define(R"(
def forward(self, x):
    a = torch.cumsum(x, 0)
    b = torch.erfinv(x)
    return torch.relu(a + b)
)");
  try {
    export_module(m, {to_ours(::torch::randn({3}))});
    FAIL() << "expected ExporterError";
  } catch (const ExporterError& e) {
    ASSERT_EQ(e.diagnostics().size(), 2u) << e.what();
    EXPECT_EQ(e.diagnostics()[0].node, "aten::cumsum");
    EXPECT_THAT(e.diagnostics()[0].source, HasSubstr("torch.cumsum(x, 0)"));
    EXPECT_EQ(e.diagnostics()[1].node, "aten::erfinv");
    EXPECT_THAT(std::string(e.what()), HasSubstr("2 problems"));
  }
}

TEST(TorchExport, AUserFunctionFillsAGap) {
  ::torch::jit::Module m("Cumsum");
  m.define(R"(
def forward(self, x):
    return torch.cumsum(x, 0)
)");
  auto registry = std::make_shared<torch_lib::Registry>(torch_lib::torchlib_registry());
  // `dim` is an attribute of the function (ONNX's CumSum takes the axis as
  // an input: the attribute used as a value gives it); dtype is None here.
  const Function cumsum =
      script("cumsum", {"self", "dim"}, [](FLOAT<AnyRank> self, Attr<int64_t> dim) {
        return onnxscript::opset18::CumSum(self, dim);
      });
  registry->register_op(cumsum, "aten::cumsum",
                        "aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
  ExportOptions options;
  options.registry = registry;
  const at::Tensor x = ::torch::tensor({1.0f, 2.0f, 3.0f});
  const ONNXProgram program = export_module(m, {to_ours(x)}, options);
  EXPECT_LT(max_diff(program.run({to_ours(x)}).at(0).tensor(), m.forward({x}).toTensor()), 1e-6);
}

TEST(TorchExport, SaveWithAndWithoutWeights) {
  ::torch::jit::Module m = linear_relu();
  const at::Tensor x = ::torch::randn({2, 4});
  const ONNXProgram program = export_module(m, {to_ours(x)});
  const fs::path dir = fs::temp_directory_path() / "onnxscript_export_save";
  fs::create_directories(dir);
  program.save(dir / "full.onnx");
  const ir::Model full = serde::load_model(dir / "full.onnx");
  EXPECT_EQ(full.graph().initializers().size(), 2u);
  EXPECT_EQ(full.graph().inputs().size(), 1u);
  program.save(dir / "as_inputs.onnx", {.keep_initializers_as_inputs = true});
  const ir::Model as_inputs = serde::load_model(dir / "as_inputs.onnx");
  EXPECT_EQ(as_inputs.graph().inputs().size(), 3u);
  EXPECT_EQ(as_inputs.graph().initializers().size(), 2u);
  program.save(dir / "no_weights.onnx", {.include_initializers = false});
  const ir::Model bare = serde::load_model(dir / "no_weights.onnx");
  EXPECT_EQ(bare.graph().initializers().size(), 0u);
  EXPECT_EQ(bare.graph().inputs().size(), 3u);
  EXPECT_LT(fs::file_size(dir / "no_weights.onnx"), fs::file_size(dir / "full.onnx"));
  fs::remove_all(dir);
}

// torchvision models, traced by Debian's python3-torch (the test makes its
// input files with Python; the exporter needs none) with batch norm
// statistics and scales drawn at random, so that outputs are not the
// near-zero of default initialization.
TEST(TorchExport, TorchvisionModelsMatchLibTorch) {
  const fs::path dir = fs::temp_directory_path() / "onnxscript_export_torchvision";
  fs::create_directories(dir);
  const std::string script = R"(
import sys, torch, torchvision
torch.manual_seed(0)
for name in sys.argv[2:]:
    m = getattr(torchvision.models, name)(weights=None).eval()
    for mod in m.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.weight.data.uniform_(0.5, 1.5); mod.bias.data.normal_(0, 0.1)
            mod.running_mean.normal_(0, 0.1); mod.running_var.uniform_(0.5, 1.5)
    torch.jit.trace(m, torch.randn(1, 3, 64, 64)).save(sys.argv[1] + '/' + name + '.pt')
)";
  const std::vector<std::string> models = {"resnet18", "mobilenet_v2"};
  std::string command = "/usr/bin/python3 -c \"" + script + "\" " + dir.string();
  for (const std::string& m : models) command += " " + m;
  ASSERT_EQ(std::system(command.c_str()), 0) << "python3-torchvision is needed to make the models";
  for (const std::string& name : models) {
    SCOPED_TRACE(name);
    ::torch::manual_seed(0);
    const at::Tensor x = ::torch::randn({2, 3, 64, 64});
    ::torch::jit::Module module = ::torch::jit::load((dir / (name + ".pt")).string());
    const at::Tensor expected = module.forward({x}).toTensor();
    ASSERT_GT(expected.abs().max().item<double>(), 1e-3) << "degenerate reference output";
    ExportOptions options;
    options.dynamic_shapes[0] = {{0, "batch"}};
    const ONNXProgram program =
        export_module(dir / (name + ".pt"), {to_ours(::torch::randn({1, 3, 64, 64}))}, options);
    const double scale = expected.abs().max().item<double>();
    EXPECT_LT(max_diff(program.run({to_ours(x)}).at(0).tensor(), expected), 1e-4 * scale);
    const auto ort = testing::run_in_onnxruntime(program.model(), {to_ours(x)});
    EXPECT_LT(max_diff(ort.at(0).tensor(), expected), 1e-4 * scale);
  }
  fs::remove_all(dir);
}

TEST(TorchExport, AMissingFileIsAnIoError) {
  EXPECT_THROW(export_module(fs::path("/nonexistent/model.pt"), {}), IoError);
}

}  // namespace
}  // namespace onnxscript::torch
