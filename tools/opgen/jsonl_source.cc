// The vendored operator table (tools/opgen/schemas/*.jsonl) as a SchemaSource.
//
// Each line is one JSON object describing one operator version (see
// schemas/README.md). The reader below parses exactly the JSON this format
// needs (objects, arrays, strings, numbers, true/false/null) and reports
// errors as "file:line: ...".

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "schema.h"

namespace opgen {

namespace {

// ---------------------------------------------------------------- JSON

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // a string's value, or a number as written
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json* find(const std::string& key) const {
    for (const auto& [k, v] : members)
      if (k == key) return &v;
    return nullptr;
  }
};

class JsonParser {
 public:
  JsonParser(const std::string& text, std::string where) : s_(text), where_(std::move(where)) {}

  Json parse_document() {
    Json value = parse_value();
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw std::runtime_error(where_ + ": " + message + " (column " + std::to_string(pos_ + 1) +
                             ")");
  }

  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }

  void expect(char c) {
    skip_space();
    if (pos_ >= s_.size() || s_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  bool consume(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool consume_word(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  Json parse_value() {
    skip_space();
    if (pos_ >= s_.size()) fail("unexpected end of line");
    Json v;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = Json::Kind::kObject;
      if (consume('}')) return v;
      do {
        skip_space();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a member name");
        std::string key = parse_string();
        expect(':');
        v.members.emplace_back(std::move(key), parse_value());
      } while (consume(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.kind = Json::Kind::kArray;
      if (consume(']')) return v;
      do {
        v.items.push_back(parse_value());
      } while (consume(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Kind::kString;
      v.text = parse_string();
    } else if (consume_word("true")) {
      v.kind = Json::Kind::kBool;
      v.boolean = true;
    } else if (consume_word("false")) {
      v.kind = Json::Kind::kBool;
    } else if (consume_word("null")) {
      v.kind = Json::Kind::kNull;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      const size_t start = pos_++;
      while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) ||
                                  std::string_view("+-.eE").find(s_[pos_]) != std::string::npos))
        ++pos_;
      v.kind = Json::Kind::kNumber;
      v.text = s_.substr(start, pos_ - start);
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  // At an opening quote; returns the decoded string (\uXXXX as UTF-8).
  std::string parse_string() {
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("short \\u escape");
          const unsigned long cp = std::strtoul(s_.substr(pos_, 4).c_str(), nullptr, 16);
          pos_ += 4;
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        default:
          fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  const std::string& s_;
  std::string where_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------- records

// Field access that names the file, line and field on a mismatch.
class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw std::runtime_error(where_ + ": " + message);
  }

  const Json& field(const Json& object, const std::string& key, Json::Kind kind) const {
    const Json* v = object.find(key);
    if (!v) fail("missing field '" + key + "'");
    if (v->kind != kind) fail("field '" + key + "' has the wrong JSON type");
    return *v;
  }
  std::string string(const Json& o, const std::string& key) const {
    return field(o, key, Json::Kind::kString).text;
  }
  bool boolean(const Json& o, const std::string& key) const {
    return field(o, key, Json::Kind::kBool).boolean;
  }
  int64_t integer(const Json& o, const std::string& key) const {
    const std::string& t = field(o, key, Json::Kind::kNumber).text;
    size_t used = 0;
    int64_t value = 0;
    try {
      value = std::stoll(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != t.size()) fail("field '" + key + "' is not an integer: " + t);
    return value;
  }
  const std::vector<Json>& array(const Json& o, const std::string& key) const {
    return field(o, key, Json::Kind::kArray).items;
  }

 private:
  std::string where_;
};

AttrType attr_type_of(const Reader& r, const std::string& name) {
  static const std::map<std::string, AttrType> types = {
      {"float", AttrType::kFloat},
      {"int", AttrType::kInt},
      {"string", AttrType::kString},
      {"tensor", AttrType::kTensor},
      {"graph", AttrType::kGraph},
      {"list of floats", AttrType::kFloats},
      {"list of ints", AttrType::kInts},
      {"list of strings", AttrType::kStrings},
      {"list of tensors", AttrType::kTensors},
      {"list of graphs", AttrType::kGraphs},
      {"sparse_tensor", AttrType::kSparseTensor},
      {"list of sparse_tensors", AttrType::kSparseTensors},
      {"type_proto", AttrType::kTypeProto},
      {"list of type_protos", AttrType::kTypeProtos},
  };
  auto it = types.find(name);
  if (it == types.end()) r.fail("unknown attribute type '" + name + "'");
  return it->second;
}

// The items of a printed Python list ("['Tanh', 'Tanh']", "[0, 2]").
std::vector<std::string> printed_list_items(const std::string& text) {
  std::vector<std::string> out;
  std::string inner = text;
  if (inner.size() >= 2 && inner.front() == '[' && inner.back() == ']')
    inner = inner.substr(1, inner.size() - 2);
  size_t start = 0;
  while (start <= inner.size()) {
    size_t comma = inner.find(',', start);
    if (comma == std::string::npos) comma = inner.size();
    std::string item = inner.substr(start, comma - start);
    const size_t b = item.find_first_not_of(" '\"");
    const size_t e = item.find_last_not_of(" '\"");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
    start = comma + 1;
  }
  return out;
}

// A default "as printed" in the changelog, as a record; nullopt when the
// text does not read as the attribute's type.
std::optional<AttrDefault> default_of(AttrType type, const std::string& text) {
  try {
    switch (type) {
      case AttrType::kInt:
        return AttrDefault(static_cast<int64_t>(std::stoll(text)));
      case AttrType::kFloat:
        return AttrDefault(std::stof(text));
      case AttrType::kString:
        return AttrDefault(text);
      case AttrType::kInts: {
        std::vector<int64_t> v;
        for (const std::string& s : printed_list_items(text)) v.push_back(std::stoll(s));
        return AttrDefault(std::move(v));
      }
      case AttrType::kFloats: {
        std::vector<float> v;
        for (const std::string& s : printed_list_items(text)) v.push_back(std::stof(s));
        return AttrDefault(std::move(v));
      }
      case AttrType::kStrings:
        return AttrDefault(printed_list_items(text));
      default:
        return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

FormalRecord formal_of(const Reader& r, const Json& j) {
  FormalRecord f;
  f.name = r.string(j, "name");
  f.type = r.string(j, "type");
  f.optional = r.boolean(j, "optional");
  f.variadic = r.boolean(j, "variadic");
  f.heterogeneous = r.boolean(j, "heterogeneous");
  f.min_arity = f.optional ? 0 : 1;
  return f;
}

OpSchemaRecord record_of(const Reader& r, const Json& j) {
  if (j.kind != Json::Kind::kObject) r.fail("a line must hold one JSON object");
  OpSchemaRecord s;
  s.domain = r.string(j, "domain");
  if (s.domain == "ai.onnx") s.domain.clear();
  s.name = r.string(j, "name");
  s.since_version = r.integer(j, "since_version");
  if (s.name.empty() || s.since_version < 1) r.fail("an operator needs a name and a version >= 1");
  // Optional: ONNX's changelog lists a deprecated version without a signature.
  if (const Json* d = j.find("deprecated")) {
    if (d->kind != Json::Kind::kBool) r.fail("field 'deprecated' must be true or false");
    s.deprecated = d->boolean;
  }
  for (const Json& f : r.array(j, "inputs")) s.inputs.push_back(formal_of(r, f));
  for (const Json& f : r.array(j, "outputs")) s.outputs.push_back(formal_of(r, f));
  for (const Json& a : r.array(j, "attributes")) {
    AttributeRecord ar;
    ar.name = r.string(a, "name");
    ar.type = attr_type_of(r, r.string(a, "type"));
    ar.required = r.boolean(a, "required");
    const Json* d = a.find("default");
    if (!d) r.fail("attribute '" + ar.name + "' has no field 'default'");
    if (d->kind == Json::Kind::kString && !ar.required)
      ar.default_value = default_of(ar.type, d->text);
    else if (d->kind != Json::Kind::kNull)
      r.fail("attribute '" + ar.name + "': 'default' must be a string or null");
    s.attributes.push_back(std::move(ar));
  }
  for (const Json& c : r.array(j, "type_constraints")) {
    TypeConstraintRecord tc;
    tc.name = r.string(c, "name");
    for (const Json& t : r.array(c, "allowed")) {
      if (t.kind != Json::Kind::kString) r.fail("type constraint '" + tc.name + "': not a string");
      tc.allowed.push_back(t.text);
    }
    s.type_constraints.push_back(std::move(tc));
  }
  return s;
}

class JsonlSource : public SchemaSource {
 public:
  JsonlSource(std::vector<std::filesystem::path> files, const Catalog& known)
      : files_(std::move(files)) {
    if (!files_.empty()) {
      read_summaries(files_.front().parent_path() / "summaries.tsv");
      source_ = files_.front().filename().string();
    }
    std::set<std::tuple<std::string, std::string, int64_t>> seen;
    for (const OpSchemaRecord& k : known.schemas) seen.emplace(k.domain, k.name, k.since_version);
    for (const auto& file : files_) {
      std::ifstream in(file);
      if (!in) throw std::runtime_error("opgen: cannot read " + file.string());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = file.string() + ":" + std::to_string(number);
        const Reader reader(where);
        OpSchemaRecord s = record_of(reader, JsonParser(line, where).parse_document());
        // The versions the earlier sources define stay theirs (libonnx has
        // the exact defaults, documentation and function bodies).
        if (seen.count({s.domain, s.name, s.since_version})) continue;
        if (!added_.insert({s.domain, s.name, s.since_version}).second)
          reader.fail(s.name + "-" + std::to_string(s.since_version) + " is listed twice");
        s.doc = doc_of(s);
        schemas_.push_back(std::move(s));
      }
    }
  }

  // The doc comment of a version from the table: the summary of a new
  // operator (summaries.tsv), and the operator's page on onnx.ai.
  std::string doc_of(const OpSchemaRecord& s) const {
    std::string doc;
    if (auto it = summaries_.find({s.domain, s.name}); it != summaries_.end())
      doc = it->second + "\n\n";
    const std::string page = s.domain.empty()           ? "onnx__" + s.name
                             : s.domain == "ai.onnx.ml" ? "onnx_aionnxml_" + s.name
                                                        : std::string();
    doc += page.empty() ? "Specification: https://onnx.ai/onnx/operators/"
                        : "Specification: https://onnx.ai/onnx/operators/" + page + ".html";
    doc += " (version " + std::to_string(s.since_version) + "; signature from " + source_ + ").";
    return doc;
  }

  // Reads domain<TAB>operator<TAB>summary lines ("-" for ai.onnx; '#' comments).
  void read_summaries(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return;  // optional: versions then document their link alone
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty() || line[0] == '#') continue;
      const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
      if (b == std::string::npos) {
        throw std::runtime_error(file.string() + ":" + std::to_string(number) +
                                 ": expected domain<TAB>operator<TAB>summary");
      }
      std::string domain = line.substr(0, a);
      if (domain == "-") domain.clear();
      summaries_[{domain, line.substr(a + 1, b - a - 1)}] = line.substr(b + 1);
    }
  }

  std::string name() const override {
    std::string n = "the operator table";
    for (const auto& f : files_) n += " " + f.filename().string();
    return n;
  }

  std::vector<OpSchemaRecord> schemas() const override { return schemas_; }

  std::vector<DomainRecord> domains() const override {
    // Each domain's opsets run to its newest version, whether or not an
    // operator changed in it (opset 28 of ai.onnx, 5 of ai.onnx.ml, ...).
    std::map<std::string, DomainRecord> out;
    for (const OpSchemaRecord& s : schemas_) {
      auto [it, inserted] = out.emplace(s.domain, DomainRecord{s.domain, 1, s.since_version});
      if (!inserted) it->second.max_version = std::max(it->second.max_version, s.since_version);
    }
    std::vector<DomainRecord> v;
    for (auto& [name, d] : out) v.push_back(d);
    return v;
  }

 private:
  std::vector<std::filesystem::path> files_;
  std::string source_;  // the first table's file name, for doc comments
  std::map<std::pair<std::string, std::string>, std::string> summaries_;
  std::vector<OpSchemaRecord> schemas_;
  std::set<std::tuple<std::string, std::string, int64_t>> added_;
};

}  // namespace

std::unique_ptr<SchemaSource> make_jsonl_source(std::vector<std::filesystem::path> files,
                                                const Catalog& known) {
  return std::make_unique<JsonlSource>(std::move(files), known);
}

}  // namespace opgen
