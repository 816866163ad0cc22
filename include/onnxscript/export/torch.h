#pragma once
/// \file
/// The PyTorch exporter: TorchScript modules (`torch.jit.save` files) to
/// ONNX through torchlib (onnxscript/torch_lib/registry.h). This header does
/// not include LibTorch; onnxscript/export/torch_module.h adds the overload
/// that takes a loaded `torch::jit::Module`. Link `onnxscript_torch_export`
/// (built with the CMake option ONNXSCRIPT_WITH_TORCH).
///
/// What it does: load, inline, fold constants, then map every node to ONNX:
/// `aten::` nodes through the registry by qualified name and overload, the
/// module's attributes to named initializers (without copying them), `prim::`
/// constants, lists, tuples and control flow directly. Failures are collected for the whole graph
/// and thrown together as ExporterError, each with the TorchScript source line.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/model.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/support/error.h"
#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::eval {
class Session;
}  // namespace onnxscript::eval

namespace onnxscript::torch {

/// The registry the exporter dispatches through, under upstream's name
/// (torch.onnx.OnnxRegistry): torchlib's functions by qualified ATen name,
/// extendable with register_op. Copy torch_lib::torchlib_registry() to
/// extend it and pass it as ExportOptions::registry.
using OnnxRegistry = torch_lib::Registry;

/// How to export.
struct ExportOptions {
  /// The ai.onnx opset of the model. torchlib is written against 18.
  int64_t opset_version = 18;
  /// Named dimensions: input index -> (axis -> name). Those axes of the
  /// model's inputs get the name instead of the example's size.
  std::map<size_t, std::map<int64_t, std::string>> dynamic_shapes;
  /// The registry to dispatch through; torchlib's when null.
  std::shared_ptr<const OnnxRegistry> registry;
  /// 0: quiet; 1: a line per unsupported operator on stderr as found.
  int verbosity = 0;
  /// Where to write a report of the export: `onnx_export_<UTC timestamp>.md`
  /// (each step's status, the diagnostics with their source lines, the
  /// TorchScript graph's operator counts and text) and a `.sarif` of the
  /// same stem (SARIF 2.1.0, one result per diagnostic). Written when the
  /// export fails and when it succeeds; the folder is created if needed.
  std::optional<std::filesystem::path> report_dir;
  /// Warnings (what validating the exported model finds) fail the export
  /// as errors do. The model is validated when this is set or a report is
  /// asked for.
  bool warnings_as_errors = false;
  /// Export the weights' data. The model's initializers then view the
  /// module's tensors (nothing is copied: the program shares memory with
  /// the module, as upstream's ONNXProgram shares torch tensors). False is
  /// upstream's fake mode: the graph is exported with every weight declared
  /// (a graph input of its name, type and shape) and no data kept, so the
  /// module's tensors are released with the module; ONNXProgram::apply_weights
  /// binds the data later.
  bool include_weights = true;
  /// Called with a one-line message as each step starts and ends ("load",
  /// "freeze", "translate", ...), for progress on long exports; may be empty.
  std::function<void(const std::string&)> progress;
};

/// How serious a diagnostic is.
enum class DiagnosticLevel {
  kError,    ///< The export cannot produce a model.
  kWarning,  ///< The model was produced but something about it is doubtful.
};

/// One thing the exporter could not export.
struct ExportDiagnostic {
  std::string node;     ///< The TorchScript node kind, e.g. "aten::lstm".
  std::string message;  ///< What went wrong.
  std::string source;   ///< The user's Python source line TorchScript kept, if any.
  /// The kind of problem, stable for tools (the SARIF ruleId):
  /// "unsupported-operator", "unsupported-construct", "type-error",
  /// "translation-error", "invalid-output", "validation", "load-error",
  /// "export-error". Empty is read as "translation-error".
  std::string rule;
  DiagnosticLevel level = DiagnosticLevel::kError;  ///< How serious it is.
};

/// Export failed: every diagnostic of the graph, not only the first.
class ExporterError : public Error {
 public:
  /// Lists `diagnostics` in the message.
  explicit ExporterError(std::vector<ExportDiagnostic> diagnostics);
  /// What failed.
  const std::vector<ExportDiagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<ExportDiagnostic> diagnostics_;
};

/// How ONNXProgram::save writes.
struct ProgramSaveOptions {
  /// Write the weights (initializers). False writes the graph only.
  bool include_initializers = true;
  /// Also list every initializer as a graph input (older runtimes' layout).
  bool keep_initializers_as_inputs = false;
  /// Weights in a side file next to the model: on request, and always when
  /// the model would pass protobuf's 2 GB limit.
  bool external_data = false;
};

/// The exported model, as upstream's ONNXProgram.
class ONNXProgram {
 public:
  /// Wraps an exported model. `weights_left_out` names the graph inputs that
  /// stand for weights exported without data (ExportOptions::include_weights
  /// false), which apply_weights turns into initializers.
  explicit ONNXProgram(ir::Model model, std::vector<std::string> weights_left_out = {});
  /// The model.
  const ir::Model& model() const { return *model_; }
  /// The model, to change (the Session run() keeps is dropped).
  ir::Model& model() {
    session_.reset();
    return *model_;
  }
  /// Writes the model (atomically).
  void save(const std::filesystem::path& path, const ProgramSaveOptions& options = {}) const;
  /// Runs the model in the built-in evaluator with inputs in order. The
  /// Session is prepared on the first call and kept for the next ones.
  /// Throws Error while weights are left out (weights_left_out()).
  std::vector<eval::RuntimeValue> run(const std::vector<Tensor>& inputs) const;
  /// run(inputs), as upstream's program is called on tensors.
  std::vector<eval::RuntimeValue> operator()(const std::vector<Tensor>& inputs) const {
    return run(inputs);
  }
  /// Prepares the Session run() uses now rather than on the first call, as
  /// upstream's initialize_inference_session. Throws Error while weights are
  /// left out.
  void initialize_inference_session() const;
  /// Replaces initializers' data by name, as upstream's apply_weights with a
  /// state_dict, and binds the weights exported without data (each such
  /// graph input becomes an initializer). Every name must be an initializer
  /// or a weight left out, and every tensor must have its element type and
  /// shape; otherwise nothing changes and Error lists every unknown name and
  /// every mismatch. The tensors are shared, not copied.
  /// The weights exported without data that apply_weights has not bound
  /// yet, in graph input order; save() writes them as graph inputs.
  const std::vector<std::string>& weights_left_out() const { return weights_left_out_; }
  void apply_weights(const std::map<std::string, Tensor>& state_dict);
  /// Optimizes the model in place with the optimizer's passes and the
  /// rewriter's default rules (constant folding, Conv+BatchNormalization
  /// folding, cast and transpose chains, dead code and unused initializer
  /// removal, ...: rewriter::optimize_with_rewrites); returns what each pass
  /// changed.
  optimizer::PassManagerResult optimize(const optimizer::OptimizeOptions& options = {});
  /// Drops the Session run() keeps (its plan and buffers), as upstream's
  /// release() frees its inference session; the model stays.
  void release() { session_.reset(); }

 private:
  std::shared_ptr<ir::Model> model_;
  std::vector<std::string> weights_left_out_;
  mutable std::shared_ptr<const eval::Session> session_;
};

/// Exports the `forward` of a TorchScript module saved by `torch.jit.save`,
/// traced with `example_inputs` (their element types and shapes type the
/// model's inputs). Throws ExporterError listing what could not be exported,
/// IoError for an unreadable file.
ONNXProgram export_module(const std::filesystem::path& pt_file,
                          const std::vector<Tensor>& example_inputs,
                          const ExportOptions& options = {});

}  // namespace onnxscript::torch
