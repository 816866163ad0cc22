// The export's SARIF 2.1.0 log (the OASIS standard that the older PyTorch
// dynamo_export wrote its diagnostics in): one run of the exporter, one
// result per diagnostic, the rules being the kinds of failure. Written by
// hand: the structure is small and fixed, and the project has no JSON
// library.

#include <cctype>
#include <chrono>
#include <ctime>
#include <iterator>

#include <fmt/format.h>

#include "report.h"

namespace onnxscript::torch::report {

namespace {

// A JSON string literal: quotes, backslashes and control characters escaped;
// other bytes (UTF-8) as they are.
std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out + "\"";
}

// A file path as a URI reference (RFC 3986): absolute paths become file://
// URIs; bytes outside the unreserved set and '/' are percent-encoded.
std::string file_uri(const std::string& path) {
  std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += c;
    else
      out += fmt::format("%{:02X}", u);
  }
  return out;
}

struct Rule {
  const char* id;
  const char* name;
  const char* short_text;
  const char* help;
};

// The kinds of problem an export reports (ExportDiagnostic::rule).
constexpr Rule kRules[] = {
    {"unsupported-operator", "UnsupportedOperator",
     "The registry has no function for a TorchScript operator.",
     "Register a script Function under the operator's qualified name (register_op on a copy of "
     "torchlib's registry, passed as ExportOptions::registry); see docs/torchlib.md."},
    {"unsupported-construct", "UnsupportedConstruct",
     "The exporter does not handle this TorchScript construct yet.",
     "Trace the model (torch.jit.trace) rather than script it, or rewrite the construct."},
    {"type-error", "TypeError", "A value has a type or shape the export cannot use.",
     "Check the example inputs' element types and shapes and the dynamic shapes."},
    {"translation-error", "TranslationError",
     "The operator's function failed on this node's arguments.",
     "The message says which argument; the function may not cover this case yet."},
    {"invalid-output", "InvalidOutput", "A graph output is not a tensor.",
     "Return tensors (or tuples and lists of them) from forward."},
    {"validation", "Validation", "The exported ONNX model does not pass validation.",
     "Run `onnxscript check` on the saved model for details."},
    {"load-error", "LoadError", "The TorchScript file could not be read.",
     "Save the module with torch.jit.save (a traced or scripted module)."},
    {"export-error", "ExportError", "The export failed outside the graph's translation.",
     "See the message; the report's steps say where it stopped."},
};

size_t rule_index(const std::string& id) {
  for (size_t i = 0; i < std::size(kRules); ++i)
    if (id == kRules[i].id) return i;
  return std::size(kRules);  // not a known rule: the result names it without an index
}

std::string utc(std::chrono::system_clock::time_point t) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03}Z", buffer, ms % 1000);
}

}  // namespace

std::string render_sarif(const ExportRecord& r) {
  std::string j;
  auto out = std::back_inserter(j);
  fmt::format_to(out, "{{\n  \"$schema\": {},\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {{\n",
                 json_string("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                             "sarif-schema-2.1.0.json"));
  // The tool and its rules.
  fmt::format_to(out,
                 "      \"tool\": {{\n        \"driver\": {{\n          \"name\": "
                 "\"onnxscript-cpp torch exporter\",\n          \"fullName\": {},\n"
                 "          \"version\": {},\n          \"rules\": [\n",
                 json_string("onnxscript-cpp " + r.tool_version +
                             " PyTorch exporter (TorchScript front end, torchlib)"),
                 json_string(r.tool_version));
  for (size_t i = 0; i < std::size(kRules); ++i) {
    const Rule& rule = kRules[i];
    fmt::format_to(
        out,
        "            {{\n              \"id\": {},\n              \"name\": {},\n"
        "              \"shortDescription\": {{ \"text\": {} }},\n"
        "              \"help\": {{ \"text\": {} }},\n"
        "              \"defaultConfiguration\": {{ \"level\": {} }}\n            }}{}\n",
        json_string(rule.id), json_string(rule.name), json_string(rule.short_text),
        json_string(rule.help),
        json_string(std::string_view(rule.id) == "validation" ? "warning" : "error"),
        i + 1 < std::size(kRules) ? "," : "");
  }
  fmt::format_to(out, "          ]\n        }}\n      }},\n");
  // The invocation: whether a model came out, and when.
  fmt::format_to(out,
                 "      \"invocations\": [\n        {{\n          \"executionSuccessful\": {},\n"
                 "          \"startTimeUtc\": {},\n          \"endTimeUtc\": {}\n        }}\n"
                 "      ],\n",
                 r.succeeded ? "true" : "false", json_string(utc(r.started)),
                 json_string(utc(r.ended)));
  fmt::format_to(out, "      \"properties\": {{ \"model\": {}, \"opset\": {} }},\n",
                 json_string(r.model), r.opset_version);
  // One result per diagnostic.
  fmt::format_to(out, "      \"results\": [");
  for (size_t i = 0; i < r.diagnostics.size(); ++i) {
    const ExportDiagnostic& d = r.diagnostics[i];
    const std::string id = rule_of(d);
    const size_t index = rule_index(id);
    const std::string text = d.node.empty() ? d.message : d.node + ": " + d.message;
    fmt::format_to(out, "{}\n        {{\n          \"ruleId\": {},\n", i == 0 ? "" : ",",
                   json_string(id));
    if (index < std::size(kRules)) fmt::format_to(out, "          \"ruleIndex\": {},\n", index);
    fmt::format_to(out, "          \"level\": {},\n          \"message\": {{ \"text\": {} }}",
                   json_string(d.level == DiagnosticLevel::kError ? "error" : "warning"),
                   json_string(text));
    // Where: the Python line TorchScript kept (a physical location when it
    // names a file and a line), and the operator as a logical location.
    const SourceLine src = source_line(d.source);
    const bool physical = src.line > 0 && !src.file.empty() && src.file[0] != '<';
    const bool logical = !d.node.empty();
    if (physical || logical) {
      fmt::format_to(out, ",\n          \"locations\": [\n            {{\n");
      if (physical) {
        fmt::format_to(out,
                       "              \"physicalLocation\": {{\n"
                       "                \"artifactLocation\": {{ \"uri\": {} }},\n"
                       "                \"region\": {{ \"startLine\": {}, \"snippet\": {{ "
                       "\"text\": {} }} }}\n              }}{}\n",
                       json_string(file_uri(src.file)), src.line, json_string(src.text),
                       logical ? "," : "");
      }
      if (logical) {
        fmt::format_to(out,
                       "              \"logicalLocations\": [ {{ \"name\": {}, \"kind\": "
                       "\"function\" }} ]\n",
                       json_string(d.node));
      }
      fmt::format_to(out, "            }}\n          ]");
    }
    // A source line without a file (a module defined from a string) stays
    // in the result's properties.
    if (!d.source.empty() && !physical)
      fmt::format_to(out, ",\n          \"properties\": {{ \"source\": {} }}",
                     json_string(d.source));
    fmt::format_to(out, "\n        }}");
  }
  fmt::format_to(out, "{}]\n    }}\n  ]\n}}\n", r.diagnostics.empty() ? "" : "\n      ");
  return j;
}

}  // namespace onnxscript::torch::report
