// onnxscript-export: a TorchScript file (torch.jit.save) to an ONNX model,
// through the PyTorch exporter (onnxscript/export/torch.h). Also what
// `onnxscript export ...` runs. This file declares the options (CLI11) and
// hands them to run_export (export_args.cc).
#include <iostream>

#include <CLI/CLI.hpp>

#include "export_args.h"
#include "onnxscript/support/error.h"

int main(int argc, char** argv) {
  namespace tool = onnxscript::export_tool;
  CLI::App app{
      "onnxscript-export: export a TorchScript module (a file written by torch.jit.save) to "
      "ONNX through torchlib; no Python needed"};
  app.footer(tool::kHelpFooter);
  tool::ExportArgs args;
  app.add_option("MODEL", args.model, "The TorchScript file (.pt)")->required();
  app.add_option("-o,--output", args.output, "The ONNX file to write")->required();
  app.add_option("--input", args.inputs,
                 "NAME:TYPE[D0,D1,...], one per argument of forward, in order (see below)")
      ->required();
  app.add_option("--dynamic", args.dynamic, "NAME:AXIS=DIM[,AXIS=DIM...]: named dimensions");
  app.add_option("--opset", args.opset, "The ai.onnx opset (torchlib emits 18)")
      ->capture_default_str();
  app.add_flag(
      "--no-weights", args.no_weights,
      "Export without the weights' data (fake mode); each becomes a graph input to bind at run "
      "time");
  app.add_option("--report", args.report_dir,
                 "Write a markdown report and a SARIF log of the export into this folder");
  app.add_flag("--warnings-as-errors", args.warnings_as_errors,
               "Fail when the exported model does not validate (checked then)");
  app.add_flag("-v,--verbose", args.verbose,
               "Say each unsupported operator as it is found, and the model's inputs and outputs");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? 0 : 2;  // --help is 0; any mistake in the arguments is 2
  }
  try {
    return tool::run_export(args);
  } catch (const std::exception& e) {
    std::cerr << "onnxscript-export: error: " << e.what() << "\n";
    return 2;
  }
}
