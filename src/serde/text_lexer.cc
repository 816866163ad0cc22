// The lexer of the ONNX textual syntax, and the spelling of names and strings
// that the printer uses so that the lexer reads them back unchanged.

#include <array>
#include <cctype>

#include <fmt/format.h>

#include "onnxscript/support/error.h"
#include "text_internal.h"

namespace onnxscript::text::detail {
namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool equals_lower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != lower[i]) return false;
  }
  return true;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if there is none.
// Overlong forms, surrogates and code points above U+10FFFF are invalid, so
// that what we print unescaped is text any editor shows as it is.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  uint32_t cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
    cp = b0 & 0x1Fu;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    cp = b0 & 0x0Fu;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    cp = b0 & 0x07u;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

// ------------------------------------------------------------------ names

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!is_ident_char(c)) return false;
  return true;
}

bool is_reserved_word(std::string_view s) {
  static constexpr std::array<std::string_view, 6> kWords = {
      "seq", "map", "optional", "opaque", "sparse_tensor", "undefined"};
  for (std::string_view w : kWords)
    if (s == w) return true;
  if (ir::parse_data_type(s)) return true;
  return equals_lower(s, "nan") || equals_lower(s, "inf") || equals_lower(s, "infinity") ||
         s == "true" || s == "false";
}

void append_quoted(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else if (u >= 0x80) {
      const size_t n = utf8_sequence_length(s, i);
      if (n == 0) {
        out += "\\x";
        out += kHex[u >> 4];
        out += kHex[u & 0xF];
      } else {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    } else {
      out += c;
    }
    ++i;
  }
  out += '"';
}

void append_name(std::string& out, std::string_view s) {
  if (is_identifier(s) && !is_reserved_word(s)) {
    out.append(s);
  } else {
    append_quoted(out, s);
  }
}

// ------------------------------------------------------------------ lexer

Lexer::Lexer(std::string_view source, std::string_view source_name)
    : source_(source), source_name_(source_name) {}

const Token& Lexer::peek(size_t k) {
  while (ahead_.size() <= k) ahead_.push_back(scan());
  return ahead_[k];
}

Token Lexer::next() {
  if (ahead_.empty()) return scan();
  Token t = std::move(ahead_.front());
  ahead_.pop_front();
  return t;
}

bool Lexer::at_punct(char c) {
  if (!ahead_.empty()) return ahead_.front().is(c);
  skip_space_and_comments();
  // '=' followed by '>' is the arrow, not '='.
  return pos_ < source_.size() && source_[pos_] == c && !(c == '=' && at(pos_ + 1) == '>');
}

bool Lexer::accept_punct(char c) {
  if (!at_punct(c)) return false;
  if (!ahead_.empty()) {
    ahead_.pop_front();
  } else {
    advance(1);
  }
  return true;
}

void Lexer::fail(const Token& at, std::string_view message) const {
  fail_at(at.line, at.column, message);
}

void Lexer::fail_at(uint32_t line, uint32_t column, std::string_view message) const {
  throw ParseError(fmt::format("{}:{}:{}: {}", source_name_, line, column, message));
}

std::string Lexer::describe(const Token& token) {
  auto shorten = [](std::string_view s) {
    return s.size() > 40 ? std::string(s.substr(0, 37)) + "..." : std::string(s);
  };
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kIdent:
      return fmt::format("identifier '{}'", shorten(token.text));
    case TokenKind::kString:
      return fmt::format("string {}", shorten(token.text));
    case TokenKind::kNumber:
      return fmt::format("number {}", shorten(token.text));
    case TokenKind::kPunct:
      return fmt::format("'{}'", token.punct);
    case TokenKind::kArrow:
      return "'=>'";
  }
  return "?";
}

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < source_.size(); ++i) {
    if (source_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
}

void Lexer::skip_space_and_comments() {
  while (pos_ < source_.size()) {
    const char c = source_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance(1);
    } else if (c == '#') {
      while (pos_ < source_.size() && source_[pos_] != '\n') advance(1);
    } else {
      break;
    }
  }
}

Token Lexer::scan() {
  skip_space_and_comments();
  Token t;
  t.line = line_;
  t.column = column_;
  if (pos_ >= source_.size()) {
    t.kind = TokenKind::kEnd;
    return t;
  }
  const char c = source_[pos_];
  const size_t start = pos_;
  if (is_ident_start(c)) {
    size_t end = pos_;
    while (end < source_.size() && is_ident_char(source_[end])) ++end;
    t.kind = TokenKind::kIdent;
    t.text = source_.substr(start, end - start);
    advance(end - start);
    // `nan(0x7fc00001)`: a NaN with its bits. Nothing else can continue an
    // identifier with "(0x", so this does not steal an op named nan.
    if (equals_lower(t.text, "nan") && at(pos_) == '(' && at(pos_ + 1) == '0' &&
        (at(pos_ + 2) == 'x' || at(pos_ + 2) == 'X')) {
      scan_number(t);  // re-scans from `start` below
    }
    return t;
  }
  if (is_digit(c) || (c == '-' && (is_digit(at(pos_ + 1)) || is_ident_start(at(pos_ + 1))))) {
    scan_number(t);
    return t;
  }
  if (c == '"') {
    scan_string(t);
    return t;
  }
  if (c == '=' && at(pos_ + 1) == '>') {
    t.kind = TokenKind::kArrow;
    t.text = source_.substr(start, 2);
    advance(2);
    return t;
  }
  switch (c) {
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '<':
    case '>':
    case ',':
    case '=':
    case ':':
    case '.':
    case '@':
    case '?':
      t.kind = TokenKind::kPunct;
      t.punct = c;
      t.text = source_.substr(start, 1);
      advance(1);
      return t;
    default:
      break;
  }
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7F) fail(t, fmt::format("unexpected character '{}'", c));
  fail(t, fmt::format("unexpected byte 0x{:02X}", u));
}

