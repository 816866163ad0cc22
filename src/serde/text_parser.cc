// The parser of the ONNX textual syntax (see text.h for the grammar's
// extensions). It builds the IR directly. Value names are resolved when a
// graph's text ends, not when they are read: a node may use a value defined
// further down, and a subgraph may capture values its enclosing graph defines
// after it. References a graph cannot resolve move out to the enclosing
// graph, so the innermost definition wins.

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "onnxscript/serde/text.h"
#include "onnxscript/support/error.h"
#include "text_internal.h"

namespace onnxscript::text {
namespace {

using detail::Lexer;
using detail::Token;
using detail::TokenKind;
using ir::AttributeType;
using ir::DataType;

// Deep enough for any real model, shallow enough that hostile input such as
// "seq(seq(seq(..." cannot exhaust the stack.
constexpr int kMaxDepth = 100;

struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
};

Position position_of(const Token& t) { return {t.line, t.column}; }

// Doc strings and metadata written as `<key: value, ...>` before an entity.
struct Annotations {
  Position at;
  std::string doc_string;
  ir::MetadataProps metadata_props;
  std::vector<ir::QuantizationAnnotation> quantization;
  bool has_metadata = false;
  bool has_quantization = false;
};

// A value as an input/output/value-info list declares it.
struct ValueDecl {
  Position at;       // of the name
  Position type_at;  // of the type, or where it would be
  std::string name;
  std::optional<ir::Type> type;
  Annotations notes;
};

void apply(const ValueDecl& decl, ir::Value* v) {
  if (decl.type) v->set_type(decl.type);
  if (!decl.notes.doc_string.empty()) v->set_doc_string(decl.notes.doc_string);
  if (decl.notes.has_metadata) v->set_metadata_props(decl.notes.metadata_props);
}

// A use of a name that the graph being parsed could not resolve yet.
struct Reference {
  Position at;
  std::string name;
  ir::Node* node = nullptr;       // a node input ...
  size_t index = 0;               // ... at this position,
  ir::Graph* graph = nullptr;     // or a graph output at `index`,
  std::optional<ValueDecl> decl;  // with what the output list says of it.
};

struct Definition {
  ir::Value* value;
  Position at;
};

// The names one graph defines, and the references still open inside it.
struct Scope {
  ir::Graph* graph = nullptr;
  std::unordered_map<std::string, Definition> values;
  std::vector<Reference> open;
  std::vector<ValueDecl> value_info;
};

bool is_int_literal(std::string_view text) {
  return text.find_first_of(".eEnNiI(") == std::string_view::npos;
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view source_name) : lex_(text, source_name) {}

  ir::Model model() {
    ir::Model m;
    if (peek().is('<')) model_header(m);
    Annotations graph_notes;
    if (peek().is('<')) graph_notes = annotations(/*allow_quantization=*/true);
    top_graph(m.graph(), graph_notes);
    while (peek().kind != TokenKind::kEnd) m.functions().push_back(function());
    return m;
  }

  std::unique_ptr<ir::Function> function_only() {
    auto f = function();
    expect_end();
    return f;
  }

  std::unique_ptr<ir::Graph> graph_only() {
    auto g = std::make_unique<ir::Graph>();
    Annotations notes;
    if (peek().is('<')) notes = annotations(true);
    top_graph(*g, notes);
    expect_end();
    return g;
  }

  ir::Type type_only() {
    ir::Type t = type();
    expect_end();
    return t;
  }

 private:
  // ---------------------------------------------------------------- tokens

  const Token& peek(size_t k = 0) { return lex_.peek(k); }

  [[noreturn]] void fail(const Token& at, std::string_view message) { lex_.fail(at, message); }
  [[noreturn]] void fail(Position at, std::string_view message) {
    lex_.fail_at(at.line, at.column, message);
  }
  [[noreturn]] void expected(std::string_view what) {
    const Token& t = peek();
    fail(t, fmt::format("expected {}, found {}", what, Lexer::describe(t)));
  }

  bool accept(char c) { return lex_.accept_punct(c); }

  Token expect(char c, std::string_view context) {
    if (!peek().is(c)) expected(fmt::format("'{}' {}", c, context));
    return lex_.next();
  }

  void expect_end() {
    if (peek().kind != TokenKind::kEnd) expected("end of input");
  }

  bool at_name() {
    const Token& t = peek();
    return t.kind == TokenKind::kIdent || t.kind == TokenKind::kString;
  }

  // An identifier or a quoted string.
  std::string name(std::string_view what) {
    if (!at_name()) expected(what);
    Token t = lex_.next();
    return t.kind == TokenKind::kString ? std::move(t.value) : std::string(t.text);
  }

  std::string string_literal(std::string_view what) {
    if (peek().kind != TokenKind::kString) expected(what);
    return lex_.next().value;
  }

  class Nesting {
   public:
    Nesting(Parser& p, const Token& at) : p_(p) {
      if (++p_.depth_ > kMaxDepth)
        p_.fail(at, fmt::format("nesting deeper than {} levels", kMaxDepth));
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& p_;
  };

  // ---------------------------------------------------------------- numbers

  bool at_number() {
    const Token& t = peek();
    if (t.kind == TokenKind::kNumber) return true;
    if (t.kind != TokenKind::kIdent) return false;
    return detail::read_double(t.text).has_value();  // nan, inf, infinity
  }

  Token number_token(std::string_view what) {
    if (!at_number()) expected(what);
    return lex_.next();
  }

  int64_t int64_value(std::string_view what) {
    Token t = number_token(what);
    if (!is_int_literal(t.text))
      fail(t, fmt::format("expected {}, found {}", what, Lexer::describe(t)));
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || ptr != t.text.data() + t.text.size())
      fail(t, fmt::format("integer {} is out of range for int64", t.text));
    return v;
  }

  float float_value(std::string_view what) {
    Token t = number_token(what);
    auto v = detail::read_float(t.text);
    if (!v) fail(t, fmt::format("number {} is not a valid float (out of range?)", t.text));
    return *v;
  }

  // ---------------------------------------------------------------- annotations

