// opgen: writes the typed operator API from the ONNX operator schemas.
// Run by the build (see src/CMakeLists.txt):
//   onnxscript_opgen --include-dir <dir> --source-dir <dir> [--shards N]
//                    [--reflection <file.cc> --reflection-header <header>]
//                    [--schemas <file.jsonl>]... [--versions <file.cc>]
//                    [--schema-table <file.cc>] [--stamp <file>]

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "emit.h"
#include "schema.h"

int main(int argc, char** argv) {
  opgen::EmitOptions options;
  std::string stamp;
  std::vector<std::filesystem::path> tables;
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
    } else if (arg == "--schemas") {
      tables.push_back(value());
    } else if (arg == "--versions") {
      options.versions = value();
    } else if (arg == "--schema-table") {
      options.schema_table = value();
    } else if (arg == "--stamp") {
      stamp = value();
    } else {
      std::cerr << "opgen: unknown argument " << arg << "\n";
      return 2;
    }
  }
  if (options.include_dir.empty() || options.source_dir.empty()) {
    std::cerr << "usage: onnxscript_opgen --include-dir DIR --source-dir DIR [--shards N] "
                 "[--reflection FILE --reflection-header HEADER] [--schemas FILE.jsonl]... "
                 "[--versions FILE] [--schema-table FILE] [--stamp FILE]\n";
    return 2;
  }
  try {
    std::vector<std::unique_ptr<opgen::SchemaSource>> sources;
    sources.push_back(opgen::make_onnx_registry_source());
    if (!tables.empty()) {
      // The table adds only what libonnx does not define (ai.onnx 18+, ...).
      const opgen::Catalog known = opgen::load_catalog(sources);
      sources.push_back(opgen::make_jsonl_source(tables, known));
    }
    const opgen::Catalog catalog = opgen::load_catalog(sources);
    opgen::emit_all(catalog, options);
    if (!stamp.empty()) std::ofstream(stamp) << catalog.schemas.size() << " schemas\n";
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
