// StringNormalizer: drops the elements of X ([C] or [1, C] strings) that are
// in `stopwords` (compared exactly when is_case_sensitive is 1, otherwise
// after case folding), then lower- or upper-cases the rest
// (case_change_action LOWER/UPPER; NONE keeps them). The output is [C'] or
// [1, C']; when every element is dropped it is [""] ([1]) or [[""]] ([1, 1]).
//
// Case mapping is Unicode's simple (one code point to one code point) mapping
// for UTF-8 text in Basic Latin, Latin-1, Latin Extended-A, Greek and Coptic
// (the basic letters) and Cyrillic (U+0400-U+045F); other code points, and
// bytes that are not valid UTF-8, pass unchanged. There are no one-to-many
// mappings (ß stays ß under UPPER) and no locale-specific rules: the
// `locale` attribute may be empty or name any locale whose language has no
// special case rules; Turkish, Azerbaijani and Lithuanian (tr, az, lt), whose
// dotted/dotless i needs them, are refused rather than mapped wrongly.
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

char32_t simple_lower(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130) return 'i';
    if (c == 0x178) return 0xFF;
    const bool even_upper =
        (c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177);
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if ((even_upper && c % 2 == 0) || (odd_upper && c % 2 == 1)) return c + 1;
    return c;
  }
  if ((c >= 0x391 && c <= 0x3A1) || (c >= 0x3A3 && c <= 0x3AB)) return c + 32;
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

char32_t simple_upper(char32_t c) {
  if (c < 0x80) return c >= 'a' && c <= 'z' ? c - 32 : c;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
  if (c == 0xFF) return 0x178;
  if (c == 0xB5) return 0x39C;  // MICRO SIGN -> GREEK CAPITAL MU
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x131) return 'I';
    if (c == 0x17F) return 'S';
    const bool even_upper =
        (c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177);
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if ((even_upper && c % 2 == 1) || (odd_upper && c % 2 == 0)) return c - 1;
    return c;
  }
  if (c == 0x3C2) return 0x3A3;  // final sigma
  if ((c >= 0x3B1 && c <= 0x3C1) || (c >= 0x3C3 && c <= 0x3CB)) return c - 32;
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 37;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 63;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}

// Folding for caseless comparison: lower(upper(c)) merges ς/σ, ſ/s, µ/μ.
char32_t simple_fold(char32_t c) { return simple_lower(simple_upper(c)); }

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {  // every mapped code point is below U+10000
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Applies `map` to each code point of UTF-8 `s`. Only two-byte sequences can
// hold a mapped non-ASCII code point (all are below U+0800); longer sequences
// and invalid bytes are copied as they are.
template <typename Map>
std::string map_utf8(const std::string& s, Map map) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      append_utf8(out, map(b0));
      ++i;
    } else if ((b0 & 0xE0) == 0xC0 && b0 >= 0xC2 && i + 1 < s.size() &&
               (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) {
      const char32_t c = ((b0 & 0x1F) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3F);
      append_utf8(out, map(c));
      i += 2;
    } else {
      out += s[i];
      ++i;
    }
  }
  return out;
}

void check_locale(const KernelContext& ctx, const std::string& locale) {
  const std::string language = locale.substr(0, locale.find_first_of("_-.@"));
  if (language == "tr" || language == "az" || language == "lt")
    ctx.fail(fmt::format(
        "locale '{}' needs language-specific case rules, which are not supported; the simple "
        "Unicode case mapping used here would be wrong for it",
        locale));
}

void string_normalizer(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kString)
    ctx.fail(fmt::format("X must be a string tensor, not {}", ir::data_type_name(x.dtype())));
  const bool two_d = x.rank() == 2;
  if (!(x.rank() == 1 || (two_d && x.shape()[0] == 1)))
    ctx.fail(fmt::format("X must have shape [C] or [1, C], not {}", shape_string(x.shape())));
  const std::string action = ctx.attr_string("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    ctx.fail(fmt::format("case_change_action '{}' is not NONE, LOWER or UPPER", action));
  const bool case_sensitive = ctx.attr_int("is_case_sensitive", 0) != 0;
  check_locale(ctx, ctx.attr_string("locale", ""));
  auto key = [&](const std::string& s) { return case_sensitive ? s : map_utf8(s, simple_fold); };
  std::unordered_set<std::string> stopwords;
  if (const ir::Attribute* a = ctx.attribute("stopwords"))
    for (const std::string& w : a->as_strings()) stopwords.insert(key(w));
  std::vector<std::string> kept;
  const std::string* in = x.data<std::string>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (stopwords.count(key(in[i]))) continue;
    if (action == "LOWER")
      kept.push_back(map_utf8(in[i], simple_lower));
    else if (action == "UPPER")
      kept.push_back(map_utf8(in[i], simple_upper));
    else
      kept.push_back(in[i]);
  }
  if (kept.empty()) kept.emplace_back();  // the specified "empty" output: one empty string
  const auto count = static_cast<int64_t>(kept.size());
  Tensor y(DataType::kString, two_d ? std::vector<int64_t>{1, count} : std::vector<int64_t>{count});
  std::move(kept.begin(), kept.end(), y.data<std::string>());
  ctx.set_output(0, y);
}

}  // namespace

void register_text_string_normalizer(KernelRegistry& registry) {
  registry.add("", "StringNormalizer", 10, string_normalizer);
}

}  // namespace onnxscript::eval
