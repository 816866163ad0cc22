// The `onnxscript` command-line tool: print, check, convert, run, conformance, ops.
#include <iostream>

#include "commands.h"
#include "onnxscript/support/error.h"

int main(int argc, char** argv) {
  CLI::App app{"onnxscript: inspect, check, convert and run ONNX models"};
  app.require_subcommand(1);
  onnxscript::cli::add_print_command(app);
  onnxscript::cli::add_check_command(app);
  onnxscript::cli::add_convert_command(app);
#ifdef ONNXSCRIPT_HAS_RUN_COMMAND
  onnxscript::cli::add_run_command(app);
#endif
#ifdef ONNXSCRIPT_HAS_CONFORMANCE_COMMAND
  onnxscript::cli::add_conformance_command(app);
#endif
  onnxscript::cli::add_ops_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const onnxscript::Error& e) {
    std::cerr << "onnxscript: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "onnxscript: unexpected error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
