// Parsing ATen schema text: "aten::add.Tensor(Tensor self, Tensor other, *,
// Scalar alpha=1) -> Tensor". Only what the registry needs: parameter types,
// names, defaults and keyword-only marks, and the return types. Alias
// annotations ("Tensor(a!)") are dropped.

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "onnxscript/support/error.h"
#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::torch_lib {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits at commas outside brackets and parentheses.
std::vector<std::string_view> split_top_level(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

// "Tensor(a!)" -> "Tensor", "Tensor(a)[]" -> "Tensor[]", "Tensor(a -> *)" -> "Tensor".
std::string drop_alias_annotations(std::string_view type) {
  std::string out;
  int depth = 0;
  for (char c : type) {
    if (c == '(') ++depth;
    if (depth == 0) out += c;
    if (c == ')') --depth;
  }
  return out;
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_float(std::string_view s) {
  // from_chars for double is in libstdc++ 11+.
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A default as the schema prints it: None, True, False, an int, a float,
// [ints], 'string', or an identifier such as contiguous_format (kept as a
// string).
Arg parse_default(std::string_view text, std::string_view type) {
  text = trim(text);
  if (text == "None") return Arg();
  if (text == "True") return Arg(true);
  if (text == "False") return Arg(false);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"'))
    return Arg(std::string(text.substr(1, text.size() - 2)));
  if (text.front() == '[') {
    std::vector<int64_t> ints;
    std::vector<double> floats;
    bool all_int = true;
    for (std::string_view item : split_top_level(text.substr(1, text.size() - 2))) {
      if (const auto i = parse_int(item)) {
        ints.push_back(*i);
        floats.push_back(static_cast<double>(*i));
      } else if (const auto f = parse_float(item)) {
        all_int = false;
        floats.push_back(*f);
      } else {
        throw ParseError(fmt::format("ATen schema: cannot read the list default '{}'", text));
      }
    }
    if (type.starts_with("float")) return Arg(floats);
    if (!all_int) return Arg(floats);
    return Arg(ints);
  }
  if (const auto i = parse_int(text)) {
    if (type.starts_with("float")) return Arg(static_cast<double>(*i));
    return Arg(*i);
  }
  if (const auto f = parse_float(text)) return Arg(*f);
  return Arg(std::string(text));
}

}  // namespace

Schema Schema::parse(std::string_view text) {
  const std::string_view whole = text;
  const size_t open = text.find('(');
  const size_t arrow = text.rfind("->");
  const size_t close = arrow == std::string_view::npos ? text.rfind(')') : text.rfind(')', arrow);
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    throw ParseError(fmt::format("ATen schema '{}': expected name(params) -> returns", whole));
  Schema schema;
  schema.qualified_name = std::string(trim(text.substr(0, open)));
  if (schema.qualified_name.find("::") == std::string::npos)
    throw ParseError(
        fmt::format("ATen schema '{}': the name needs a namespace (aten::...)", whole));
  bool keyword_only = false;
  for (std::string_view item : split_top_level(text.substr(open + 1, close - open - 1))) {
    if (item == "*") {
      keyword_only = true;
      continue;
    }
    SchemaParam param;
    param.keyword_only = keyword_only;
    std::string_view decl = item;
    const size_t eq = item.find('=');
    if (eq != std::string_view::npos) decl = trim(item.substr(0, eq));
    const size_t space = decl.rfind(' ');
    if (space == std::string_view::npos)
      throw ParseError(fmt::format("ATen schema '{}': parameter '{}' has no name", whole, item));
    param.type = drop_alias_annotations(trim(decl.substr(0, space)));
    param.written = decl.substr(0, space).find('!') != std::string_view::npos;
    param.name = std::string(trim(decl.substr(space + 1)));
    if (eq != std::string_view::npos)
      param.default_value = parse_default(item.substr(eq + 1), param.type);
    schema.params.push_back(std::move(param));
  }
  if (arrow != std::string_view::npos) {
    std::string_view returns = trim(text.substr(arrow + 2));
    if (returns.starts_with("(") && returns.ends_with(")"))
      returns = returns.substr(1, returns.size() - 2);
    for (std::string_view r : split_top_level(returns)) {
      // A named return ("Tensor(a!) out") keeps its type only.
      const size_t space = r.rfind(' ');
      std::string_view type = r;
      if (space != std::string_view::npos && r.find(')') != std::string_view::npos &&
          space > r.rfind(')'))
        type = r.substr(0, space);
      schema.returns.push_back(drop_alias_annotations(trim(type)));
    }
  }
  return schema;
}

std::string Schema::base_name() const {
  const size_t ns = qualified_name.find("::");
  const size_t dot = qualified_name.find('.', ns);
  return dot == std::string::npos ? qualified_name : qualified_name.substr(0, dot);
}

std::string Schema::overload_name() const {
  const size_t ns = qualified_name.find("::");
  const size_t dot = qualified_name.find('.', ns);
  return dot == std::string::npos ? "" : qualified_name.substr(dot + 1);
}

}  // namespace onnxscript::torch_lib