  Annotations annotations(bool allow_quantization) {
    Annotations a;
    const Token open = expect('<', "to start annotations");
    a.at = position_of(open);
    bool seen_doc = false;
    do {
      const Token key = peek();
      if (key.kind != TokenKind::kIdent)
        expected("an annotation key (doc_string or metadata_props)");
      lex_.next();
      expect(':', fmt::format("after '{}'", key.text));
      if (key.text == "doc_string" && !seen_doc) {
        a.doc_string = string_literal("a string after doc_string:");
        seen_doc = true;
      } else if (key.text == "metadata_props" && !a.has_metadata) {
        a.metadata_props = string_pairs();
        a.has_metadata = true;
      } else if (key.text == "quantization_annotation" && allow_quantization &&
                 !a.has_quantization) {
        a.quantization = quantization();
        a.has_quantization = true;
      } else if (key.text == "doc_string" || key.text == "metadata_props" ||
                 key.text == "quantization_annotation") {
        fail(key, fmt::format("'{}' given twice or not allowed here", key.text));
      } else {
        fail(key,
             fmt::format("unknown annotation key '{}'; expected doc_string or metadata_props{}",
                         key.text, allow_quantization ? " or quantization_annotation" : ""));
      }
    } while (accept(','));
    expect('>', "to close annotations");
    return a;
  }

  // `["key": "value", ...]`
  ir::MetadataProps string_pairs() {
    ir::MetadataProps props;
    expect('[', "to start a list of \"key\": \"value\" pairs");
    if (accept(']')) return props;
    do {
      std::string k = string_literal("a quoted key");
      expect(':', "between key and value");
      std::string v = string_literal("a quoted value");
      props.emplace_back(std::move(k), std::move(v));
    } while (accept(','));
    expect(']', "to close the list");
    return props;
  }

  std::vector<ir::QuantizationAnnotation> quantization() {
    std::vector<ir::QuantizationAnnotation> out;
    expect('[', "to start quantization annotations");
    if (accept(']')) return out;
    do {
      ir::QuantizationAnnotation q;
      q.tensor_name = string_literal("a quoted tensor name");
      expect(':', "after the tensor name");
      q.quant_parameter_tensor_names = string_pairs();
      out.push_back(std::move(q));
    } while (accept(','));
    expect(']', "to close quantization annotations");
    return out;
  }

  // Annotations in front of an entity that takes only a doc string and metadata.
  Annotations optional_annotations() {
    if (!peek().is('<')) return {};
    return annotations(false);
  }

  void apply_to_graph(const Annotations& a, ir::Graph& g) {
    g.doc_string = a.doc_string;
    g.metadata_props = a.metadata_props;
    g.quantization_annotation = a.quantization;
  }

  void apply_to_tensor(const Annotations& a, ir::Tensor& t) {
    if (a.doc_string.empty() && !a.has_metadata) return;
    ir::TensorProtoInfo& info = t.mutable_proto_info();
    info.doc_string = a.doc_string;
    info.metadata_props = a.metadata_props;
  }

  // ---------------------------------------------------------------- headers

  void model_header(ir::Model& m) {
    expect('<', "to start the model header");
    std::vector<std::string> seen;
    do {
      const Token key = peek();
      if (key.kind != TokenKind::kIdent) expected("a model header key such as ir_version");
      lex_.next();
      const std::string k(key.text);
      if (std::find(seen.begin(), seen.end(), k) != seen.end())
        fail(key, fmt::format("'{}' given twice", k));
      seen.push_back(k);
      expect(':', fmt::format("after '{}'", k));
      if (k == "ir_version") {
        m.ir_version = int64_value("an integer IR version");
      } else if (k == "opset_import") {
        m.opset_imports = opset_imports();
      } else if (k == "producer_name") {
        m.producer_name = string_literal("a string");
      } else if (k == "producer_version") {
        m.producer_version = string_literal("a string");
      } else if (k == "domain") {
        m.domain = string_literal("a string");
      } else if (k == "model_version") {
        m.model_version = int64_value("an integer model version");
      } else if (k == "doc_string") {
        m.doc_string = string_literal("a string");
      } else if (k == "metadata_props") {
        m.metadata_props = string_pairs();
      } else {
        fail(key, fmt::format("unknown model header key '{}'; expected ir_version, opset_import, "
                              "producer_name, producer_version, domain, model_version, "
                              "doc_string or metadata_props",
                              k));
      }
    } while (accept(','));
    expect('>', "to close the model header");
  }

  ir::OpsetImports opset_imports() {
    ir::OpsetImports imports;
    expect('[', "to start the opset imports");
    if (accept(']')) return imports;
    do {
      std::string domain = string_literal("a quoted domain such as \"\"");
      expect(':', "between domain and version");
      imports.append(std::move(domain), int64_value("an integer opset version"));
    } while (accept(','));
    expect(']', "to close the opset imports");
    return imports;
  }

  // ---------------------------------------------------------------- types

  bool at_type() {
    const Token& t = peek();
    if (t.is('?')) return true;
    if (t.kind != TokenKind::kIdent) return false;
    return t.text == "seq" || t.text == "map" || t.text == "optional" ||
           t.text == "sparse_tensor" || t.text == "opaque" || t.text == "undefined" ||
           ir::parse_data_type(t.text).has_value();
  }

  DataType elem_type(std::string_view what) {
    const Token& t = peek();
    if (t.kind == TokenKind::kIdent) {
      if (t.text == "undefined") {
        lex_.next();
        return DataType::kUndefined;
      }
      if (auto dt = ir::parse_data_type(t.text)) {
        lex_.next();
        return *dt;
      }
      fail(t, fmt::format("unknown element type '{}'", t.text));
    }
    expected(what);
  }

  // `[...]` after an element type, or nothing (a scalar).
  std::optional<ir::Shape> shape() {
    if (!accept('[')) return ir::Shape{};
    if (accept(']')) return std::nullopt;
    ir::Shape s;
    do {
      ir::Dim d;
      const Token& t = peek();
      if (t.is('?')) {
        lex_.next();
      } else if (t.kind == TokenKind::kNumber) {
        d = ir::Dim(int64_value("a dimension"));
      } else if (at_name()) {
        d = ir::Dim(name("a dimension"));
      } else {
        expected("a dimension (a number, a name or '?')");
      }
      if (accept(':')) d.denotation = string_literal("a quoted dimension denotation");
      s.push_back(std::move(d));
    } while (accept(','));
    expect(']', "to close the shape");
    return s;
  }

