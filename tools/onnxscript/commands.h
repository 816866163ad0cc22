#pragma once
// Subcommands of the `onnxscript` tool. Each lives in its own cmd_<name>.cc and
// registers itself on the application with add_<name>_command.

#include <filesystem>

#include <CLI/CLI.hpp>

#include "onnxscript/ir/model.h"

namespace onnxscript::cli {

void add_print_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_conformance_command(CLI::App& app);
void add_ops_command(CLI::App& app);

/// True for paths the tool treats as ONNX text syntax (.txt, .onnxtxt).
bool is_text_path(const std::filesystem::path& path);

/// Loads a model from binary (.onnx) or text (.txt, .onnxtxt) form.
ir::Model load_model_file(const std::filesystem::path& path);

}  // namespace onnxscript::cli
