#pragma once
/// \file
/// export_module for a loaded TorchScript module. Including this header
/// includes LibTorch's (`torch/script.h`, 15-19 s of compile time per
/// translation unit): prefer onnxscript/export/torch.h's file overload where
/// a path will do.

#include <torch/script.h>

#include "onnxscript/export/torch.h"

namespace onnxscript::torch {

/// Exports `module.forward` (the module is frozen on a copy; it is left as
/// it was). See export_module in torch.h.
ONNXProgram export_module(const ::torch::jit::Module& module,
                          const std::vector<Tensor>& example_inputs,
                          const ExportOptions& options = {});

}  // namespace onnxscript::torch
