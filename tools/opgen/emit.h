#pragma once
/// \file
/// Writing the typed operator API from a Catalog.

#include <filesystem>
#include <string>
#include <string_view>

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
  /// When set, the run-time operator-schema table of every catalogued version
  /// (a .cc compiled into onnxscript_schema) goes here.
  std::filesystem::path schema_table;
};

/// Writes every file: the typed API and the since-version table, for every
/// schema of the catalog. Files whose content did not change are left
/// untouched, so a rebuilt generator does not force a rebuild of everything.
void emit_all(const Catalog& catalog, const EmitOptions& options);

/// The source text of the run-time operator-schema table
/// (include/onnxscript/schema/operator_schema.h) for every schema of the catalog.
std::string schema_table_text(const Catalog& catalog);

/// The canonical spelling of a type string: no spaces, and a bare element type
/// inside seq, optional or a map's value written as a tensor
/// ("seq(map(string, float))" becomes "seq(map(string,tensor(float)))"). `nested`
/// says the string sits inside another type. Throws std::runtime_error on a
/// malformed string.
std::string canonical_type_string(std::string_view type, bool nested);

}  // namespace opgen
