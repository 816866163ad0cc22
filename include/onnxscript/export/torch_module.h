#pragma once
/// \file
/// export_module for a loaded TorchScript module. Including this header
/// includes LibTorch's (`torch/script.h`, 15-19 s of compile time per
/// translation unit): prefer onnxscript/export/torch.h's file overload where
/// a path will do.

#include <torch/script.h>

#include "onnxscript/export/torch.h"

namespace onnxscript::torch {

/// Exports `module.forward`; the module is left as it was. With weights
/// (the default), the program's initializers share the module's tensors:
/// changing a parameter in place afterwards changes the program's weight.
/// See export_module in torch.h.
ONNXProgram export_module(const ::torch::jit::Module& module,
                          const std::vector<Tensor>& example_inputs,
                          const ExportOptions& options = {});

/// The module's parameters and buffers by their state_dict names
/// ("layer1.0.conv1.weight"), as tensors that view the module's memory (no
/// copy), for ONNXProgram::apply_weights.
std::map<std::string, Tensor> state_dict(const ::torch::jit::Module& module);

}  // namespace onnxscript::torch
