#pragma once
/// \file
/// Writing the typed operator API from a Catalog.

#include <filesystem>
#include <string>

#include "schema.h"

namespace opgen {

/// Where the generated files go.
struct EmitOptions {
  std::filesystem::path include_dir;  ///< Receives onnxscript/opsets/... (the public headers).
  std::filesystem::path source_dir;   ///< Receives ops_<i>.cc (compiled into onnxscript_script).
  int shards = 4;                     ///< Number of ops_<i>.cc files, so they build in parallel.
  std::filesystem::path reflection;   ///< When set, the test reflection table (a .cc) goes here.
  std::string reflection_header;      ///< The header that file includes for its entry types.
  /// When set, the since-version table of every catalogued version (a .cc
  /// compiled into onnxscript_eval) goes here.
  std::filesystem::path versions;
};

/// Writes every file: the typed API and the since-version table, for every
/// schema of the catalog. Files whose content did not change are left
/// untouched, so a rebuilt generator does not force a rebuild of everything.
void emit_all(const Catalog& catalog, const EmitOptions& options);

}  // namespace opgen
