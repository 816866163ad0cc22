// Round trips: every golden text file is in canonical form (it parses and
// prints back byte for byte), and so is the text of every model in the ONNX
// test corpus: print(model) -> parse -> print gives the same bytes.

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::text {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Deep comparison of what text must keep (everything but the opaque fields
// and how tensors were encoded). Text equality after a round trip cannot
// catch a printer that leaves something out every time; this can.
class IrDiff {
 public:
  std::string first;  // the first difference found, empty if none

  void model(const ir::Model& a, const ir::Model& b) {
    check(a.ir_version == b.ir_version, "ir_version");
    check(a.opset_imports.entries() == b.opset_imports.entries(), "opset_import");
    check(a.producer_name == b.producer_name && a.producer_version == b.producer_version,
          "producer");
    check(a.domain == b.domain && a.model_version == b.model_version, "domain/model_version");
    check(a.doc_string == b.doc_string && a.metadata_props == b.metadata_props,
          "model doc/metadata");
    graph(a.graph(), b.graph(), "graph");
    check(a.functions().size() == b.functions().size(), "number of functions");
    for (size_t i = 0; first.empty() && i < a.functions().size(); ++i) {
      const ir::Function& f = *a.functions()[i];
      const ir::Function& g = *b.functions()[i];
      const std::string where = "function " + f.name;
      check(f.domain == g.domain && f.name == g.name && f.overload == g.overload, where);
      check(f.attribute_names == g.attribute_names, where + " attributes");
      check(f.attribute_defaults.size() == g.attribute_defaults.size(),
            where + " attribute defaults");
      for (size_t k = 0; first.empty() && k < f.attribute_defaults.size(); ++k)
        attribute(f.attribute_defaults[k], g.attribute_defaults[k], where);
      check(f.opset_imports.entries() == g.opset_imports.entries(), where + " opset_import");
      check(f.doc_string == g.doc_string && f.metadata_props == g.metadata_props,
            where + " doc/metadata");
      graph(f.body(), g.body(), where);
    }
  }

 private:
  void check(bool ok, const std::string& what) {
    if (!ok && first.empty()) first = what;
  }

  void value(const ir::Value* a, const ir::Value* b, const std::string& where) {
    if (a == nullptr || b == nullptr) return check(a == b, where + ": omitted value");
    const std::string w = where + " value '" + a->name() + "'";
    check(a->name() == b->name(), w + " name");
    check(a->type() == b->type(), w + " type");
    check(a->doc_string() == b->doc_string() && a->metadata_props() == b->metadata_props(),
          w + " doc/metadata");
  }

  template <typename Range>
  void values(const Range& a, const Range& b, const std::string& where) {
    check(a.size() == b.size(), where + " count");
    for (size_t i = 0; first.empty() && i < a.size(); ++i) value(a[i], b[i], where);
  }

  void tensor(const ir::Tensor& a, const ir::Tensor& b, const std::string& where, bool named) {
    check(a.same_contents(b), where + " tensor contents");
    const ir::TensorProtoInfo empty;
    const ir::TensorProtoInfo& x = a.proto_info() ? *a.proto_info() : empty;
    const ir::TensorProtoInfo& y = b.proto_info() ? *b.proto_info() : empty;
    check(x.doc_string == y.doc_string && x.metadata_props == y.metadata_props,
          where + " tensor doc/metadata");
    if (named) check(x.name == y.name, where + " tensor name");
  }

  void sparse(const ir::SparseTensor& a, const ir::SparseTensor& b, const std::string& where,
              bool named) {
    tensor(a.values, b.values, where + " values", named);
    tensor(a.indices, b.indices, where + " indices", true);
    check(a.dims == b.dims, where + " dims");
  }

  void graph(const ir::Graph& a, const ir::Graph& b, const std::string& where) {
    const std::string w = where + " '" + a.name() + "'";
    check(a.name() == b.name(), w + " name");
    check(a.doc_string == b.doc_string && a.metadata_props == b.metadata_props,
          w + " doc/metadata");
    check(a.quantization_annotation.size() == b.quantization_annotation.size(),
          w + " quantization");
    values(a.inputs(), b.inputs(), w + " inputs");
    values(a.outputs(), b.outputs(), w + " outputs");
    values(a.value_info(), b.value_info(), w + " value_info");
    check(a.initializers().size() == b.initializers().size(), w + " initializer count");
    for (size_t i = 0; first.empty() && i < a.initializers().size(); ++i) {
      check(a.initializers()[i]->name() == b.initializers()[i]->name(), w + " initializer name");
      tensor(*a.initializers()[i]->const_value(), *b.initializers()[i]->const_value(),
             w + " initializer " + a.initializers()[i]->name(), false);
    }
    check(a.sparse_initializers().size() == b.sparse_initializers().size(),
          w + " sparse initializers");
    for (size_t i = 0; first.empty() && i < a.sparse_initializers().size(); ++i)
      sparse(*a.sparse_initializers()[i]->sparse_value(),
             *b.sparse_initializers()[i]->sparse_value(), w + " sparse initializer", false);
    check(a.num_nodes() == b.num_nodes(), w + " node count");
    for (auto x = a.nodes().begin(), y = b.nodes().begin();
         first.empty() && x != a.nodes().end() && y != b.nodes().end(); ++x, ++y) {
      node(**x, **y, w);
    }
  }

  void node(const ir::Node& a, const ir::Node& b, const std::string& where) {
    const std::string w = where + " node " + a.op_type() + " '" + a.name() + "'";
    check(a.op_type() == b.op_type() && a.domain() == b.domain() && a.overload() == b.overload(),
          w);
    check(a.name() == b.name(), w + " name");
    check(a.doc_string() == b.doc_string() && a.metadata_props() == b.metadata_props(),
          w + " doc/metadata");
    check(a.inputs().size() == b.inputs().size(), w + " input count");
    for (size_t i = 0; first.empty() && i < a.inputs().size(); ++i) {
      const ir::Value* x = a.input(i);
      const ir::Value* y = b.input(i);
      check((x == nullptr) == (y == nullptr) && (!x || x->name() == y->name()),
            w + " input " + std::to_string(i));
    }
    check(a.outputs().size() == b.outputs().size(), w + " output count");
    for (size_t i = 0; first.empty() && i < a.outputs().size(); ++i)
      check(a.output(i)->name() == b.output(i)->name(), w + " output " + std::to_string(i));
    check(a.attributes().size() == b.attributes().size(), w + " attribute count");
    for (size_t i = 0; first.empty() && i < a.attributes().size(); ++i)
      attribute(a.attributes()[i], b.attributes()[i], w);
  }

  void attribute(const ir::Attribute& a, const ir::Attribute& b, const std::string& where) {
    const std::string w = where + " attribute " + a.name;
    check(a.name == b.name && a.type == b.type && a.ref_attr_name == b.ref_attr_name, w);
    check(a.doc_string == b.doc_string, w + " doc");
    check(a.value.index() == b.value.index(), w + " kind of value");
    if (!first.empty()) return;
    using ir::Attribute;
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          const T& y = std::get<T>(b.value);
          if constexpr (std::is_same_v<T, float>) {
            check(std::memcmp(&x, &y, sizeof x) == 0, w + " value");
          } else if constexpr (std::is_same_v<T, std::vector<float>>) {
            check(x.size() == y.size() &&
                      (x.empty() || std::memcmp(x.data(), y.data(), x.size() * 4) == 0),
                  w + " values");
          } else if constexpr (std::is_same_v<T, ir::Tensor>) {
            tensor(x, y, w, true);
          } else if constexpr (std::is_same_v<T, std::vector<ir::Tensor>>) {
            check(x.size() == y.size(), w + " count");
            for (size_t i = 0; first.empty() && i < x.size(); ++i) tensor(x[i], y[i], w, true);
          } else if constexpr (std::is_same_v<T, ir::SparseTensor>) {
            sparse(x, y, w, true);
          } else if constexpr (std::is_same_v<T, std::vector<ir::SparseTensor>>) {
            check(x.size() == y.size(), w + " count");
            for (size_t i = 0; first.empty() && i < x.size(); ++i) sparse(x[i], y[i], w, true);
          } else if constexpr (std::is_same_v<T, std::shared_ptr<ir::Graph>>) {
            graph(*x, *y, w);
          } else if constexpr (std::is_same_v<T, std::vector<std::shared_ptr<ir::Graph>>>) {
            check(x.size() == y.size(), w + " count");
            for (size_t i = 0; first.empty() && i < x.size(); ++i) graph(*x[i], *y[i], w);
          } else {
            check(x == y, w + " value");
          }
        },
        a.value);
  }
};

