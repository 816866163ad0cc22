#pragma once
/// \file
/// Internals shared by the text printer and parser: the lexer, the spelling
/// of names, and exact conversions of numbers to and from text.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/data_type.h"

namespace onnxscript::text::detail {

// ------------------------------------------------------------------ names

/// True for `[A-Za-z_][A-Za-z0-9_]*`.
bool is_identifier(std::string_view s);

/// True for identifiers that the syntax gives a meaning in some position
/// (type names, `seq`, `nan`, ...). The printer quotes them wherever a name is
/// expected, so a name can never be mistaken for a type or a number.
bool is_reserved_word(std::string_view s);

/// Appends `s` as a quoted string literal, escaping what the lexer unescapes.
void append_quoted(std::string& out, std::string_view s);

/// Appends `s` bare when it is a plain, non-reserved identifier, else quoted.
void append_name(std::string& out, std::string_view s);

// ------------------------------------------------------------------ lexer

/// Kinds of tokens.
enum class TokenKind : uint8_t {
  kEnd,     ///< End of input.
  kIdent,   ///< An identifier (keywords are identifiers too).
  kString,  ///< A quoted string; `value` holds it unescaped.
  kNumber,  ///< An integer or float literal, with its sign: `-3`, `1.5e3`, `-inf`,
            ///< `nan(0x7fc00001)`.
  kPunct,   ///< One of `( ) [ ] { } < > , = : . @ ?`; `punct` holds it.
  kArrow,   ///< `=>`.
};

/// One token and where it starts.
struct Token {
  TokenKind kind = TokenKind::kEnd;
  char punct = 0;         ///< The character of a kPunct token.
  std::string_view text;  ///< The token's source text (for strings: with quotes).
  std::string value;      ///< The unescaped contents of a kString token.
  uint32_t line = 1;      ///< 1-based line.
  uint32_t column = 1;    ///< 1-based column, in bytes.

  /// True for the punctuation character `c`.
  bool is(char c) const { return kind == TokenKind::kPunct && punct == c; }
  /// True for the identifier `word`.
  bool is_word(std::string_view word) const { return kind == TokenKind::kIdent && text == word; }
};

/// Splits text into tokens on demand, with unbounded lookahead. Whitespace and
/// `#` comments separate tokens. Errors are thrown as ParseError naming the
/// source, line and column.
class Lexer {
 public:
  /// Reads `source`; `source_name` prefixes error messages.
  Lexer(std::string_view source, std::string_view source_name);

  /// The token `k` places ahead (0: the next one).
  const Token& peek(size_t k = 0);
  /// Consumes and returns the next token.
  Token next();

  /// True when the next token is the punctuation `c`. Cheaper than peek()
  /// when nothing is buffered, which matters in long lists of numbers.
  bool at_punct(char c);
  /// Consumes the next token if it is the punctuation `c`.
  bool accept_punct(char c);

  /// Throws ParseError at `at`: "<source>:<line>:<col>: <message>".
  [[noreturn]] void fail(const Token& at, std::string_view message) const;
  /// Throws ParseError at a position.
  [[noreturn]] void fail_at(uint32_t line, uint32_t column, std::string_view message) const;

  /// A short description of a token for messages: `'('`, `identifier 'x'`, ...
  static std::string describe(const Token& token);

 private:
  Token scan();
  void skip_space_and_comments();
  void scan_string(Token& token);
  void scan_number(Token& token);
  char at(size_t i) const { return i < source_.size() ? source_[i] : '\0'; }
  void advance(size_t n);

  std::string_view source_;
  std::string source_name_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t column_ = 1;
  std::deque<Token> ahead_;
};

// ------------------------------------------------------------------ numbers

/// Appends the shortest decimal form that reads back to the same value
/// (`nan`/`-nan` for the default NaNs, `nan(0x...)` for others, `inf`).
void append_float(std::string& out, float v);
/// Like append_float, for double.
void append_double(std::string& out, double v);

/// True for the element types narrower than float that hold floating point
/// numbers: float16, bfloat16, the float8 types (float8e8m0 too) and float4e2m1.
bool is_narrow_float(ir::DataType type);
/// The value of a narrow float's bit pattern (NaN for NaN patterns).
float narrow_to_float(ir::DataType type, uint32_t bits);
/// The bits of the narrow float nearest to `v` (ties to even). nullopt when `v`
/// is beyond the largest finite value of a type that has no infinity.
std::optional<uint32_t> float_to_narrow(ir::DataType type, double v);
/// Appends the shortest decimal that reads back to `bits` of a narrow float.
void append_narrow(std::string& out, ir::DataType type, uint32_t bits);
/// What append_narrow writes, for every bit pattern of a narrow float type,
/// computed once per type; for printing big tensors quickly.
const std::vector<std::string>& narrow_table(ir::DataType type);

/// Reads a number token as float with correct rounding; nullopt when malformed or
/// out of range. NaN spellings produce the default NaN bits or the given ones.
std::optional<float> read_float(std::string_view text);
/// Reads a number token as double; see read_float.
std::optional<double> read_double(std::string_view text);
/// Reads a number token as the bits of a narrow float: `nan`/`-nan` give the
/// type's default NaN, `nan(0x..)` the given bits (which must be a NaN of the
/// type), other values are rounded to nearest. nullopt when malformed or out
/// of the type's range.
std::optional<uint32_t> read_narrow(ir::DataType type, std::string_view text);

}  // namespace onnxscript::text::detail
