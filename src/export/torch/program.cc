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

// "float[3, 4]": a tensor's element type and shape, for messages.
std::string type_text(const Tensor& t) {
  return ir::Type::tensor(t.dtype(),
                          ir::Shape(std::vector<ir::Dim>(t.shape().begin(), t.shape().end())))
      .to_string();
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
  if (!session_)
    session_ = std::make_shared<const eval::Session>(std::shared_ptr<const ir::Model>(model_));
  std::vector<eval::RuntimeValue> values(inputs.begin(), inputs.end());
  return session_->run(values);
}

void ONNXProgram::apply_weights(const std::map<std::string, Tensor>& state_dict) {
  std::map<std::string, ir::Value*> initializers;
  for (ir::Value* v : model_->graph().initializers()) initializers.emplace(v->name(), v);
  std::vector<std::string> problems;
  for (const auto& [name, tensor] : state_dict) {
    const auto it = initializers.find(name);
    if (it == initializers.end()) {
      problems.push_back(fmt::format("'{}' is not an initializer of the model", name));
      continue;
    }
    const Tensor& current = *it->second->const_value();
    if (current.dtype() != tensor.dtype() || current.shape() != tensor.shape()) {
      problems.push_back(fmt::format("'{}' is {} in the model, the state_dict gives {}", name,
                                     type_text(current), type_text(tensor)));
    }
  }
  if (!problems.empty()) {
    std::string text = fmt::format("apply_weights: {} problem{}, nothing applied:", problems.size(),
                                   problems.size() == 1 ? "" : "s");
    for (const std::string& p : problems) text += "\n  " + p;
    throw Error(text);
  }
  session_.reset();
  for (const auto& [name, tensor] : state_dict)
    model_->graph().set_initializer(initializers.at(name), tensor);
}

optimizer::PassManagerResult ONNXProgram::optimize(const optimizer::OptimizeOptions& options) {
  session_.reset();
  return optimizer::optimize(*model_, options);
}

}  // namespace onnxscript::torch