// Numbers: -?digits(.digits*)?([eE][+-]?digits)?, -?(nan|inf|infinity),
// -?nan(0xHEX). A number may not run into letters, digits or a dot, so that
// `3N` or `1.2.3` is reported here instead of as two puzzling tokens.
void Lexer::scan_number(Token& t) {
  // Restart at the beginning of the token (an identifier scan may have moved on).
  const size_t start = pos_ - (t.kind == TokenKind::kIdent ? t.text.size() : 0);
  size_t i = start;
  if (at(i) == '-') ++i;
  auto bad = [&](size_t end, std::string_view why) {
    t.kind = TokenKind::kNumber;
    t.text = source_.substr(start, end - start);
    fail(t, fmt::format("malformed number '{}': {}", t.text, why));
  };
  if (is_ident_start(at(i))) {
    size_t end = i;
    while (is_ident_char(at(end))) ++end;
    const std::string_view word = source_.substr(i, end - i);
    if (equals_lower(word, "nan") && at(end) == '(') {
      size_t j = end + 1;
      if (at(j) != '0' || (at(j + 1) != 'x' && at(j + 1) != 'X')) bad(j, "expected nan(0x...)");
      j += 2;
      const size_t digits = j;
      while (hex_value(at(j)) >= 0) ++j;
      if (j == digits || j - digits > 16) bad(j, "expected 1 to 16 hex digits");
      if (at(j) != ')') bad(j, "expected ')'");
      end = j + 1;
    } else if (!equals_lower(word, "nan") && !equals_lower(word, "inf") &&
               !equals_lower(word, "infinity")) {
      bad(end, "expected digits, inf or nan after '-'");
    }
    if (is_ident_char(at(end)) || at(end) == '.') bad(end + 1, "unexpected character after it");
    t.kind = TokenKind::kNumber;
    t.text = source_.substr(start, end - start);
    advance(end - pos_);
    return;
  }
  while (is_digit(at(i))) ++i;
  if (at(i) == '.') {
    ++i;
    while (is_digit(at(i))) ++i;
  }
  if (at(i) == 'e' || at(i) == 'E') {
    size_t j = i + 1;
    if (at(j) == '+' || at(j) == '-') ++j;
    if (!is_digit(at(j))) bad(j, "expected digits in the exponent");
    while (is_digit(at(j))) ++j;
    i = j;
  }
  if (is_ident_char(at(i)) || at(i) == '.') bad(i + 1, "unexpected character after it");
  t.kind = TokenKind::kNumber;
  t.text = source_.substr(start, i - start);
  advance(i - pos_);
}

void Lexer::scan_string(Token& t) {
  const size_t start = pos_;
  t.kind = TokenKind::kString;
  std::string& value = t.value;
  size_t i = pos_ + 1;
  size_t run = i;  // start of the unescaped run being copied
  while (true) {
    if (i >= source_.size()) fail(t, "unterminated string (missing closing '\"')");
    const char c = source_[i];
    if (c == '"') break;
    if (c != '\\') {
      ++i;
      continue;
    }
    value.append(source_.substr(run, i - run));
    const char e = at(i + 1);
    switch (e) {
      case '\\':
      case '"':
        value += e;
        i += 2;
        break;
      case 'n':
        value += '\n';
        i += 2;
        break;
      case 'r':
        value += '\r';
        i += 2;
        break;
      case 't':
        value += '\t';
        i += 2;
        break;
      case 'x': {
        const int hi = hex_value(at(i + 2));
        const int lo = hi < 0 ? -1 : hex_value(at(i + 3));
        if (lo < 0) {
          advance(i - pos_);
          Token here;
          here.line = line_;
          here.column = column_;
          fail(here, "expected two hex digits after \\x in string");
        }
        value += static_cast<char>(hi * 16 + lo);
        i += 4;
        break;
      }
      default: {
        advance(i - pos_);
        Token here;
        here.line = line_;
        here.column = column_;
        if (i + 1 >= source_.size()) fail(t, "unterminated string (missing closing '\"')");
        fail(here,
             fmt::format("unknown escape sequence in string; use \\\\, \\\", \\n, \\r, \\t or "
                         "\\xHH"));
      }
    }
    run = i;
  }
  value.append(source_.substr(run, i - run));
  t.text = source_.substr(start, i + 1 - start);
  advance(i + 1 - pos_);
}

}  // namespace onnxscript::text::detail
