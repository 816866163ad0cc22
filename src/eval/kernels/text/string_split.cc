// StringSplit (20): splits every string of X. With a non-empty `delimiter`,
// every occurrence separates two substrings, so consecutive delimiters give
// empty ones ("a--b" by "-" is ["a", "", "b"]). With no delimiter, or the
// empty one, runs of whitespace (ASCII space, \t, \n, \v, \f, \r) separate
// substrings and leading and trailing whitespace gives none ("  a b " is
// ["a", "b"]). `maxsplit` bounds the splits per string; the remainder is the
// last substring (without its leading whitespace in whitespace mode), as
// Python's str.split does. Y is X's shape plus one axis as long as the most
// substrings of any element, padded with empty strings; Z (int64, X's shape)
// holds each element's count.
#include <algorithm>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

bool split_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::vector<std::string> split_one(const std::string& s, const std::string& delimiter,
                                   int64_t maxsplit) {
  std::vector<std::string> parts;
  if (!delimiter.empty()) {
    size_t start = 0;
    while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
      const size_t at = s.find(delimiter, start);
      if (at == std::string::npos) break;
      parts.push_back(s.substr(start, at - start));
      start = at + delimiter.size();
    }
    parts.push_back(s.substr(start));
    return parts;
  }
  size_t i = 0;
  while (true) {
    while (i < s.size() && split_space(s[i])) ++i;
    if (i == s.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
      parts.push_back(s.substr(i));
      break;
    }
    const size_t start = i;
    while (i < s.size() && !split_space(s[i])) ++i;
    parts.push_back(s.substr(start, i - start));
  }
  return parts;
}

void string_split(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kString)
    ctx.fail(fmt::format("X must be strings, not {}", ir::data_type_name(x.dtype())));
  const std::string delimiter = ctx.attr_string("delimiter", "");
  int64_t maxsplit = -1;  // unlimited
  if (ctx.attribute("maxsplit") != nullptr) {
    maxsplit = ctx.attr_int("maxsplit", 0);
    if (maxsplit < 0) ctx.fail(fmt::format("maxsplit must not be negative, not {}", maxsplit));
  }
  const std::string* src = x.data<std::string>();
  std::vector<std::vector<std::string>> parts(static_cast<size_t>(x.numel()));
  int64_t widest = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    parts[i] = split_one(src[i], delimiter, maxsplit);
    widest = std::max(widest, static_cast<int64_t>(parts[i].size()));
  }
  std::vector<int64_t> shape = x.shape().to_vector();
  Tensor z(DataType::kInt64, shape);
  shape.push_back(widest);
  Tensor y(DataType::kString, shape);
  std::string* out = y.data<std::string>();
  int64_t* counts = z.data<int64_t>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    counts[i] = static_cast<int64_t>(parts[i].size());
    std::move(parts[i].begin(), parts[i].end(), out + i * widest);
  }
  ctx.set_output(0, y);
  ctx.set_output(1, z);
}

}  // namespace

void register_text_string_split(KernelRegistry& registry) {
  registry.add("", "StringSplit", 20, string_split);
}

}  // namespace onnxscript::eval
