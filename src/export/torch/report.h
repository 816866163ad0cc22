#pragma once
// The exporter's record of one export and the report files written from it
// (private to the exporter library). exporter.cc, the only file that includes
// LibTorch, fills an ExportRecorder with plain data: the steps it ran, the
// diagnostics, and the TorchScript graph's operator counts and text;
// report.cc renders the markdown report and sarif.cc the SARIF log.
//
// The bookkeeping is a handful of calls per export (one per step), never per
// node: the graph's counts and text are only computed when a report is asked
// for (wants_details()).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/export/torch.h"

namespace onnxscript::torch::report {

/// How a step of the export ended.
enum class StepStatus {
  kNotReached,  ///< An earlier step failed (or the export did not need it).
  kSkipped,     ///< Not asked for (validation without a report or warnings_as_errors).
  kOk,          ///< Done.
  kFailed,      ///< Failed: the export stops here.
};

/// One step of the export.
struct ExportStep {
  std::string name;                             ///< Stable key: "load", "passes", ...
  std::string title;                            ///< For people: "load the TorchScript file".
  StepStatus status = StepStatus::kNotReached;  ///< How it ended.
  double seconds = 0;                           ///< Wall time, when it ran.
  std::string detail;                           ///< One line: what it did, or why it failed.
};

/// Everything a report says about one export.
struct ExportRecord {
  std::string model;                          ///< The exported file, or a description.
  std::string tool_version;                   ///< This library's version.
  int64_t opset_version = 18;                 ///< ExportOptions::opset_version.
  std::vector<std::string> inputs;            ///< The example inputs' types, "float[1,3]".
  std::vector<ExportStep> steps;              ///< Every step, in order, run or not.
  std::vector<ExportDiagnostic> diagnostics;  ///< Errors and warnings, in graph order.
  std::map<std::string, size_t> node_counts;  ///< TorchScript operator -> nodes (with sub-blocks).
  std::string graph_text;                     ///< The TorchScript graph after the front-end passes.
  bool succeeded = false;                     ///< Whether a model came out.
  size_t onnx_nodes = 0;                      ///< Nodes of the exported graph, on success.
  size_t onnx_initializers = 0;               ///< Initializers of the exported graph, on success.
  std::chrono::system_clock::time_point started;  ///< When the export began.
  std::chrono::system_clock::time_point ended;    ///< When it ended.
};

/// Where a diagnostic points in the user's Python code.
struct SourceLine {
  std::string file;  ///< The file TorchScript recorded; empty when none.
  int line = 0;      ///< 1-based; 0 when the source names no line.
  std::string text;  ///< The line's text.
};

/// Splits ExportDiagnostic::source ("file:line: text"). The text is the
/// file's own line when the file can be read: traced graphs keep only
/// "file(line): function" as their text. Without a "file:line: " prefix,
/// the whole source is the text and `line` is 0.
SourceLine source_line(const std::string& source);

/// The stable ruleId of a diagnostic (its `rule`, "translation-error" when empty).
std::string rule_of(const ExportDiagnostic& d);

/// The markdown report of `record`.
std::string render_markdown(const ExportRecord& record);

/// The SARIF 2.1.0 log of `record`: one run, one result per diagnostic.
std::string render_sarif(const ExportRecord& record);

/// Writes `<dir>/onnx_export_<UTC timestamp>.md` and `.sarif` (a numeric
/// suffix keeps an earlier report of the same second), each atomically;
/// creates `dir`. Returns the two paths. Throws IoError.
std::vector<std::filesystem::path> write_report(const ExportRecord& record,
                                                const std::filesystem::path& dir);

/// Records one export for the report and the progress callback.
class ExportRecorder {
 public:
  /// Plans the steps; `loads_file` adds the "load" step first.
  ExportRecorder(const ExportOptions& options, std::string model, bool loads_file,
                 const std::vector<Tensor>& example_inputs);

  /// True when a report is asked for: the graph's counts and text are worth computing.
  bool wants_details() const { return options_.report_dir.has_value(); }
  /// The record, for the graph's counts and text.
  ExportRecord& record() { return record_; }

  /// Starts the planned step `name` (reports progress).
  void begin(const std::string& name);
  /// Ends the current step as done, with an optional one-line detail.
  void end(std::string detail = "");

  /// Runs `export_fn` (which returns an ONNXProgram), then validation when
  /// asked for, and writes the report when asked for. An exception from
  /// either fails the current step, is recorded, and propagates unchanged
  /// once the report is written.
  /// A report that cannot be written after a successful export throws
  /// IoError; after a failed one, it is said on stderr and the export's own
  /// error propagates.
  template <typename ExportFn>
  ONNXProgram run(ExportFn&& export_fn) {
    std::optional<ONNXProgram> program;
    try {
      program.emplace(export_fn());
      validate(program->model());
    } catch (const ExporterError& e) {
      fail(&e.diagnostics(), e.what(), "");
      throw;
    } catch (const std::exception& e) {
      fail(nullptr, e.what(), rule_for_exception(e));
      throw;
    }
    succeed(program->model());
    return std::move(*program);
  }

 private:
  ExportStep* find(const std::string& name);
  void validate(const ir::Model& model);
  void succeed(const ir::Model& model);
  // `diagnostics` (an ExporterError's) replace the record's; otherwise
  // `what` is recorded as one diagnostic of kind `rule`. Never throws.
  void fail(const std::vector<ExportDiagnostic>* diagnostics, const std::string& what,
            const std::string& rule) noexcept;
  static std::string rule_for_exception(const std::exception& e);
  void report_progress(const std::string& line) const;

  const ExportOptions& options_;
  ExportRecord record_;
  ExportStep* current_ = nullptr;
  std::chrono::steady_clock::time_point step_start_;
};

}  // namespace onnxscript::torch::report
