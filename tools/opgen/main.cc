// opgen: writes the typed operator API from the ONNX operator schemas.
// Run by the build (see src/CMakeLists.txt):
//   onnxscript_opgen --include-dir <dir> --source-dir <dir> [--shards N]
//                    [--reflection <file.cc> --reflection-header <header>] [--stamp <file>]

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "emit.h"
#include "schema.h"

int main(int argc, char** argv) {
  opgen::EmitOptions options;
  std::string stamp;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "opgen: " << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--include-dir") {
      options.include_dir = value();
    } else if (arg == "--source-dir") {
      options.source_dir = value();
    } else if (arg == "--shards") {
      options.shards = std::stoi(value());
    } else if (arg == "--reflection") {
      options.reflection = value();
    } else if (arg == "--reflection-header") {
      options.reflection_header = value();
    } else if (arg == "--stamp") {
      stamp = value();
    } else {
      std::cerr << "opgen: unknown argument " << arg << "\n";
      return 2;
    }
  }
  if (options.include_dir.empty() || options.source_dir.empty()) {
    std::cerr << "usage: onnxscript_opgen --include-dir DIR --source-dir DIR [--shards N] "
                 "[--reflection FILE --reflection-header HEADER] [--stamp FILE]\n";
    return 2;
  }
  try {
    std::vector<std::unique_ptr<opgen::SchemaSource>> sources;
    sources.push_back(opgen::make_onnx_registry_source());
    const opgen::Catalog catalog = opgen::load_catalog(sources);
    opgen::emit_all(catalog, options);
    if (!stamp.empty()) std::ofstream(stamp) << catalog.schemas.size() << " schemas\n";
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
