// The printer of the ONNX textual syntax. Layout follows onnx.printer (three
// spaces per level, `name: type = value` attributes, attributes after the
// inputs for nodes with subgraphs) so that ONNX users recognise it; the
// extensions are described in text.h.

#include <bit>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "onnxscript/serde/text.h"
#include "onnxscript/support/error.h"
#include "text_internal.h"

namespace onnxscript::text {
namespace {

using detail::append_name;
using detail::append_quoted;
using ir::DataType;

static_assert(std::endian::native == std::endian::little,
              "tensor bytes are little-endian; the printer reads them in place");

constexpr int kIndent = 3;

template <typename T>
void append_int(std::string& out, T v) {
  char buf[32];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, ptr);
}

// Reads element `i` of type T from possibly unaligned little-endian bytes.
template <typename T>
T load(const std::byte* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

class Printer {
 public:
  explicit Printer(const PrintOptions& options) : options_(options) {}

  std::string take() { return std::move(out_); }

  void model(const ir::Model& m) {
    out_ += "<\n";
    key_first("ir_version");
    append_int(out_, m.ir_version);
    key("opset_import");
    opsets(m.opset_imports);
    if (!m.producer_name.empty()) key_string("producer_name", m.producer_name);
    if (!m.producer_version.empty()) key_string("producer_version", m.producer_version);
    if (!m.domain.empty()) key_string("domain", m.domain);
    if (m.model_version != 0) {
      key("model_version");
      append_int(out_, m.model_version);
    }
    if (!m.doc_string.empty()) key_string("doc_string", m.doc_string);
    if (!m.metadata_props.empty()) {
      key("metadata_props");
      metadata(m.metadata_props);
    }
    out_ += "\n>\n";
    if (options_.comment_dropped_fields) {
      std::vector<std::string> dropped;
      if (!m.training_info.empty())
        dropped.push_back(fmt::format("training_info ({} entries)", m.training_info.size()));
      if (!m.configuration.empty())
        dropped.push_back(fmt::format("configuration ({} entries)", m.configuration.size()));
      note(dropped, 0);
    }
    const ir::Graph& g = m.graph();
    if (graph_annotated(g)) {
      graph_annotations(g);
      out_ += '\n';
    }
    graph(g, 0);
    out_ += '\n';
    for (const auto& f : m.functions()) {
      out_ += '\n';
      function(*f);
    }
  }

  void top_graph(const ir::Graph& g) {
    if (graph_annotated(g)) {
      graph_annotations(g);
      out_ += '\n';
    }
    graph(g, 0);
    out_ += '\n';
  }

  void function(const ir::Function& f) {
    out_ += "<\n";
    key_first("domain");
    append_quoted(out_, f.domain);
    if (!f.overload.empty()) key_string("overload", f.overload);
    key("opset_import");
    opsets(f.opset_imports);
    if (!f.doc_string.empty()) key_string("doc_string", f.doc_string);
    if (!f.metadata_props.empty()) {
      key("metadata_props");
      metadata(f.metadata_props);
    }
    out_ += "\n>\n";
    append_name(out_, f.name);
    if (!f.attribute_names.empty() || !f.attribute_defaults.empty()) {
      out_ += " <";
      const char* sep = "";
      for (const std::string& name : f.attribute_names) {
        out_ += sep;
        append_name(out_, name);
        sep = ", ";
      }
      for (const ir::Attribute& a : f.attribute_defaults) {
        out_ += sep;
        attribute(a, 0);
        sep = ", ";
      }
      out_ += '>';
    }
    const ir::Graph& body = f.body();
    out_ += ' ';
    value_list(body.inputs());
    out_ += " => ";
    value_list(body.outputs());
    out_ += '\n';
    if (declarations(body, 0)) out_ += '\n';
    out_ += "{\n";
    nodes(body, 0);
    out_ += "}\n";
  }

  void type(const ir::Type& t) {
    switch (t.kind) {
      case ir::TypeKind::kUnspecified:
        out_ += '?';
        break;
      case ir::TypeKind::kTensor:
        out_ += ir::data_type_name(t.elem_type);
        shape(t.shape);
        break;
      case ir::TypeKind::kSparseTensor:
        out_ += "sparse_tensor(";
        out_ += ir::data_type_name(t.elem_type);
        shape(t.shape);
        out_ += ')';
        break;
      case ir::TypeKind::kSequence:
        out_ += "seq(";
        element_type(t);
        out_ += ')';
        break;
      case ir::TypeKind::kOptional:
        out_ += "optional(";
        element_type(t);
        out_ += ')';
        break;
      case ir::TypeKind::kMap:
        out_ += "map(";
        out_ += ir::data_type_name(t.elem_type);
        out_ += ", ";
        element_type(t);
        out_ += ')';
        break;
      case ir::TypeKind::kOpaque:
        out_ += "opaque(";
        if (!t.opaque_domain().empty()) {
          qualified(t.opaque_domain());
          out_ += ", ";
          append_name(out_, t.opaque_name());
        } else if (!t.opaque_name().empty()) {
          append_name(out_, t.opaque_name());
        }
        out_ += ')';
        break;
    }
    if (!t.denotation().empty()) {
      out_ += ':';
      append_quoted(out_, t.denotation());
    }
  }

 private:
  // ---------------------------------------------------------------- layout

  void indent(int columns) { out_.append(static_cast<size_t>(columns), ' '); }

  void key_first(std::string_view name) {
    indent(kIndent);
    out_ += name;
    out_ += ": ";
  }
  void key(std::string_view name) {
    out_ += ",\n";
    key_first(name);
  }
  void key_string(std::string_view name, std::string_view value) {
    key(name);
    append_quoted(out_, value);
  }

  void note(const std::vector<std::string>& what, int columns) {
    if (what.empty()) return;
    indent(columns);
    out_ += "# not shown in text:";
    const char* sep = " ";
    for (const std::string& w : what) {
      out_ += sep;
      out_ += w;
      sep = ", ";
    }
    out_ += '\n';
  }

  void opsets(const ir::OpsetImports& imports) {
    out_ += '[';
    const char* sep = "";
    for (const auto& [domain, version] : imports.entries()) {
      out_ += sep;
      append_quoted(out_, domain);
      out_ += " : ";
      append_int(out_, version);
      sep = ", ";
    }
    out_ += ']';
  }

  void metadata(const ir::MetadataProps& props) {
    out_ += '[';
    const char* sep = "";
    for (const auto& [k, v] : props) {
      out_ += sep;
      append_quoted(out_, k);
      out_ += ": ";
      append_quoted(out_, v);
      sep = ", ";
    }
    out_ += ']';
  }

  // `dom.sub` bare when every part is an identifier, else one quoted string.
  void qualified(std::string_view dotted) {
    bool plain = !dotted.empty();
    size_t start = 0;
    while (plain) {
      const size_t dot = dotted.find('.', start);
      const std::string_view part =
          dotted.substr(start, dot == std::string_view::npos ? dot : dot - start);
      plain = detail::is_identifier(part);
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    if (plain) {
      out_ += dotted;
    } else {
      append_quoted(out_, dotted);
    }
  }

  // A `<key: value, ...>` block of annotations; returns false if there is none.
  bool annotations(std::string_view doc, const ir::MetadataProps* props) {
    if (doc.empty() && (props == nullptr || props->empty())) return false;
    out_ += '<';
    const char* sep = "";
    if (!doc.empty()) {
      out_ += "doc_string: ";
      append_quoted(out_, doc);
      sep = ", ";
    }
    if (props != nullptr && !props->empty()) {
      out_ += sep;
      out_ += "metadata_props: ";
      metadata(*props);
    }
    out_ += '>';
    return true;
  }

  static bool graph_annotated(const ir::Graph& g) {
    return !g.doc_string.empty() || !g.metadata_props.empty() || !g.quantization_annotation.empty();
  }

  void graph_annotations(const ir::Graph& g) {
    out_ += '<';
    const char* sep = "";
    if (!g.doc_string.empty()) {
      out_ += "doc_string: ";
      append_quoted(out_, g.doc_string);
      sep = ", ";
    }
    if (!g.metadata_props.empty()) {
      out_ += sep;
      out_ += "metadata_props: ";
      metadata(g.metadata_props);
      sep = ", ";
    }
    if (!g.quantization_annotation.empty()) {
      out_ += sep;
      out_ += "quantization_annotation: [";
      const char* isep = "";
      for (const ir::QuantizationAnnotation& q : g.quantization_annotation) {
        out_ += isep;
        append_quoted(out_, q.tensor_name);
        out_ += ": ";
        metadata(q.quant_parameter_tensor_names);
        isep = ", ";
      }
      out_ += ']';
    }
    out_ += '>';
  }

  // ---------------------------------------------------------------- types

  void element_type(const ir::Type& t) {
    if (t.element) {
      type(*t.element);
    } else {
      out_ += '?';
    }
  }

  void shape(const std::optional<ir::Shape>& s) {
    if (!s) {
      out_ += "[]";
      return;
    }
    if (s->empty()) return;
    out_ += '[';
    const char* sep = "";
    for (const ir::Dim& d : *s) {
      out_ += sep;
      if (d.is_static()) {
        append_int(out_, d.value());
      } else if (d.is_symbolic()) {
        append_name(out_, d.symbol());
      } else {
        out_ += '?';
      }
      if (!d.denotation.empty()) {
        out_ += ':';
        append_quoted(out_, d.denotation);
      }
      sep = ",";
    }
    out_ += ']';
  }

  // ---------------------------------------------------------------- values

  void value(const ir::Value* v) {
    if (v == nullptr)
      throw ValidationError("a graph lists a null value among its inputs, outputs or value_info");
    if (annotations(v->doc_string(), &v->metadata_props())) out_ += ' ';
    if (v->type()) {
      type(*v->type());
      out_ += ' ';
    }
    append_name(out_, v->name());
  }

  template <typename Range>
  void value_list(const Range& values) {
    out_ += '(';
    const char* sep = "";
    for (const ir::Value* v : values) {
      out_ += sep;
      value(v);
      sep = ", ";
    }
    out_ += ')';
  }

  // The `<...>` block of initializers, sparse initializers and value_info,
  // one entry per line. Returns false when the graph has none.
  bool declarations(const ir::Graph& g, int level) {
    if (g.initializers().empty() && g.sparse_initializers().empty() && g.value_info().empty())
      return false;
    const int column = kIndent * (level + 1);
    indent(column);
    out_ += '<';
    bool first = true;
    auto next_entry = [&] {
      if (!first) {
        out_ += ",\n";
        indent(column + 1);
      }
      first = false;
    };
    for (const ir::Value* v : g.initializers()) {
      next_entry();
      const ir::Tensor& t = *v->const_value();
      tensor_annotations(t);
      tensor_type(t);
      out_ += ' ';
      append_name(out_, v->name());
      out_ += " = ";
      tensor_data(t);
    }
    for (const ir::Value* v : g.sparse_initializers()) {
      next_entry();
      const ir::SparseTensor& s = *v->sparse_value();
      sparse_type(s);
      out_ += ' ';
      append_name(out_, v->name());
      out_ += " = ";
      sparse_data(s, v->name());
    }
    for (const ir::Value* v : g.value_info()) {
      next_entry();
      value(v);
    }
    out_ += '>';
    return true;
  }

  // ---------------------------------------------------------------- tensors

  void tensor_annotations(const ir::Tensor& t) {
    const ir::TensorProtoInfo* info = t.proto_info();
    if (info && annotations(info->doc_string, &info->metadata_props)) out_ += ' ';
  }

  void tensor_type(const ir::Tensor& t) {
    out_ += ir::data_type_name(t.dtype());
    if (!t.shape().empty()) {
      out_ += '[';
      const char* sep = "";
      for (int64_t d : t.shape()) {
        out_ += sep;
        append_int(out_, d);
        sep = ",";
      }
      out_ += ']';
    }
  }

  // `float[2] name {1, 2}` as in attributes: the name is the TensorProto's.
  void tensor_constant(const ir::Tensor& t, std::string_view known_name = {}) {
    tensor_annotations(t);
    tensor_type(t);
    if (const ir::TensorProtoInfo* info = t.proto_info();
        info && !info->name.empty() && info->name != known_name) {
      out_ += ' ';
      append_name(out_, info->name);
    }
    out_ += ' ';
    tensor_data(t);
  }

  template <typename T, typename Fn>
  void elements(const std::byte* p, int64_t n, Fn&& append_one) {
    for (int64_t i = 0; i < n; ++i) {
      if (i) out_ += ", ";
      append_one(load<T>(p, static_cast<size_t>(i)));
    }
  }

  void tensor_data(const ir::Tensor& t) {
    const int64_t n = t.numel();
    if (options_.max_tensor_elements >= 0 && n > options_.max_tensor_elements) {
      out_ += "{...}";
      return;
    }
    out_ += '{';
    const auto* p = static_cast<const std::byte*>(t.raw_data());
    auto ints = [&](auto v) { append_int(out_, v); };
    switch (t.dtype()) {
      case DataType::kFloat:
        elements<float>(p, n, [&](float v) { detail::append_float(out_, v); });
        break;
      case DataType::kDouble:
        elements<double>(p, n, [&](double v) { detail::append_double(out_, v); });
        break;
      case DataType::kComplex64:
        elements<float>(p, 2 * n, [&](float v) { detail::append_float(out_, v); });
        break;
      case DataType::kComplex128:
        elements<double>(p, 2 * n, [&](double v) { detail::append_double(out_, v); });
        break;
      case DataType::kInt8:
        elements<int8_t>(p, n, [&](int8_t v) { append_int(out_, static_cast<int>(v)); });
        break;
      case DataType::kUint8:
      case DataType::kBool:
        elements<uint8_t>(p, n, [&](uint8_t v) { append_int(out_, static_cast<unsigned>(v)); });
        break;
      case DataType::kInt16:
        elements<int16_t>(p, n, ints);
        break;
      case DataType::kUint16:
        elements<uint16_t>(p, n, ints);
        break;
      case DataType::kInt32:
        elements<int32_t>(p, n, ints);
        break;
      case DataType::kUint32:
        elements<uint32_t>(p, n, ints);
        break;
      case DataType::kInt64:
        elements<int64_t>(p, n, ints);
        break;
      case DataType::kUint64:
        elements<uint64_t>(p, n, ints);
        break;
      case DataType::kFloat16:
      case DataType::kBfloat16:
        // Finding the shortest decimal costs about a microsecond; for big
        // tensors a table of all 65536 answers is cheaper.
        if (n >= 4096) {
          const auto& table = detail::narrow_table(t.dtype());
          elements<uint16_t>(p, n, [&](uint16_t v) { out_ += table[v]; });
        } else {
          elements<uint16_t>(p, n, [&](uint16_t v) { detail::append_narrow(out_, t.dtype(), v); });
        }
        break;
      case DataType::kFloat8E4M3FN:
      case DataType::kFloat8E4M3FNUZ:
      case DataType::kFloat8E5M2:
      case DataType::kFloat8E5M2FNUZ:
      case DataType::kFloat8E8M0: {
        const auto& table = detail::narrow_table(t.dtype());
        elements<uint8_t>(p, n, [&](uint8_t v) { out_ += table[v]; });
        break;
      }
      case DataType::kInt4:
      case DataType::kUint4:
      case DataType::kFloat4E2M1:
      case DataType::kInt2:
      case DataType::kUint2: {
        // Two 4-bit or four 2-bit elements a byte, the first in the lowest bits.
        const auto width = static_cast<uint32_t>(ir::bit_width(t.dtype()));
        const int64_t per_byte = 8 / width;
        const uint32_t mask = (1u << width) - 1, sign = 1u << (width - 1);
        for (int64_t i = 0; i < n; ++i) {
          if (i) out_ += ", ";
          const auto byte = static_cast<uint8_t>(p[i / per_byte]);
          const uint32_t bits = (byte >> (width * static_cast<uint32_t>(i % per_byte))) & mask;
          if (t.dtype() == DataType::kInt4 || t.dtype() == DataType::kInt2) {
            append_int(out_,
                       static_cast<int>(bits) - ((bits & sign) ? static_cast<int>(mask + 1) : 0));
          } else if (t.dtype() == DataType::kUint4 || t.dtype() == DataType::kUint2) {
            append_int(out_, bits);
          } else {
            out_ += detail::narrow_table(t.dtype())[bits];
          }
        }
        break;
      }
      case DataType::kString: {
        const auto* s = t.data<std::string>();
        for (int64_t i = 0; i < n; ++i) {
          if (i) out_ += ", ";
          append_quoted(out_, s[i]);
        }
        break;
      }
      case DataType::kUndefined:
        break;
    }
    out_ += '}';
  }

  void sparse_type(const ir::SparseTensor& s) {
    out_ += "sparse_tensor(";
    out_ += ir::data_type_name(s.values.dtype());
    if (!s.dims.empty()) {
      out_ += '[';
      const char* sep = "";
      for (int64_t d : s.dims) {
        out_ += sep;
        append_int(out_, d);
        sep = ",";
      }
      out_ += ']';
    }
    out_ += ')';
  }

  // The values tensor carries the SparseTensorProto's name; an initializer's
  // name is already written before `=`, so it is not repeated.
  void sparse_data(const ir::SparseTensor& s, std::string_view known_name = {}) {
    out_ += "{values: ";
    tensor_constant(s.values, known_name);
    out_ += ", indices: ";
    tensor_constant(s.indices);
    out_ += '}';
  }

  // `sparse_tensor(float[3,4]) {values: ..., indices: ...}` as in attributes;
  // annotations describe the values tensor, which carries the proto's name.
  void sparse_constant(const ir::SparseTensor& s) {
    sparse_type(s);
    out_ += ' ';
    sparse_data(s);
  }

  // ---------------------------------------------------------------- attributes

  template <typename T, typename Fn>
  void list(const std::vector<T>& items, Fn&& one) {
    out_ += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out_ += ", ";
      one(items[i]);
    }
    out_ += ']';
  }

  template <typename T>
  const T& payload(const ir::Attribute& a) {
    const T* v = std::get_if<T>(&a.value);
    if (v == nullptr) {
      throw ValidationError(
          fmt::format("attribute '{}' is declared {} but holds another kind of value", a.name,
                      ir::attribute_type_name(a.type)));
    }
    return *v;
  }

  // `level` is the nesting level of the node (or function) holding the attribute.
  void attribute(const ir::Attribute& a, int level) {
    if (!a.doc_string.empty()) {
      annotations(a.doc_string, nullptr);
      out_ += ' ';
    }
    append_name(out_, a.name);
    out_ += ": ";
    out_ += ir::attribute_type_name(a.type);
    if (a.is_reference()) {
      out_ += " = @";
      append_name(out_, a.ref_attr_name);
      return;
    }
    if (std::holds_alternative<std::monostate>(a.value)) return;  // declared, no value
    out_ += " = ";
    using AT = ir::AttributeType;
    switch (a.type) {
      case AT::kFloat:
        detail::append_float(out_, payload<float>(a));
        break;
      case AT::kInt:
        append_int(out_, payload<int64_t>(a));
        break;
      case AT::kString:
        append_quoted(out_, payload<std::string>(a));
        break;
      case AT::kTensor:
        tensor_constant(payload<ir::Tensor>(a));
        break;
      case AT::kGraph:
        subgraph(*payload<std::shared_ptr<ir::Graph>>(a), level + 1);
        break;
      case AT::kSparseTensor:
        sparse_constant(payload<ir::SparseTensor>(a));
        break;
      case AT::kTypeProto:
        type(payload<ir::Type>(a));
        break;
      case AT::kFloats:
        list(payload<std::vector<float>>(a), [&](float v) { detail::append_float(out_, v); });
        break;
      case AT::kInts:
        list(payload<std::vector<int64_t>>(a), [&](int64_t v) { append_int(out_, v); });
        break;
      case AT::kStrings:
        list(payload<std::vector<std::string>>(a),
             [&](const std::string& v) { append_quoted(out_, v); });
        break;
      case AT::kTensors:
        list(payload<std::vector<ir::Tensor>>(a), [&](const ir::Tensor& t) { tensor_constant(t); });
        break;
      case AT::kGraphs:
        list(payload<std::vector<std::shared_ptr<ir::Graph>>>(a),
             [&](const std::shared_ptr<ir::Graph>& g) { subgraph(*g, level + 1); });
        break;
      case AT::kSparseTensors:
        list(payload<std::vector<ir::SparseTensor>>(a),
             [&](const ir::SparseTensor& s) { sparse_constant(s); });
        break;
      case AT::kTypeProtos:
        list(payload<std::vector<ir::Type>>(a), [&](const ir::Type& t) { type(t); });
        break;
      case AT::kUndefined:
        throw ValidationError(fmt::format("attribute '{}' has no type", a.name));
    }
  }

  void subgraph(const ir::Graph& g, int level) {
    if (graph_annotated(g)) {
      graph_annotations(g);
      out_ += ' ';
    }
    graph(g, level);
  }

  // ---------------------------------------------------------------- graphs

  // From the graph's name to its closing brace. Nodes sit at
  // kIndent * (level + 1) columns, the braces at kIndent * level.
  void graph(const ir::Graph& g, int level) {
    append_name(out_, g.name());
    out_ += ' ';
    value_list(g.inputs());
    out_ += " => ";
    value_list(g.outputs());
    out_ += '\n';
    if (declarations(g, level)) {
      out_ += '\n';
      indent(kIndent * level);
      out_ += "{\n";
    } else {
      out_.back() = ' ';
      out_ += "{\n";
    }
    nodes(g, level);
    indent(kIndent * level);
    out_ += '}';
  }

  void nodes(const ir::Graph& g, int level) {
    for (const ir::Node* n : g.nodes()) node(*n, level);
  }

  void node(const ir::Node& n, int level) {
    const int column = kIndent * (level + 1);
    if (options_.comment_dropped_fields) {
      std::vector<std::string> dropped;
      if (!n.device_configurations().empty())
        dropped.push_back(
            fmt::format("device_configurations ({} entries)", n.device_configurations().size()));
      note(dropped, column);
    }
    if (!n.doc_string().empty() || !n.metadata_props().empty()) {
      indent(column);
      annotations(n.doc_string(), &n.metadata_props());
      out_ += '\n';
    }
    indent(column);
    if (!n.name().empty()) {
      out_ += '[';
      append_name(out_, n.name());
      out_ += "] ";
    }
    const char* sep = "";
    for (const ir::Value* v : n.outputs()) {
      out_ += sep;
      append_name(out_, v->name());
      sep = ", ";
    }
    out_ += n.outputs().empty() ? "= " : " = ";
    if (!n.domain().empty()) {
      qualified(n.domain());
      out_ += '.';
    }
    append_op(n.op_type());
    if (!n.overload().empty()) {
      out_ += ':';
      append_op(n.overload());
    }
    bool has_subgraph = false;
    for (const ir::Attribute& a : n.attributes()) {
      has_subgraph |= a.type == ir::AttributeType::kGraph || a.type == ir::AttributeType::kGraphs;
    }
    if (!has_subgraph) node_attributes(n, level);
    out_ += " (";
    sep = "";
    for (const ir::Value* v : n.inputs()) {
      // Text refers to values by name, and "" means an omitted input.
      if (v != nullptr && v->name().empty()) {
        throw ValidationError(
            fmt::format("node '{}' ({}) uses a value that has no name; name it before printing",
                        n.name(), n.op_type()));
      }
      out_ += sep;
      append_name(out_, v ? std::string_view(v->name()) : std::string_view());
      sep = ", ";
    }
    out_ += ')';
    if (has_subgraph) node_attributes(n, level);
    out_ += '\n';
  }

  // Op types and overloads sit after `=`, where no keyword can be confused
  // with them, so only non-identifiers need quotes.
  void append_op(std::string_view s) {
    if (detail::is_identifier(s)) {
      out_ += s;
    } else {
      append_quoted(out_, s);
    }
  }

  void node_attributes(const ir::Node& n, int level) {
    if (n.attributes().empty()) return;
    out_ += " <";
    const char* sep = "";
    for (const ir::Attribute& a : n.attributes()) {
      out_ += sep;
      attribute(a, level);
      sep = ", ";
    }
    out_ += '>';
  }

  const PrintOptions& options_;
  std::string out_;
};

}  // namespace

std::string print_model(const ir::Model& model, const PrintOptions& options) {
  Printer p(options);
  p.model(model);
  return p.take();
}

std::string print_graph(const ir::Graph& graph, const PrintOptions& options) {
  Printer p(options);
  p.top_graph(graph);
  return p.take();
}

std::string print_function(const ir::Function& function, const PrintOptions& options) {
  Printer p(options);
  p.function(function);
  return p.take();
}

std::string print_type(const ir::Type& type) {
  PrintOptions options;
  Printer p(options);
  p.type(type);
  return p.take();
}

}  // namespace onnxscript::text
