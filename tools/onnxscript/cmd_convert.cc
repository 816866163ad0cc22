// onnxscript convert FILE --to OUT: binary <-> text.
#include <iostream>

#include "commands.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::cli {

void add_convert_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("convert", "Convert a model between binary (.onnx) and text (.txt) forms");
  struct Options {
    std::string input, output;
    bool external = false;
    size_t threshold = 1024;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("FILE", opts->input, "Input model (.onnx, or .txt/.onnxtxt text)")->required();
  cmd->add_option("--to", opts->output, "Output file; its extension picks the form (.onnx or .txt)")
      ->required();
  cmd->add_flag("--external-data", opts->external,
                "Binary output: store large tensors in a side file next to the model");
  cmd->add_option("--external-threshold", opts->threshold,
                  "Binary output: tensors of at least this many bytes go to the side file")
      ->capture_default_str();
  cmd->callback([opts] {
    const ir::Model model = load_model_file(opts->input);
    if (is_text_path(opts->output)) {
      write_file_atomically(opts->output, text::print_model(model));
    } else {
      serde::SaveOptions save;
      save.use_external_data = opts->external;
      save.external_data_threshold = opts->threshold;
      serde::save_model(model, opts->output, save);
    }
    std::cerr << "wrote " << opts->output << "\n";
  });
}

}  // namespace onnxscript::cli
