// check_model: libonnx where it applies, and the project's validator always.

#include <fmt/format.h>

#include "check/validator.h"
#include "onnxscript/check/check.h"
#include "onnxscript/schema/operator_schema.h"
#include "onnxscript/serde/check.h"

namespace onnxscript::check {

std::string beyond_validator(const ir::Model& model) {
  if (model.ir_version > kMaxIrVersion)
    return fmt::format("IR version {} is newer than the validator knows (it knows IR <= {})",
                       model.ir_version, kMaxIrVersion);
  auto newer = [](const ir::OpsetImports& imports) -> std::string {
    for (const auto& [domain, version] : imports.entries()) {
      const schema::DomainRange* range = schema::find_domain(domain);
      if (range && version > range->max_version)
        return fmt::format("opset {} {} is newer than the validator knows (it knows <= {})",
                           domain.empty() ? "ai.onnx" : domain, version, range->max_version);
    }
    return "";
  };
  if (std::string why = newer(model.opset_imports); !why.empty()) return why;
  for (const auto& f : model.functions())
    if (std::string why = newer(f->opset_imports); !why.empty())
      return fmt::format("function '{}': {}", f->name, why);
  return "";
}

std::vector<std::string> validate_model(const ir::Model& model) {
  std::vector<std::string> errors;
  detail::validate_structure_and_schemas(model, errors);
  // Inference assumes a well-formed graph: names defined once and before use.
  if (errors.empty()) detail::check_strict_inference(model, errors);
  return errors;
}

CheckResult check_model(const ir::Model& model) {
  CheckResult result;
  result.skipped_reason = beyond_validator(model);
  if (!result.skipped_reason.empty()) return result;
  result.checked = true;
  if (!serde::beyond_libonnx(model)) {
    result.libonnx_checked = true;
    result.errors = serde::check_with_libonnx(model);
  }
  for (std::string& e : validate_model(model)) result.errors.push_back(std::move(e));
  return result;
}

}  // namespace onnxscript::check