  ir::Type type() {
    const Token start = peek();
    Nesting nesting(*this, start);
    ir::Type t;
    if (start.is('?')) {
      lex_.next();
    } else if (start.is_word("seq") || start.is_word("optional")) {
      lex_.next();
      expect('(', fmt::format("after '{}'", start.text));
      ir::Type elem = type();
      expect(')', fmt::format("to close '{}('", start.text));
      t = start.is_word("seq") ? ir::Type::sequence(std::move(elem))
                               : ir::Type::optional(std::move(elem));
    } else if (start.is_word("map")) {
      lex_.next();
      expect('(', "after 'map'");
      const DataType key = elem_type("a map key type");
      expect(',', "after the map key type");
      ir::Type value = type();
      expect(')', "to close 'map('");
      t = ir::Type::map(key, std::move(value));
    } else if (start.is_word("sparse_tensor")) {
      lex_.next();
      expect('(', "after 'sparse_tensor'");
      const DataType elem = elem_type("an element type");
      t = ir::Type::sparse_tensor(elem, shape());
      expect(')', "to close 'sparse_tensor('");
    } else if (start.is_word("opaque")) {
      lex_.next();
      expect('(', "after 'opaque'");
      t.kind = ir::TypeKind::kOpaque;
      if (!peek().is(')')) {
        std::string first = dotted_name("an opaque type name");
        if (accept(',')) {
          t.set_opaque(std::move(first), name("an opaque type name"));
        } else {
          t.set_opaque("", std::move(first));
        }
      }
      expect(')', "to close 'opaque('");
    } else if (start.kind == TokenKind::kIdent) {
      const DataType elem = elem_type("a type");
      t = ir::Type::tensor(elem, shape());
    } else {
      expected("a type");
    }
    if (accept(':')) t.set_denotation(string_literal("a quoted type denotation"));
    return t;
  }

  // `a.b.c` or a quoted string.
  std::string dotted_name(std::string_view what) {
    if (peek().kind == TokenKind::kString) return lex_.next().value;
    if (peek().kind != TokenKind::kIdent) expected(what);
    std::string out(lex_.next().text);
    while (peek().is('.') && peek(1).kind == TokenKind::kIdent) {
      lex_.next();
      out += '.';
      out += lex_.next().text;
    }
    return out;
  }

  // ---------------------------------------------------------------- tensors

  // A tensor type whose dimensions are all numbers.
  std::vector<int64_t> static_dims(const ir::Type& t, Position at) {
    if (!t.shape) fail(at, "a tensor needs a shape: write float[2,3], or float for a scalar");
    std::vector<int64_t> dims;
    for (const ir::Dim& d : *t.shape) {
      if (!d.is_static()) fail(at, "tensor dimensions must be numbers");
      if (d.value() < 0) fail(at, fmt::format("tensor dimension {} is negative", d.value()));
      if (!d.denotation.empty()) fail(at, "tensor dimensions cannot have denotations");
      dims.push_back(d.value());
    }
    if (!t.denotation().empty()) fail(at, "a tensor constant cannot have a type denotation");
    return dims;
  }

  template <typename T>
  static ir::Tensor make_tensor(DataType dtype, std::vector<int64_t> dims,
                                const std::vector<T>& data) {
    ir::Tensor t(dtype, std::move(dims));
    if (!data.empty()) std::memcpy(t.raw_data(), data.data(), data.size() * sizeof(T));
    return t;
  }

  template <typename T>
  T integer_element(const Token& tok, DataType dtype, int64_t lo, uint64_t hi) {
    if (!is_int_literal(tok.text))
      fail(tok, fmt::format("expected an integer for {}, found {}", ir::data_type_name(dtype),
                            Lexer::describe(tok)));
    const char* b = tok.text.data();
    const char* e = b + tok.text.size();
    bool ok = false;
    T out{};
    if (tok.text[0] == '-') {
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(b, e, v);
      ok = ec == std::errc() && ptr == e && v >= lo;
      out = static_cast<T>(v);
    } else {
      uint64_t v = 0;
      auto [ptr, ec] = std::from_chars(b, e, v);
      ok = ec == std::errc() && ptr == e && v <= hi;
      out = static_cast<T>(v);
    }
    if (!ok)
      fail(tok, fmt::format("{} is out of range for {}", tok.text, ir::data_type_name(dtype)));
    return out;
  }

