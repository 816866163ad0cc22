// The export's bookkeeping (ExportRecorder) and its markdown report. No
// LibTorch here: exporter.cc hands over plain data.

#include "report.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "onnxscript/check/check.h"
#include "onnxscript/support/file_io.h"

#ifndef ONNXSCRIPT_VERSION
#define ONNXSCRIPT_VERSION "unknown"
#endif

namespace onnxscript::torch::report {

namespace {

struct PlannedStep {
  const char* name;
  const char* title;
};

// Every step an export can take, in order. "load" only when exporting a file.
constexpr PlannedStep kSteps[] = {
    {"load", "load the TorchScript file"},
    {"passes", "front-end passes: inline, remove mutation, fold constants, lower tuples"},
    {"inputs", "type the graph inputs from the example inputs and dynamic shapes"},
    {"translate", "dispatch each node to the registry and translate it to ONNX"},
    {"validate", "validate the ONNX model (onnxscript check)"},
};

const char* status_text(StepStatus s) {
  switch (s) {
    case StepStatus::kNotReached:
      return "not reached";
    case StepStatus::kSkipped:
      return "skipped";
    case StepStatus::kOk:
      return "ok";
    case StepStatus::kFailed:
      return "FAILED";
  }
  return "?";
}

std::string utc_time(std::chrono::system_clock::time_point t, const char* format) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  const size_t n = std::strftime(buffer, sizeof buffer, format, &tm);
  return std::string(buffer, n);
}

// A table cell: pipes and line breaks would end the cell or the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += "<br>";
    else
      out += c;
  }
  return out;
}

// A fence longer than any run of backticks in `text`, so that the text
// cannot close it early.
std::string fence_for(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::string count_errors(const ExportRecord& r, DiagnosticLevel level) {
  const size_t n = std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                                 [&](const ExportDiagnostic& d) { return d.level == level; });
  const char* word = level == DiagnosticLevel::kError ? "error" : "warning";
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Line `line` (1-based) of `file` without its indentation, or nullopt when
// the file cannot be read or is shorter.
std::optional<std::string> line_of_file(const std::string& file, int line) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  std::string text;
  for (int i = 0; i < line; ++i)
    if (!std::getline(in, text)) return std::nullopt;
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
  text.erase(0, text.find_first_not_of(' '));
  return text;
}

}  // namespace

SourceLine source_line(const std::string& source) {
  // The first ":<digits>: " ends the file name (a file name may hold ':').
  for (size_t colon = source.find(':'); colon != std::string::npos;
       colon = source.find(':', colon + 1)) {
    size_t end = colon + 1;
    while (end < source.size() && std::isdigit(static_cast<unsigned char>(source[end]))) ++end;
    if (end == colon + 1 || end + 1 >= source.size() || source[end] != ':' ||
        source[end + 1] != ' ')
      continue;
    SourceLine parsed{source.substr(0, colon), 0, source.substr(end + 2)};
    if (parsed.file.empty()) break;
    try {
      parsed.line = std::stoi(source.substr(colon + 1, end - colon - 1));
    } catch (const std::exception&) {
      break;  // out of int's range: not a line number
    }
    if (parsed.line < 1) break;
    if (auto text = line_of_file(parsed.file, parsed.line)) parsed.text = std::move(*text);
    return parsed;
  }
  return {"", 0, source};
}

std::string rule_of(const ExportDiagnostic& d) {
  return d.rule.empty() ? std::string("translation-error") : d.rule;
}

