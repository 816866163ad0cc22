// The passes by name, for optimize() and `onnxscript optimize --passes`.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "onnxscript/optimizer/passes.h"
#include "onnxscript/support/error.h"

namespace onnxscript::optimizer {

std::vector<std::string> pass_names() {
  // Inlining first, so the rest sees through calls; folding before the
  // eliminations it enables; the removals of unused things last.
  return {"inline",
          "constant-if",
          "fold",
          "identity",
          "cse",
          "dedup-initializers",
          "dce",
          "unused-initializers",
          "unused-functions",
          "unused-opsets"};
}

std::unique_ptr<Pass> make_pass(std::string_view name, const FoldOptions& fold) {
  if (name == "inline") return make_function_inlining();
  if (name == "constant-if") return make_constant_if();
  if (name == "fold") return make_constant_folding(fold);
  if (name == "identity") return make_identity_elimination();
  if (name == "cse") return make_common_subexpression_elimination();
  if (name == "dedup-initializers") return make_initializer_deduplication();
  if (name == "dce") return make_dead_code_elimination();
  if (name == "unused-initializers") return make_remove_unused_initializers();
  if (name == "unused-functions") return make_remove_unused_functions();
  if (name == "unused-opsets") return make_remove_unused_opsets();
  throw Error(fmt::format("optimize: unknown pass '{}'; the passes are {}", name,
                          fmt::join(pass_names(), ", ")));
}

}  // namespace onnxscript::optimizer
