#pragma once
/// \file
/// The conformance runner: runs ONNX backend test cases (a folder holding
/// model.onnx and test_data_set_*/{input,output}_*.pb) through a Session and
/// compares the outputs with the expected ones. A checked-in manifest lists
/// the cases expected to fail, each with its reason; a run fails when a case
/// outside the manifest fails or a case inside it passes.

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/model.h"

namespace onnxscript::eval {

/// Tolerances for floating point comparison: |actual - expected| <= atol + rtol * |expected|.
struct Tolerance {
  double rtol = 1e-3;  ///< Relative tolerance.
  double atol = 1e-7;  ///< Absolute tolerance.
};

/// Compares an actual value with the expected one: same kind, element type
/// and shape; floats (and complex parts) within tolerance, NaN only where NaN
/// is expected, infinities exact; everything else exact; sequences and
/// optionals element by element; maps entry by entry in key order (their
/// stored order does not matter). Returns "" when they match, otherwise a
/// description of the first difference (prefixed by `what`).
std::string compare_values(const RuntimeValue& expected, const RuntimeValue& actual,
                           const Tolerance& tolerance = {}, std::string_view what = "value");

/// The outcome of one case.
enum class CaseStatus { kPassed, kFailed, kSkipped };

/// One case's result.
struct CaseResult {
  std::string name;           ///< The case folder's name, e.g. "test_abs".
  std::filesystem::path dir;  ///< The case folder.
  CaseStatus status = CaseStatus::kSkipped;
  std::string reason;  ///< Why it failed or was skipped (one line).
  double seconds = 0;  ///< Wall time of the case.
};

/// The cases expected to fail: case name -> reason. Lines are
/// `<case_name> <reason...>`; `#` starts a comment; blank lines are ignored.
struct Manifest {
  std::map<std::string, std::string, std::less<>> expected_failures;  ///< Case name -> reason.

  /// Parses manifest text; ParseError naming `source` and the line for a
  /// duplicate entry or an entry without a reason.
  static Manifest parse(std::string_view text, std::string_view source = "<manifest>");
  /// Reads a manifest file (IoError when unreadable).
  static Manifest load(const std::filesystem::path& path);
};

/// How to run cases.
struct ConformanceOptions {
  Tolerance tolerance;
  /// Run each case in a child process, so that a crash or a hang is that
  /// case's failure rather than the end of the run.
  bool isolate = true;
  /// Seconds a case may take when isolated (0: no limit).
  double timeout_seconds = 120;
  /// Where progress goes (null: nowhere).
  std::ostream* progress = nullptr;
  /// Called on each model after loading and before planning (null: none),
  /// to run a transformation under the suites: `onnxscript conformance
  /// --optimize` optimizes each model. An exception fails the case.
  std::function<void(ir::Model&)> prepare_model;
};

/// Every case folder under `roots`: a root that holds model.onnx is a case;
/// otherwise its immediate subfolders that hold model.onnx are. Sorted by name
/// within each root. IoError for a root that does not exist.
std::vector<std::filesystem::path> find_cases(std::span<const std::filesystem::path> roots);

/// Runs one case in this process. Never throws for problems of the case:
/// they become a failed result.
CaseResult run_case(const std::filesystem::path& case_dir, const ConformanceOptions& options = {});

/// The results of a run checked against a manifest.
struct ConformanceReport {
  std::vector<CaseResult> results;            ///< Every case, in run order.
  std::vector<const CaseResult*> unexpected;  ///< Failed but not in the manifest.
  std::vector<const CaseResult*> stale;       ///< Passed although the manifest expects a failure.
  size_t passed = 0, failed = 0, skipped = 0;

  /// True when the manifest's expectations were met.
  bool ok() const { return unexpected.empty() && stale.empty(); }
};

/// Runs every case of `cases` (isolated if asked) and checks the results
/// against `manifest`.
ConformanceReport run_conformance(std::span<const std::filesystem::path> cases,
                                  const Manifest& manifest, const ConformanceOptions& options = {});

/// Prints the failing cases (unexpected ones marked FAIL, expected ones
/// XFAIL), stale manifest entries (STALE), skipped cases, then the line
/// `N passed, M failed, K skipped`.
void print_report(const ConformanceReport& report, const Manifest& manifest, std::ostream& out);

/// Manifest text listing every failed case of the report with its reason.
std::string format_manifest(const ConformanceReport& report);

}  // namespace onnxscript::eval
