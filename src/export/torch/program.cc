// ONNXProgram and ExporterError: what the exporter returns, without LibTorch.

#include <set>

#include <fmt/format.h>

#include "onnxscript/eval/session.h"
#include "onnxscript/export/torch.h"
#include "onnxscript/ir/clone.h"
#include "onnxscript/rewriter/rewriter.h"
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

// A tensor's type: its element type and static shape.
ir::Type type_of(const Tensor& t) {
  return ir::Type::tensor(t.dtype(),
                          ir::Shape(std::vector<ir::Dim>(t.shape().begin(), t.shape().end())));
}

}  // namespace

ExporterError::ExporterError(std::vector<ExportDiagnostic> diagnostics)
    : Error(describe(diagnostics)), diagnostics_(std::move(diagnostics)) {}

ONNXProgram::ONNXProgram(ir::Model model, std::vector<std::string> weights_left_out)
    : model_(std::make_shared<ir::Model>(std::move(model))),
      weights_left_out_(std::move(weights_left_out)) {}

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
  ir::Model copy = ir::clone_model(*model_);  // weights shared, not copied
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

void ONNXProgram::initialize_inference_session() const {
  if (!weights_left_out_.empty()) {
    std::string names;
    for (size_t i = 0; i < weights_left_out_.size() && i < 3; ++i)
      names += (i ? ", " : "") + weights_left_out_[i];
    if (weights_left_out_.size() > 3) names += ", ...";
    throw Error(fmt::format(
        "run: the program was exported without weights and {} of them have no data yet ({}); "
        "bind them with apply_weights first",
        weights_left_out_.size(), names));
  }
  if (!session_)
    session_ = std::make_shared<const eval::Session>(std::shared_ptr<const ir::Model>(model_));
}

std::vector<eval::RuntimeValue> ONNXProgram::run(const std::vector<Tensor>& inputs) const {
  initialize_inference_session();
  std::vector<eval::RuntimeValue> values(inputs.begin(), inputs.end());
  return session_->run(values);
}

void ONNXProgram::apply_weights(const std::map<std::string, Tensor>& state_dict) {
  ir::Graph& graph = model_->graph();
  // Name -> (value, its type): initializers, and the graph inputs that stand
  // for weights exported without data.
  std::map<std::string, ir::Value*> weights;
  for (ir::Value* v : graph.initializers()) weights.emplace(v->name(), v);
  const std::set<std::string> left_out(weights_left_out_.begin(), weights_left_out_.end());
  for (ir::Value* v : graph.inputs())
    if (left_out.count(v->name())) weights.emplace(v->name(), v);
  std::vector<std::string> problems;
  for (const auto& [name, tensor] : state_dict) {
    const auto it = weights.find(name);
    if (it == weights.end()) {
      problems.push_back(fmt::format("'{}' is not a weight of the model", name));
      continue;
    }
    const ir::Type expected =
        it->second->const_value() ? type_of(*it->second->const_value()) : *it->second->type();
    if (expected != type_of(tensor)) {
      problems.push_back(fmt::format("'{}' is {} in the model, the state_dict gives {}", name,
                                     expected.to_string(), type_of(tensor).to_string()));
    }
  }
  if (!problems.empty()) {
    std::string text = fmt::format("apply_weights: {} problem{}, nothing applied:", problems.size(),
                                   problems.size() == 1 ? "" : "s");
    for (const std::string& p : problems) text += "\n  " + p;
    throw Error(text);
  }
  session_.reset();
  for (const auto& [name, tensor] : state_dict) graph.set_initializer(weights.at(name), tensor);
  // Bound weights stop being graph inputs.
  for (size_t i = graph.inputs().size(); i-- > 0;) {
    const ir::Value* v = graph.inputs()[i];
    if (v->const_value() && left_out.count(v->name())) graph.remove_input(i);
  }
  std::erase_if(weights_left_out_,
                [&](const std::string& name) { return state_dict.count(name) != 0; });
}

optimizer::PassManagerResult ONNXProgram::optimize(const optimizer::OptimizeOptions& options) {
  session_.reset();
  return rewriter::optimize_with_rewrites(*model_, options);
}

}  // namespace onnxscript::torch