  // `{v, v, ...}` for a tensor of the given type and dims.
  ir::Tensor tensor_data(DataType dtype, std::vector<int64_t> dims, Position at) {
    int64_t numel = 0;
    try {
      numel = ir::checked_numel(dims);
    } catch (const ValidationError& e) {
      fail(at, e.what());
    }
    if (peek().is('['))
      fail(peek(), "tensor data must be written inline as {...}; text does not read external data");
    const Token open = expect('{', "to start tensor data");
    if (peek().is('.') && peek(1).is('.') && peek(2).is('.'))
      fail(peek(), "tensor data was elided ('...') when printed; it cannot be read back");
    const bool complex = dtype == DataType::kComplex64 || dtype == DataType::kComplex128;
    const auto expected_count = static_cast<uint64_t>(numel) * (complex ? 2u : 1u);
    size_t count = 0;
    // Reads the elements one token at a time into `sink`.
    auto each = [&](auto&& sink) {
      do {
        if (lex_.at_punct('}')) break;  // empty, or a trailing comma
        Token tok = lex_.next();
        sink(tok);
        ++count;
      } while (lex_.accept_punct(','));
    };
    auto need_number = [&](const Token& tok) {
      if (tok.kind == TokenKind::kNumber) return;
      if (tok.kind == TokenKind::kIdent && detail::read_double(tok.text)) return;
      fail(tok, fmt::format("expected a {} value, found {}", ir::data_type_name(dtype),
                            Lexer::describe(tok)));
    };
    ir::Tensor result;
    auto check_count = [&]() {
      if (count != expected_count) {
        fail(open, fmt::format("a {} tensor of shape [{}] needs {} values{}, found {}",
                               ir::data_type_name(dtype), fmt::join(dims, ","), expected_count,
                               complex ? " (real, imaginary pairs)" : "", count));
      }
    };
    auto ints = [&]<typename T>(int64_t lo, uint64_t hi) {
      std::vector<T> v;
      each([&](const Token& tok) {
        need_number(tok);
        v.push_back(integer_element<T>(tok, dtype, lo, hi));
      });
      check_count();
      return make_tensor(dtype, dims, v);
    };
    switch (dtype) {
      case DataType::kFloat:
      case DataType::kComplex64: {
        std::vector<float> v;
        each([&](const Token& tok) {
          need_number(tok);
          auto f = detail::read_float(tok.text);
          if (!f) fail(tok, fmt::format("{} is not a valid float (out of range?)", tok.text));
          v.push_back(*f);
        });
        check_count();
        result = make_tensor(dtype, dims, v);
        break;
      }
      case DataType::kDouble:
      case DataType::kComplex128: {
        std::vector<double> v;
        each([&](const Token& tok) {
          need_number(tok);
          auto d = detail::read_double(tok.text);
          if (!d) fail(tok, fmt::format("{} is not a valid double (out of range?)", tok.text));
          v.push_back(*d);
        });
        check_count();
        result = make_tensor(dtype, dims, v);
        break;
      }
      case DataType::kInt8:
        result = ints.template operator()<int8_t>(INT8_MIN, INT8_MAX);
        break;
      case DataType::kUint8:
        result = ints.template operator()<uint8_t>(0, UINT8_MAX);
        break;
      case DataType::kInt16:
        result = ints.template operator()<int16_t>(INT16_MIN, INT16_MAX);
        break;
      case DataType::kUint16:
        result = ints.template operator()<uint16_t>(0, UINT16_MAX);
        break;
      case DataType::kInt32:
        result = ints.template operator()<int32_t>(INT32_MIN, INT32_MAX);
        break;
      case DataType::kUint32:
        result = ints.template operator()<uint32_t>(0, UINT32_MAX);
        break;
      case DataType::kInt64:
        result = ints.template operator()<int64_t>(INT64_MIN, INT64_MAX);
        break;
      case DataType::kUint64:
        result = ints.template operator()<uint64_t>(0, UINT64_MAX);
        break;
      case DataType::kBool: {
        std::vector<uint8_t> v;
        each([&](const Token& tok) {
          if (tok.is_word("true") || tok.is_word("false")) {
            v.push_back(tok.is_word("true") ? 1 : 0);
            return;
          }
          need_number(tok);
          v.push_back(integer_element<uint8_t>(tok, dtype, 0, UINT8_MAX));
        });
        check_count();
        result = make_tensor(dtype, dims, v);
        break;
      }
      case DataType::kFloat16:
      case DataType::kBfloat16:
      case DataType::kFloat8E4M3FN:
      case DataType::kFloat8E4M3FNUZ:
      case DataType::kFloat8E5M2:
      case DataType::kFloat8E5M2FNUZ:
      case DataType::kFloat8E8M0:
      case DataType::kFloat4E2M1:
      case DataType::kInt4:
      case DataType::kUint4:
      case DataType::kInt2:
      case DataType::kUint2: {
        std::vector<uint32_t> bits;
        each([&](const Token& tok) {
          need_number(tok);
          if (dtype == DataType::kInt4) {
            bits.push_back(static_cast<uint32_t>(integer_element<int8_t>(tok, dtype, -8, 7)) &
                           0xFu);
          } else if (dtype == DataType::kUint4) {
            bits.push_back(integer_element<uint8_t>(tok, dtype, 0, 15));
          } else if (dtype == DataType::kInt2) {
            bits.push_back(static_cast<uint32_t>(integer_element<int8_t>(tok, dtype, -2, 1)) &
                           0x3u);
          } else if (dtype == DataType::kUint2) {
            bits.push_back(integer_element<uint8_t>(tok, dtype, 0, 3));
          } else {
            auto b = detail::read_narrow(dtype, tok.text);
            if (!b) {
              fail(tok, fmt::format("{} is not a valid {} value (out of range?)", tok.text,
                                    ir::data_type_name(dtype)));
            }
            bits.push_back(*b);
          }
        });
        check_count();
        result = ir::Tensor(dtype, dims);
        auto* p = static_cast<uint8_t*>(result.raw_data());
        const int width = ir::bit_width(dtype);
        for (size_t i = 0; i < bits.size(); ++i) {
          if (width == 16) {
            const auto b16 = static_cast<uint16_t>(bits[i]);
            std::memcpy(p + 2 * i, &b16, 2);
          } else if (width == 8) {
            p[i] = static_cast<uint8_t>(bits[i]);
          } else {  // two 4-bit or four 2-bit elements a byte, the first in the lowest bits
            const size_t per_byte = 8 / static_cast<size_t>(width);
            p[i / per_byte] =
                static_cast<uint8_t>(p[i / per_byte] | (bits[i] << (width * (i % per_byte))));
          }
        }
        break;
      }
      case DataType::kString: {
        std::vector<std::string> v;
        each([&](Token& tok) {
          if (tok.kind != TokenKind::kString)
            fail(tok, fmt::format("expected a quoted string, found {}", Lexer::describe(tok)));
          v.push_back(std::move(tok.value));
        });
        check_count();
        result = ir::Tensor(dtype, dims);
        auto* s = result.data<std::string>();
        for (size_t i = 0; i < v.size(); ++i) s[i] = std::move(v[i]);
        break;
      }
      case DataType::kUndefined:
        each([&](const Token& tok) { fail(tok, "a tensor of undefined type cannot hold values"); });
        if (!dims.empty()) fail(at, "a tensor of undefined type has no shape");
        result = ir::Tensor();
        break;
    }
    expect('}', "to close tensor data");
    return result;
  }

  // [annotations] type [name] ['='] {data}, as tensor attributes are written.
  ir::Tensor tensor_constant() {
    Annotations notes = optional_annotations();
    const Position at = position_of(peek());
    ir::Type t = type();
    ir::Tensor tensor = tensor_after_type(t, at);
    apply_to_tensor(notes, tensor);
    return tensor;
  }