std::string render_markdown(const ExportRecord& r) {
  std::string md;
  auto out = std::back_inserter(md);
  fmt::format_to(out, "# ONNX export report\n\n");
  fmt::format_to(out, "| | |\n| --- | --- |\n");
  fmt::format_to(out, "| status | **{}** ({}, {}) |\n", r.succeeded ? "succeeded" : "failed",
                 count_errors(r, DiagnosticLevel::kError),
                 count_errors(r, DiagnosticLevel::kWarning));
  fmt::format_to(out, "| model | `{}` |\n", cell(r.model));
  fmt::format_to(out, "| example inputs | {} |\n",
                 r.inputs.empty()
                     ? std::string("none")
                     : cell("`" + fmt::format("{}", fmt::join(r.inputs, "`, `")) + "`"));
  fmt::format_to(out, "| opset | {} |\n", r.opset_version);
  fmt::format_to(out, "| exporter | onnxscript-cpp {} (TorchScript front end, torchlib) |\n",
                 r.tool_version);
  fmt::format_to(out, "| started | {} |\n", utc_time(r.started, "%Y-%m-%d %H:%M:%S UTC"));
  fmt::format_to(out, "| took | {:.3f} s |\n",
                 std::chrono::duration<double>(r.ended - r.started).count());
  if (r.succeeded)
    fmt::format_to(out, "| ONNX graph | {} nodes, {} initializers |\n", r.onnx_nodes,
                   r.onnx_initializers);

  fmt::format_to(out,
                 "\n## Steps\n\n| step | status | time | detail |\n| --- | --- | --- | --- |\n");
  for (const ExportStep& s : r.steps) {
    const bool ran = s.status == StepStatus::kOk || s.status == StepStatus::kFailed;
    fmt::format_to(out, "| {} ({}) | {} | {} | {} |\n", s.name, cell(s.title),
                   status_text(s.status), ran ? fmt::format("{:.3f} s", s.seconds) : "",
                   cell(s.detail));
  }

  std::vector<const ExportDiagnostic*> errors, warnings;
  for (const ExportDiagnostic& d : r.diagnostics)
    (d.level == DiagnosticLevel::kError ? errors : warnings).push_back(&d);
  for (const auto& [title, list] :
       {std::pair{"Errors", &errors}, std::pair{"Warnings", &warnings}}) {
    if (list->empty()) continue;
    fmt::format_to(out, "\n## {}\n\n", title);
    size_t i = 0;
    for (const ExportDiagnostic* d : *list) {
      fmt::format_to(out, "{}. [{}] {}{}\n", ++i, rule_of(*d),
                     d->node.empty() ? "" : fmt::format("`{}`: ", d->node), d->message);
      if (!d->source.empty()) {
        // Where, then the line itself (read from the file when it can be).
        const SourceLine src = source_line(d->source);
        if (src.line > 0) fmt::format_to(out, "   at {}, line {}:\n", src.file, src.line);
        const std::string fence = fence_for(src.text);
        fmt::format_to(out, "\n   {}python\n   {}\n   {}\n\n", fence, src.text, fence);
      }
    }
  }

  std::map<std::string, size_t> unsupported;
  for (const ExportDiagnostic& d : r.diagnostics)
    if (rule_of(d) == "unsupported-operator") ++unsupported[d.node];
  if (!unsupported.empty()) {
    std::vector<std::pair<std::string, size_t>> rows(unsupported.begin(), unsupported.end());
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    fmt::format_to(out,
                   "\n## Unsupported operators\n\nNo function in the registry; register one "
                   "(docs/torchlib.md) to export them.\n\n| operator | nodes |\n| --- | --- |\n");
    for (const auto& [op, n] : rows) fmt::format_to(out, "| `{}` | {} |\n", op, n);
  }

  if (!r.node_counts.empty()) {
    std::vector<std::pair<std::string, size_t>> rows(r.node_counts.begin(), r.node_counts.end());
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    size_t total = 0;
    for (const auto& row : rows) total += row.second;
    fmt::format_to(
        out,
        "\n## TorchScript operators\n\n{} nodes of {} operators, after the front-end "
        "passes (nodes in sub-blocks included).\n\n| operator | nodes |\n| --- | --- |\n",
        total, rows.size());
    for (const auto& [op, n] : rows)
      fmt::format_to(out, "| `{}`{} | {} |\n", op, unsupported.count(op) ? " (unsupported)" : "",
                     n);
  }
  if (!r.graph_text.empty()) {
    const std::string fence = fence_for(r.graph_text);
    fmt::format_to(out, "\n## TorchScript graph\n\n{}\n{}{}{}\n", fence, r.graph_text,
                   r.graph_text.back() == '\n' ? "" : "\n", fence);
  }
  return md;
}

std::vector<std::filesystem::path> write_report(const ExportRecord& record,
                                                const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw IoError(
        fmt::format("cannot create the report folder {}: {}", dir.string(), ec.message()));
  const std::string base = "onnx_export_" + utc_time(record.started, "%Y%m%dT%H%M%SZ");
  std::string stem = base;
  for (int i = 2; std::filesystem::exists(dir / (stem + ".md")) ||
                  std::filesystem::exists(dir / (stem + ".sarif"));
       ++i)
    stem = fmt::format("{}_{}", base, i);
  const std::filesystem::path md = dir / (stem + ".md");
  const std::filesystem::path sarif = dir / (stem + ".sarif");
  write_file_atomically(md, render_markdown(record));
  write_file_atomically(sarif, render_sarif(record));
  return {md, sarif};
}

ExportRecorder::ExportRecorder(const ExportOptions& options, std::string model, bool loads_file,
                               const std::vector<Tensor>& example_inputs)
    : options_(options) {
  record_.model = std::move(model);
  record_.tool_version = ONNXSCRIPT_VERSION;
  record_.opset_version = options.opset_version;
  record_.started = std::chrono::system_clock::now();
  for (const PlannedStep& s : kSteps) {
    if (!loads_file && std::string_view(s.name) == "load") continue;
    record_.steps.push_back({s.name, s.title, StepStatus::kNotReached, 0, ""});
  }
  if (wants_details()) {
    for (const Tensor& t : example_inputs) {
      record_.inputs.push_back(ir::Type::tensor(t.dtype(), ir::Shape(std::vector<ir::Dim>(
                                                               t.shape().begin(), t.shape().end())))
                                   .to_string());
    }
  }
}