// The first line where two texts differ, for a readable failure.
std::string first_difference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) {
      auto line_of = [&](const std::string& s) {
        return s.substr(start, s.find('\n', start) - start);
      };
      return "line " + std::to_string(line) + ":\n  printed: " + line_of(a) +
             "\n  again:   " + line_of(b);
    }
    if (a[i] == '\n') {
      ++line;
      start = i + 1;
    }
  }
  return "one text is a prefix of the other (sizes " + std::to_string(a.size()) + " and " +
         std::to_string(b.size()) + ")";
}

TEST(TextRoundTrip, GoldenFilesAreCanonical) {
  const fs::path dir = fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "text";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 3u) << "golden files missing from " << dir;
  for (const fs::path& file : files) {
    const std::string text = read_text(file);
    try {
      const ir::Model m = parse_model(text, file.filename().string());
      EXPECT_EQ(print_model(m), text) << file;
      IrDiff diff;
      diff.model(m, parse_model(print_model(m)));
      EXPECT_EQ(diff.first, "") << file;
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// IR that no sane model holds but that the IR allows must still print and
// parse back to the same thing.
TEST(TextRoundTrip, OddButAllowedIrRoundTrips) {
  ir::Model m;
  ir::Graph& g = m.graph();  // no name
  ir::Value* a = g.add_input("a");
  ir::Value* b = g.add_input(
      "", ir::Type::tensor(ir::DataType::kUndefined, ir::Shape{ir::Dim(""), ir::Dim(-1)}));
  (void)b;
  ir::Type opaque;
  opaque.kind = ir::TypeKind::kOpaque;
  opaque.set_opaque("odd domain", "");
  ir::Type unspecified;
  unspecified.set_denotation("D");
  g.add_input("c", ir::Type::sequence(opaque));
  g.add_input("d", ir::Type::map(ir::DataType::kInt64, unspecified));
  ir::Node* n = g.append_node("", {a, nullptr}, 2, ".");
  n->output(0)->set_name("x");
  n->set_attribute(ir::Attribute("declared", ir::AttributeType::kUndefined, std::monostate{}));
  n->set_attribute(ir::Attribute("typed", ir::AttributeType::kGraphs, std::monostate{}));
  n->set_attribute(ir::Attribute("t", ir::AttributeType::kTensor, ir::Tensor()));
  auto sub = std::make_shared<ir::Graph>("");
  sub->outputs().push_back(n->output(0));  // an outer value as a subgraph output
  n->set_attribute(ir::Attribute::make_graph("g", sub));
  g.outputs() = {n->output(0), n->output(0)};
  auto f = std::make_unique<ir::Function>("", "");
  ir::Attribute doc_only("documented", ir::AttributeType::kUndefined, std::monostate{});
  doc_only.doc_string = "no type, no default";
  f->attribute_defaults.push_back(doc_only);
  m.functions().push_back(std::move(f));

  const std::string text = print_model(m);
  const ir::Model back = parse_model(text);
  EXPECT_EQ(print_model(back), text);
  IrDiff diff;
  diff.model(m, back);
  EXPECT_EQ(diff.first, "") << text;
  EXPECT_EQ(back.graph().outputs()[0], back.graph().first_node()->output(0));
  EXPECT_EQ(back.graph().first_node()->attribute("g")->as_graph()->outputs()[0],
            back.graph().first_node()->output(0));

  // A use of a value without a name cannot be written: "" means omitted.
  n->set_input(0, b);
  EXPECT_THROW(print_model(m), ValidationError);
}

// The corpus the brief names: 1072 models. The count is pinned so that a
// missing directory or a changed package cannot shrink the test silently.
TEST(TextRoundTrip, OnnxTestCorpusPrintsParsesAndPrintsTheSame) {
  const fs::path root = ONNX_TESTDATA_DIR;
  std::vector<fs::path> files;
  for (const char* dir : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / dir))
      if (entry.is_regular_file() && entry.path().extension() == ".onnx")
        files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  size_t checked = 0;
  int failures = 0;
  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, root).string();
    try {
      const ir::Model model = serde::load_model(file);
      const std::string printed = print_model(model);
      const ir::Model parsed = parse_model(printed, name);
      const std::string again = print_model(parsed);
      IrDiff diff;
      diff.model(model, parsed);
      if (printed != again) {
        ADD_FAILURE() << name << ": text changed after parsing, "
                      << first_difference(printed, again);
        ++failures;
      } else if (!diff.first.empty()) {
        ADD_FAILURE() << name << ": the parsed model differs from the loaded one in " << diff.first;
        ++failures;
      }
    } catch (const Error& e) {
      ADD_FAILURE() << name << ": " << e.what();
      ++failures;
    }
    ++checked;
    if (failures >= 20) break;  // enough to act on
  }
  EXPECT_EQ(checked, 1072u);
}

}  // namespace
}  // namespace onnxscript::text