  ir::Tensor tensor_after_type(const ir::Type& t, Position at) {
    if (t.kind != ir::TypeKind::kTensor)
      fail(at, fmt::format("expected a tensor type, found {}", t.to_string()));
    std::string tensor_name;
    if (at_name()) tensor_name = name("a tensor name");
    accept('=');
    ir::Tensor tensor = tensor_data(t.elem_type, static_dims(t, at), at);
    if (!tensor_name.empty()) tensor.mutable_proto_info().name = std::move(tensor_name);
    return tensor;
  }

  ir::SparseTensor sparse_constant() {
    const Position at = position_of(peek());
    ir::Type t = type();
    return sparse_after_type(t, at, /*allow_name=*/true);
  }

  // `{values: <tensor>, indices: <tensor>}` after a sparse_tensor(...) type.
  ir::SparseTensor sparse_after_type(const ir::Type& t, Position at, bool allow_name) {
    if (t.kind != ir::TypeKind::kSparseTensor)
      fail(at, fmt::format("expected a sparse_tensor(...) type, found {}", t.to_string()));
    std::string sparse_name;
    if (allow_name && at_name()) sparse_name = name("a sparse tensor name");
    accept('=');
    ir::SparseTensor s;
    ir::Type dense = t;
    dense.kind = ir::TypeKind::kTensor;
    s.dims = static_dims(dense, at);
    expect('{', "to start a sparse tensor");
    if (!peek().is_word("values")) expected("'values:'");
    lex_.next();
    expect(':', "after 'values'");
    const Position values_at = position_of(peek());
    s.values = tensor_constant();
    if (s.values.dtype() != t.elem_type) {
      fail(values_at,
           fmt::format("sparse tensor values are {}, but the type says {}",
                       ir::data_type_name(s.values.dtype()), ir::data_type_name(t.elem_type)));
    }
    expect(',', "after the values");
    if (!peek().is_word("indices")) expected("'indices:'");
    lex_.next();
    expect(':', "after 'indices'");
    s.indices = tensor_constant();
    expect('}', "to close the sparse tensor");
    if (!sparse_name.empty()) s.values.mutable_proto_info().name = std::move(sparse_name);
    return s;
  }

  // ---------------------------------------------------------------- attributes

  static std::optional<AttributeType> attribute_type(std::string_view name) {
    for (int i = 0; i <= 14; ++i) {
      const auto t = static_cast<AttributeType>(i);
      if (ir::attribute_type_name(t) == name) return t;
    }
    return std::nullopt;
  }

  static AttributeType element_of(AttributeType list) {
    switch (list) {
      case AttributeType::kFloats:
        return AttributeType::kFloat;
      case AttributeType::kInts:
        return AttributeType::kInt;
      case AttributeType::kStrings:
        return AttributeType::kString;
      case AttributeType::kTensors:
        return AttributeType::kTensor;
      case AttributeType::kGraphs:
        return AttributeType::kGraph;
      case AttributeType::kSparseTensors:
        return AttributeType::kSparseTensor;
      case AttributeType::kTypeProtos:
        return AttributeType::kTypeProto;
      default:
        return AttributeType::kUndefined;
    }
  }

  static AttributeType list_of(AttributeType single) {
    for (int i = 6; i <= 14; ++i) {
      const auto t = static_cast<AttributeType>(i);
      if (element_of(t) == single) return t;
    }
    return AttributeType::kUndefined;
  }

  // What an untyped attribute value is, from its first tokens (as onnx.parser
  // infers it): a number, a string, a tensor, a type or a graph.
  AttributeType infer_single() {
    const Token& t = peek();
    if (t.kind == TokenKind::kString) return AttributeType::kString;
    if (t.kind == TokenKind::kNumber)
      return is_int_literal(t.text) ? AttributeType::kInt : AttributeType::kFloat;
    if (t.is('<')) {
      // Annotations: look past them at what they describe.
      size_t k = 1;
      int open = 1;
      while (open > 0) {
        const Token& u = peek(k++);
        if (u.kind == TokenKind::kEnd) return AttributeType::kGraph;  // fails later with a position
        open += u.is('<') ? 1 : u.is('>') ? -1 : 0;
      }
      const Token& u = peek(k);
      if (u.kind == TokenKind::kIdent && (ir::parse_data_type(u.text) || u.text == "sparse_tensor"))
        return u.text == "sparse_tensor" ? AttributeType::kSparseTensor : AttributeType::kTensor;
      return AttributeType::kGraph;
    }
    if (at_type()) {
      // A type followed by a name, '=' or '{' is a tensor constant.
      size_t k = scan_type(0);
      const Token& after = peek(k);
      const bool constant = after.is('{') || after.is('=') || after.kind == TokenKind::kIdent ||
                            after.kind == TokenKind::kString;
      if (!constant) return AttributeType::kTypeProto;
      return t.is_word("sparse_tensor") ? AttributeType::kSparseTensor : AttributeType::kTensor;
    }
    if (at_number()) return AttributeType::kFloat;  // nan, inf
    if (t.kind == TokenKind::kIdent) return AttributeType::kGraph;
    expected("an attribute value");
  }

  // The number of tokens the type starting `k` tokens ahead spans (best effort:
  // balanced brackets; errors are reported when the type is really parsed).
  size_t scan_type(size_t k) {
    int depth = 0;
    ++k;  // the type word or '?'
    while (true) {
      const Token& t = peek(k);
      if (t.kind == TokenKind::kEnd) return k;
      if (t.is('(') || t.is('[')) {
        ++depth;
      } else if (t.is(')') || t.is(']')) {
        if (depth == 0) return k;
        --depth;
      } else if (depth == 0 && t.is(':') && peek(k + 1).kind == TokenKind::kString) {
        ++k;  // a denotation
      } else if (depth == 0) {
        return k;
      }
      ++k;
    }
  }