ExportStep* ExportRecorder::find(const std::string& name) {
  for (ExportStep& s : record_.steps)
    if (s.name == name) return &s;
  return nullptr;
}

void ExportRecorder::report_progress(const std::string& line) const {
  if (options_.progress) options_.progress(line);
}

void ExportRecorder::begin(const std::string& name) {
  current_ = find(name);
  if (!current_) throw Error(fmt::format("the exporter has no step named '{}'", name));
  step_start_ = std::chrono::steady_clock::now();
  report_progress(fmt::format("{}: {}...", current_->name, current_->title));
}

void ExportRecorder::end(std::string detail) {
  if (!current_) return;
  current_->status = StepStatus::kOk;
  current_->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start_).count();
  current_->detail = std::move(detail);
  report_progress(fmt::format("{}: ok, {:.3f} s{}", current_->name, current_->seconds,
                              current_->detail.empty() ? "" : " (" + current_->detail + ")"));
  current_ = nullptr;
}

void ExportRecorder::validate(const ir::Model& model) {
  ExportStep* step = find("validate");
  if (!options_.report_dir && !options_.warnings_as_errors) {
    step->status = StepStatus::kSkipped;
    step->detail = "asked for by a report or warnings_as_errors";
    return;
  }
  begin("validate");
  const check::CheckResult result = check::check_model(model);
  const DiagnosticLevel level =
      options_.warnings_as_errors ? DiagnosticLevel::kError : DiagnosticLevel::kWarning;
  for (const std::string& e : result.errors) {
    record_.diagnostics.push_back({"model", e, "", "validation", level});
    if (options_.verbosity > 0) std::cerr << "export: warning: " << e << "\n";
  }
  if (!result.errors.empty() && options_.warnings_as_errors)
    throw ExporterError(record_.diagnostics);
  std::string detail;
  if (!result.checked)
    detail = "not checked: " + result.skipped_reason;
  else if (!result.errors.empty())
    detail = fmt::format("{} finding{} (warnings)", result.errors.size(),
                         result.errors.size() == 1 ? "" : "s");
  else
    detail = "valid";
  end(detail);
}

void ExportRecorder::succeed(const ir::Model& model) {
  record_.succeeded = true;
  record_.onnx_nodes = model.graph().num_nodes();
  record_.onnx_initializers = model.graph().initializers().size();
  record_.ended = std::chrono::system_clock::now();
  if (!options_.report_dir) return;
  const auto paths = write_report(record_, *options_.report_dir);
  report_progress(fmt::format("report: {}", paths[0].string()));
}

std::string ExportRecorder::rule_for_exception(const std::exception& e) {
  if (dynamic_cast<const IoError*>(&e)) return "load-error";
  if (dynamic_cast<const TypeError*>(&e)) return "type-error";
  if (dynamic_cast<const NotImplementedError*>(&e)) return "unsupported-construct";
  return "export-error";
}

void ExportRecorder::fail(const std::vector<ExportDiagnostic>* diagnostics, const std::string& what,
                          const std::string& rule) noexcept {
  try {
    if (diagnostics) {
      record_.diagnostics = *diagnostics;
    } else {
      record_.diagnostics.push_back(
          {current_ ? current_->name : std::string(), what, "", rule, DiagnosticLevel::kError});
    }
    if (current_) {
      current_->status = StepStatus::kFailed;
      current_->seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start_).count();
      const size_t errors = std::count_if(
          record_.diagnostics.begin(), record_.diagnostics.end(),
          [](const ExportDiagnostic& d) { return d.level == DiagnosticLevel::kError; });
      current_->detail = diagnostics ? fmt::format("{} error{}", errors, errors == 1 ? "" : "s")
                                     : what.substr(0, what.find('\n'));
      report_progress(fmt::format("{}: FAILED after {:.3f} s", current_->name, current_->seconds));
      current_ = nullptr;
    }
    record_.ended = std::chrono::system_clock::now();
    if (!options_.report_dir) return;
    const auto paths = write_report(record_, *options_.report_dir);
    report_progress(fmt::format("report: {}", paths[0].string()));
  } catch (const std::exception& e) {
    // The export's own error matters more: say this one and let that propagate.
    std::cerr << "export: the report could not be written: " << e.what() << "\n";
  }
}

}  // namespace onnxscript::torch::report
