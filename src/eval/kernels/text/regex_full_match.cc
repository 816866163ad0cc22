// RegexFullMatch (20): Y[i] is true when the whole of X[i] matches `pattern`
// (RE2 syntax, as the specification names). RE2 matches in linear time, so a
// hostile pattern or input cannot make the kernel run away. The pattern is
// compiled once per call; an invalid one is a KernelError quoting it and
// RE2's reason.
#include <re2/re2.h>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void regex_full_match(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kString)
    ctx.fail(fmt::format("X must be a string tensor, not {}", ir::data_type_name(x.dtype())));
  if (!ctx.attribute("pattern")) ctx.fail("the attribute 'pattern' is required");
  const std::string pattern = ctx.attr_string("pattern", "");
  // Quiet: RE2 would otherwise log a bad pattern to stderr as well.
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 re(pattern, options);
  if (!re.ok())
    ctx.fail(fmt::format("pattern '{}' is not a valid RE2 expression: {}", pattern, re.error()));
  Tensor y(DataType::kBool, x.shape());
  const std::string* in = x.data<std::string>();
  bool* out = y.data<bool>();
  for (int64_t i = 0; i < x.numel(); ++i) out[i] = RE2::FullMatch(in[i], re);
  ctx.set_output(0, y);
}

}  // namespace

void register_text_regex_full_match(KernelRegistry& registry) {
  registry.add("", "RegexFullMatch", 20, regex_full_match);
}

}  // namespace onnxscript::eval