  // One value of the given single type (kUndefined: infer it).
  void single_value(ir::Attribute& a, AttributeType kind, bool in_list, Scope* scope) {
    if (kind == AttributeType::kUndefined) kind = infer_single();
    const Position at = position_of(peek());
    auto store = [&]<typename T>(T v) {
      if (!in_list) {
        a.value = std::move(v);
      } else {
        if (!std::holds_alternative<std::vector<T>>(a.value)) a.value = std::vector<T>{};
        std::get<std::vector<T>>(a.value).push_back(std::move(v));
      }
    };
    switch (kind) {
      case AttributeType::kFloat:
        store(float_value("a float"));
        break;
      case AttributeType::kInt:
        store(int64_value("an integer"));
        break;
      case AttributeType::kString:
        store(string_literal("a quoted string"));
        break;
      case AttributeType::kTensor:
        store(tensor_constant());
        break;
      case AttributeType::kGraph:
        store(subgraph(scope));
        break;
      case AttributeType::kSparseTensor: {
        Annotations notes = optional_annotations();
        ir::SparseTensor s = sparse_constant();
        apply_to_tensor(notes, s.values);
        store(std::move(s));
        break;
      }
      case AttributeType::kTypeProto:
        store(type());
        break;
      default:
        fail(at, "expected a single attribute value");
    }
  }

  // An attribute value after '=' (declared type or kUndefined to infer).
  void attribute_value(ir::Attribute& a, Scope* scope) {
    const Token start = peek();
    Nesting nesting(*this, start);
    if (accept('@')) {
      if (a.type == AttributeType::kUndefined)
        fail(start, fmt::format("attribute reference '{}' needs a type: write {}: <type> = @name",
                                a.name, a.name));
      a.ref_attr_name = name("the name of the referenced attribute");
      return;
    }
    if (start.is('[')) {
      lex_.next();
      AttributeType single = element_of(a.type);
      if (a.type != AttributeType::kUndefined && single == AttributeType::kUndefined)
        fail(start, fmt::format("attribute '{}' is a single {}, not a list", a.name,
                                ir::attribute_type_name(a.type)));
      if (peek().is(']')) {
        if (a.type == AttributeType::kUndefined)
          fail(start, fmt::format("empty list needs a type: write {}: ints = []", a.name));
        set_empty_list(a);
        lex_.next();
        return;
      }
      if (single == AttributeType::kUndefined) {
        single = infer_single();
        a.type = list_of(single);
      }
      do {
        single_value(a, single, /*in_list=*/true, scope);
      } while (accept(','));
      expect(']', "to close the list");
      return;
    }
    if (a.type != AttributeType::kUndefined && element_of(a.type) != AttributeType::kUndefined)
      expected(fmt::format("'[' to start the {} list", ir::attribute_type_name(a.type)));
    if (a.type == AttributeType::kUndefined) a.type = infer_single();
    single_value(a, a.type, /*in_list=*/false, scope);
  }

  static void set_empty_list(ir::Attribute& a) {
    switch (a.type) {
      case AttributeType::kFloats:
        a.value = std::vector<float>{};
        break;
      case AttributeType::kInts:
        a.value = std::vector<int64_t>{};
        break;
      case AttributeType::kStrings:
        a.value = std::vector<std::string>{};
        break;
      case AttributeType::kTensors:
        a.value = std::vector<ir::Tensor>{};
        break;
      case AttributeType::kGraphs:
        a.value = std::vector<std::shared_ptr<ir::Graph>>{};
        break;
      case AttributeType::kSparseTensors:
        a.value = std::vector<ir::SparseTensor>{};
        break;
      case AttributeType::kTypeProtos:
        a.value = std::vector<ir::Type>{};
        break;
      default:
        break;
    }
  }

  // `[<doc_string: ...>] name [: type] [= value]`.
  ir::Attribute attribute(Scope* scope, bool in_function) {
    Annotations notes = optional_annotations();
    if (notes.has_metadata) fail(notes.at, "attributes have no metadata_props, only doc_string");
    ir::Attribute a;
    const Token name_token = peek();
    a.name = name("an attribute name");
    a.doc_string = notes.doc_string;
    const bool typed = accept(':');
    if (typed) {
      const Token t = peek();
      if (t.kind != TokenKind::kIdent) expected("an attribute type such as int or floats");
      auto type = attribute_type(t.text);
      if (!type) {
        fail(t,
             fmt::format("unknown attribute type '{}'; expected float, int, string, tensor, graph, "
                         "sparse_tensor, type_proto or their plurals",
                         t.text));
      }
      lex_.next();
      a.type = *type;
    }
    if (!accept('=')) {
      // Declared without a value: `name` or `name: type` in a function's
      // attribute list; `name: type` is also kept on nodes, so that any IR
      // attribute prints and parses back.
      if (!in_function && !typed)
        expected(fmt::format("'=' and a value for attribute '{}'", a.name));
      return a;
    }
    attribute_value(a, scope);
    return a;
  }

  // `<attr, attr, ...>` on a node.
  std::vector<ir::Attribute> node_attributes(Scope* scope) {
    std::vector<ir::Attribute> attrs;
    expect('<', "to start attributes");
    do {
      const Token at = peek();
      ir::Attribute a = attribute(scope, /*in_function=*/false);
      for (const ir::Attribute& b : attrs)
        if (b.name == a.name) fail(at, fmt::format("attribute '{}' given twice", a.name));
      attrs.push_back(std::move(a));
    } while (accept(','));
    expect('>', "to close attributes");
    return attrs;
  }

  // ---------------------------------------------------------------- values

  // `[<annotations>] [type] name`
  ValueDecl value_decl(bool type_required) {
    ValueDecl d;
    d.notes = optional_annotations();
    d.type_at = position_of(peek());
    if (at_type()) {
      d.type = type();
    } else if (type_required) {
      expected("a type");
    } else if (peek().kind == TokenKind::kIdent && (peek(1).is('[') || peek(1).is('('))) {
      fail(peek(), fmt::format("unknown type '{}'", peek().text));
    }
    d.at = position_of(peek());
    d.name = name("a value name");
    return d;
  }

  // Names separated by commas, where an empty name may be written as "" or
  // left out: `(a, , b)`. A trailing comma adds nothing: `(a,)` is `(a)`, as
  // in onnx.parser.
  struct NameRef {
    std::string name;
    Position at;
  };
  std::vector<NameRef> name_list(char close) {
    std::vector<NameRef> names;
    if (peek().is(close)) return names;
    while (true) {
      NameRef r;
      r.at = position_of(peek());
      if (at_name()) {
        r.name = name("a name");
      } else if (!peek().is(',')) {
        expected("a name, \"\" or ','");
      }
      names.push_back(std::move(r));
      if (!accept(',') || peek().is(close)) break;
    }
    return names;
  }

