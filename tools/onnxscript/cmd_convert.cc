// onnxscript convert FILE --to OUT: binary <-> text.
#include <iostream>

#include "commands.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::cli {

int convert_command(const ConvertOptions& options) {
  const ir::Model model = load_model_file(options.input);
  if (is_text_path(options.output)) {
    write_file_atomically(options.output, text::print_model(model));
  } else {
    serde::SaveOptions save;
    save.use_external_data = options.external;
    save.external_data_threshold = options.external_threshold;
    serde::save_model(model, options.output, save);
  }
  std::cerr << "wrote " << options.output.string() << "\n";
  return 0;
}

}  // namespace onnxscript::cli
