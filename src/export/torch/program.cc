// ONNXProgram and ExporterError: what the exporter returns, without LibTorch.

#include <fmt/format.h>

#include "onnxscript/eval/session.h"
#include "onnxscript/export/torch.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::torch {

namespace {

std::string describe(const std::vector<ExportDiagnostic>& diagnostics) {
  std::string text = fmt::format("the export failed with {} problem{}:", diagnostics.size(),
                                 diagnostics.size() == 1 ? "" : "s");
  for (const ExportDiagnostic& d : diagnostics) {
    text += fmt::format("\n  {}: {}", d.node, d.message);
    if (!d.source.empty()) text += fmt::format("\n    at {}", d.source);
  }
  return text;
}

}  // namespace

ExporterError::ExporterError(std::vector<ExportDiagnostic> diagnostics)
    : Error(describe(diagnostics)), diagnostics_(std::move(diagnostics)) {}

ONNXProgram::ONNXProgram(ir::Model model) : model_(std::make_shared<ir::Model>(std::move(model))) {}

void ONNXProgram::save(const std::filesystem::path& path, const ProgramSaveOptions& options) const {
  if (options.include_initializers && !options.keep_initializers_as_inputs) {
    serde::SaveOptions save;
    save.use_external_data = options.external_data;
    serde::save_model(*model_, path, save);
    return;
  }
  // The other layouts change the graph: work on a copy. Each initializer
  // becomes a graph input of the same name, keeping its data (as a default)
  // only when the weights are included. Without weights the inputs stay, so
  // that the file is a valid model to which weights are bound at run time.
  ir::Model copy = serde::load_model_from_bytes(serde::serialize_model(*model_), {}, "<program>");
  ir::Graph& g = copy.graph();
  const std::vector<ir::Value*> initializers(g.initializers().begin(), g.initializers().end());
  for (ir::Value* init : initializers) {
    const std::string name = init->name();
    const Tensor data = *init->const_value();
    init->set_name(name + "__moved");
    ir::Value* input = g.add_input(name, init->type());
    init->replace_all_uses_with(input);
    for (ir::Value*& out : g.outputs())
      if (out == init) out = input;
    g.remove_initializer(init);
    if (options.include_initializers) g.set_initializer(input, data);
  }
  serde::SaveOptions save;
  save.use_external_data = options.external_data;
  serde::save_model(copy, path, save);
}

std::vector<eval::RuntimeValue> ONNXProgram::run(const std::vector<Tensor>& inputs) const {
  const eval::Session session{std::shared_ptr<const ir::Model>(model_)};
  std::vector<eval::RuntimeValue> values(inputs.begin(), inputs.end());
  return session.run(values);
}

}  // namespace onnxscript::torch