  // ---------------------------------------------------------------- graphs

  void define(Scope& scope, const std::string& name, ir::Value* v, Position at) {
    if (name.empty()) return;  // "" names nothing: uses of "" are omitted inputs
    auto [it, inserted] = scope.values.try_emplace(name, Definition{v, at});
    if (!inserted) {
      fail(at, fmt::format("'{}' is defined twice in graph '{}' (first at line {}, column {})",
                           name, scope.graph->name(), it->second.at.line, it->second.at.column));
    }
  }

  // Resolves what the graph's text left open, now that it has all been read;
  // what stays open moves to `parent`, or is an error at the top.
  void close_scope(Scope& scope, Scope* parent) {
    for (Reference& r : scope.open) {
      auto it = scope.values.find(r.name);
      if (it == scope.values.end()) {
        if (parent != nullptr) {
          parent->open.push_back(std::move(r));
          continue;
        }
        fail(r.at, fmt::format("'{}' is not defined{}", r.name,
                               r.graph ? " (it is listed as a graph output)" : ""));
      }
      resolve(r, it->second.value);
    }
    scope.open.clear();
    std::unordered_map<std::string, ir::Value*> detached;
    for (const ValueDecl& d : scope.value_info) {
      ir::Value* v = nullptr;
      if (auto it = scope.values.find(d.name); it != scope.values.end()) {
        v = it->second.value;
      } else if (auto jt = detached.find(d.name); jt != detached.end()) {
        v = jt->second;
      } else {
        v = scope.graph->create_detached_value(d.name);
        detached.emplace(d.name, v);
      }
      apply(d, v);
      scope.graph->value_info().push_back(v);
    }
  }

  static void resolve(const Reference& r, ir::Value* v) {
    if (r.node != nullptr) {
      r.node->set_input(r.index, v);
    } else {
      r.graph->outputs()[r.index] = v;
      if (r.decl) apply(*r.decl, v);
    }
  }

  void top_graph(ir::Graph& g, const Annotations& notes) {
    Scope scope;
    graph_body(g, scope, notes);
    close_scope(scope, nullptr);
  }

  std::shared_ptr<ir::Graph> subgraph(Scope* parent) {
    Annotations notes;
    if (peek().is('<')) notes = annotations(true);
    auto g = std::make_shared<ir::Graph>();
    Scope scope;
    graph_body(*g, scope, notes);
    close_scope(scope, parent);
    return g;
  }

  // name (inputs) => (outputs) [<declarations>] {nodes}
  void graph_body(ir::Graph& g, Scope& scope, const Annotations& notes) {
    const Token start = peek();
    Nesting nesting(*this, start);
    scope.graph = &g;
    apply_to_graph(notes, g);
    g.set_name(name("a graph name"));
    expect('(', "to start the graph inputs");
    if (!accept(')')) {
      do {
        ValueDecl d = value_decl(/*type_required=*/false);
        ir::Value* v = g.add_input(d.name);
        apply(d, v);
        define(scope, d.name, v, d.at);
        if (accept('=')) {
          if (!d.type) fail(d.at, "an input with an initializer needs a tensor type");
          ir::Tensor t = tensor_after_type(*d.type, d.type_at);
          g.set_initializer(v, std::move(t));
        }
      } while (accept(','));
      expect(')', "to close the graph inputs");
    }
    if (peek().kind != TokenKind::kArrow) expected("'=>' between graph inputs and outputs");
    lex_.next();
    outputs(g, scope);
    if (peek().is('<')) declarations(g, scope);
    node_list(g, scope);
  }

  void outputs(ir::Graph& g, Scope& scope) {
    expect('(', "to start the outputs");
    if (accept(')')) return;
    do {
      ValueDecl d = value_decl(false);
      Reference r;
      r.at = d.at;
      r.name = d.name;
      r.graph = &g;
      r.index = g.outputs().size();
      g.outputs().push_back(nullptr);
      r.decl = std::move(d);
      scope.open.push_back(std::move(r));
    } while (accept(','));
    expect(')', "to close the outputs");
  }

  // `<type name = data, type name, ...>`: initializers and value_info.
  void declarations(ir::Graph& g, Scope& scope) {
    expect('<', "to start initializers and value_info");
    if (accept('>')) return;
    do {
      Annotations notes = optional_annotations();
      ValueDecl d = value_decl(/*type_required=*/true);
      if (!accept('=')) {
        d.notes = std::move(notes);
        scope.value_info.push_back(std::move(d));
        continue;
      }
      const ir::Type& t = *d.type;
      if (t.kind == ir::TypeKind::kSparseTensor) {
        ir::SparseTensor s = sparse_after_type(t, d.type_at, /*allow_name=*/false);
        apply_to_tensor(notes, s.values);
        define(scope, d.name, g.add_sparse_initializer(d.name, std::move(s)), d.at);
        continue;
      }
      ir::Tensor tensor = tensor_after_type_no_name(t, d.type_at);
      apply_to_tensor(notes, tensor);
      auto it = scope.values.find(d.name);
      if (it != scope.values.end() && it->second.value->is_graph_input() &&
          it->second.value->const_value() == nullptr && it->second.value->graph() == &g) {
        g.set_initializer(it->second.value, std::move(tensor));  // an input's initializer
        continue;
      }
      define(scope, d.name, g.add_initializer(d.name, std::move(tensor)), d.at);
    } while (accept(','));
    expect('>', "to close initializers and value_info");
  }

  ir::Tensor tensor_after_type_no_name(const ir::Type& t, Position at) {
    if (t.kind != ir::TypeKind::kTensor)
      fail(at, fmt::format("an initializer needs a tensor type, found {}", t.to_string()));
    return tensor_data(t.elem_type, static_dims(t, at), at);
  }

  void node_list(ir::Graph& g, Scope& scope) {
    expect('{', "to start the nodes");
    while (!accept('}')) {
      if (peek().kind == TokenKind::kEnd) expected("'}' to close the nodes");
      node(g, scope);
    }
  }

  // True when '<' after a node's inputs starts the next node's annotations
  // (`<doc_string: "..."`) rather than this node's attributes (`<alpha: float`).
  bool annotations_ahead() {
    return peek().is('<') && peek(1).kind == TokenKind::kIdent && peek(2).is(':') &&
           (peek(3).kind == TokenKind::kString || peek(3).is('['));
  }

  void node(ir::Graph& g, Scope& scope) {
    Annotations notes = optional_annotations();
    std::string node_name;
    if (accept('[')) {
      if (at_name()) node_name = name("a node name");
      expect(']', "to close the node name");
    }
    std::vector<NameRef> outs;
    if (!peek().is('=')) {
      outs = name_list('=');
      if (outs.empty()) expected("output names or '='");
    }
    if (!peek().is('=')) expected("'=' after the node outputs");
    lex_.next();
    // Operator: [domain '.'] op [':' overload]; see text.h.
    std::vector<std::string> parts;
    parts.push_back(name("an operator name"));
    while (accept('.')) parts.push_back(name("an operator name after '.'"));
    std::string op = std::move(parts.back());
    parts.pop_back();
    std::string domain;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (i) domain += '.';
      domain += parts[i];
    }
    std::string overload;
    if (accept(':')) overload = name("an overload name after ':'");
    std::vector<ir::Attribute> attrs;
    if (peek().is('<')) attrs = node_attributes(&scope);
    expect('(', fmt::format("to start the inputs of {}", op));
    std::vector<NameRef> ins = name_list(')');
    expect(')', fmt::format("to close the inputs of {}", op));
    if (attrs.empty() && peek().is('<') && !annotations_ahead()) attrs = node_attributes(&scope);

    ir::Node* n = g.append_node(std::move(op), std::vector<ir::Value*>(ins.size(), nullptr),
                                outs.size(), std::move(domain));
    n->set_name(std::move(node_name));
    n->set_overload(std::move(overload));
    n->set_doc_string(std::move(notes.doc_string));
    n->set_metadata_props(std::move(notes.metadata_props));
    for (ir::Attribute& a : attrs) n->set_attribute(std::move(a));
    for (size_t i = 0; i < outs.size(); ++i) {
      if (outs[i].name.empty()) continue;
      n->output(i)->set_name(outs[i].name);
      define(scope, outs[i].name, n->output(i), outs[i].at);
    }
    for (size_t i = 0; i < ins.size(); ++i) {
      if (ins[i].name.empty()) continue;
      Reference r;
      r.at = ins[i].at;
      r.name = std::move(ins[i].name);
      r.node = n;
      r.index = i;
      scope.open.push_back(std::move(r));
    }
  }

  // ---------------------------------------------------------------- functions

  std::unique_ptr<ir::Function> function() {
    std::string domain, overload, doc;
    ir::OpsetImports imports;
    ir::MetadataProps metadata;
    if (accept('<')) {
      std::vector<std::string> seen;
      do {
        const Token key = peek();
        if (key.kind != TokenKind::kIdent) expected("a function header key such as domain");
        lex_.next();
        const std::string k(key.text);
        if (std::find(seen.begin(), seen.end(), k) != seen.end())
          fail(key, fmt::format("'{}' given twice", k));
        seen.push_back(k);
        expect(':', fmt::format("after '{}'", k));
        if (k == "domain") {
          domain = string_literal("a quoted domain");
        } else if (k == "overload") {
          overload = string_literal("a quoted overload");
        } else if (k == "opset_import") {
          imports = opset_imports();
        } else if (k == "doc_string") {
          doc = string_literal("a string");
        } else if (k == "metadata_props") {
          metadata = string_pairs();
        } else {
          fail(key, fmt::format("unknown function header key '{}'; expected domain, overload, "
                                "opset_import, doc_string or metadata_props",
                                k));
        }
      } while (accept(','));
      expect('>', "to close the function header");
    }
    const Token start = peek();
    auto f = std::make_unique<ir::Function>(std::move(domain), name("a function name"));
    f->overload = std::move(overload);
    f->opset_imports = std::move(imports);
    f->doc_string = std::move(doc);
    f->metadata_props = std::move(metadata);
    Scope scope;
    ir::Graph& body = f->body();
    scope.graph = &body;
    Nesting nesting(*this, start);
    if (accept('<')) {
      do {
        const Token at = peek();
        // A bare name is FunctionProto.attribute; anything more (a type, a
        // default, a doc string) is FunctionProto.attribute_proto.
        const bool bare = at_name() && (peek(1).is(',') || peek(1).is('>'));
        ir::Attribute a;
        if (bare) {
          a.name = name("an attribute name");
        } else {
          a = attribute(&scope, /*in_function=*/true);
        }
        for (const std::string& n : f->attribute_names)
          if (n == a.name) fail(at, fmt::format("attribute '{}' declared twice", a.name));
        for (const ir::Attribute& b : f->attribute_defaults)
          if (b.name == a.name) fail(at, fmt::format("attribute '{}' declared twice", a.name));
        if (bare) {
          f->attribute_names.push_back(std::move(a.name));
        } else {
          f->attribute_defaults.push_back(std::move(a));
        }
      } while (accept(','));
      expect('>', "to close the function attributes");
    }
    expect('(', "to start the function inputs");
    if (!accept(')')) {
      do {
        ValueDecl d = value_decl(false);
        ir::Value* v = body.add_input(d.name);
        apply(d, v);
        define(scope, d.name, v, d.at);
      } while (accept(','));
      expect(')', "to close the function inputs");
    }
    if (peek().kind != TokenKind::kArrow) expected("'=>' between function inputs and outputs");
    lex_.next();
    outputs(body, scope);
    if (peek().is('<')) declarations(body, scope);
    node_list(body, scope);
    close_scope(scope, nullptr);
    return f;
  }

  Lexer lex_;
  int depth_ = 0;
};

}  // namespace

ir::Model parse_model(std::string_view text, std::string_view source_name) {
  Parser p(text, source_name);
  return p.model();
}

std::unique_ptr<ir::Function> parse_function(std::string_view text, std::string_view source_name) {
  Parser p(text, source_name);
  return p.function_only();
}

std::unique_ptr<ir::Graph> parse_graph(std::string_view text, std::string_view source_name) {
  Parser p(text, source_name);
  return p.graph_only();
}

ir::Type parse_type(std::string_view text, std::string_view source_name) {
  Parser p(text, source_name);
  return p.type_only();
}

}  // namespace onnxscript::text
