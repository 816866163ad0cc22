// Proves that every (domain, operator, since_version) of libonnx's registry is
// reachable through the generated API with the schema's inputs, outputs and
// attributes, and that each opset namespace chose the right versions. The
// expectations come from the registry at test time, not from a list.

#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/script/trace.h"
#include "opgen/reflection.h"

namespace opgen_test {
namespace {

using Key = std::tuple<std::string, std::string, int64_t>;

std::string domain_of(const onnx::OpSchema& s) { return s.domain() == "ai.onnx" ? "" : s.domain(); }

std::string label(const Key& k) {
  return (std::get<0>(k).empty() ? "ai.onnx" : std::get<0>(k)) + "::" + std::get<1>(k) + "-" +
         std::to_string(std::get<2>(k));
}

const std::map<Key, const OpEntry*>& entries_by_key() {
  static const auto* m = [] {
    auto* out = new std::map<Key, const OpEntry*>;
    for (const OpEntry& e : op_entries()) {
      (*out)[Key(std::string(e.domain), std::string(e.name), e.since_version)] = &e;
    }
    return out;
  }();
  return *m;
}

bool is_optional(const onnx::OpSchema::FormalParameter& p) {
  return p.GetOption() == onnx::OpSchema::Optional;
}
bool is_variadic(const onnx::OpSchema::FormalParameter& p) {
  return p.GetOption() == onnx::OpSchema::Variadic;
}

// What a call recorded, for comparison with the schema.
struct Recorded {
  std::string op_type, domain;
  size_t inputs = 0, outputs = 0, returned = 0;
  std::map<std::string, int> attributes;  // name -> AttributeType
  std::optional<int64_t> imported;
};

Recorded record(const Key& key, std::vector<onnxscript::Value> (*call)(Sample&)) {
  onnxscript::ir::Graph graph("g");
  onnxscript::ir::OpsetImports imports;
  onnxscript::TraceScope scope(graph, imports);
  // This walks the API's reach, not the validity of each call: a minimal
  // call (Optional with neither input nor type) may be a node that type
  // inference rightly rejects.
  onnxscript::ScopedTraceOptions no_inference({.infer_types = false});
  Sample sample(graph);
  std::vector<onnxscript::Value> outs = call(sample);
  Recorded r;
  r.returned = outs.size();
  const onnxscript::ir::Node* node = graph.last_node();
  if (!node) {
    ADD_FAILURE() << label(key) << ": no node recorded";
    return r;
  }
  r.op_type = node->op_type();
  r.domain = node->domain();
  r.inputs = node->inputs().size();
  r.outputs = node->outputs().size();
  for (const auto& a : node->attributes()) r.attributes[a.name] = static_cast<int>(a.type);
  r.imported = imports.find(std::get<0>(key));
  for (size_t i = 0; i < outs.size() && i < r.outputs; ++i) {
    EXPECT_EQ(outs[i].ir_value(), node->output(i)) << label(key) << ": returned value " << i;
  }
  return r;
}

// Every version libonnx 1.12 knows and every version of the project's table
// beyond it (the since-version table holds both) has one generated entry.
TEST(OpgenReflection, EveryKnownVersionHasExactlyOneEntry) {
  const auto schemas = onnx::OpSchemaRegistry::get_all_schemas_with_history();
  ASSERT_GT(schemas.size(), 400u);
  std::set<Key> known;
  for (const auto& s : schemas) known.insert(Key(domain_of(s), s.Name(), s.SinceVersion()));
  const size_t from_libonnx = known.size();
  for (const auto& v : onnxscript::eval::all_operator_versions())
    known.insert(Key(std::string(v.domain), std::string(v.op_type), v.since_version));
  EXPECT_EQ(known.size(), from_libonnx + 198) << "the table adds 198 versions to libonnx's";
  for (const Key& k : known)
    EXPECT_TRUE(entries_by_key().count(k)) << label(k) << " has no generated API";
  EXPECT_EQ(entries_by_key().size(), op_entries().size()) << "duplicate entries";
  for (const auto& [k, e] : entries_by_key())
    EXPECT_TRUE(known.count(k)) << label(k) << " is not a known operator version";
}

// The versions only the table knows: each call records its operator in its
// domain and imports the opset of its own version.
TEST(OpgenReflection, TableVersionsRecordTheirOperatorAndOpset) {
  std::set<Key> libonnx;
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history())
    libonnx.insert(Key(domain_of(s), s.Name(), s.SinceVersion()));
  size_t checked = 0;
  for (const auto& [k, e] : entries_by_key()) {
    if (libonnx.count(k)) continue;
    SCOPED_TRACE(label(k));
    const Recorded r = record(k, e->full);
    EXPECT_EQ(r.op_type, std::get<1>(k));
    EXPECT_EQ(r.domain, std::get<0>(k));
    EXPECT_EQ(r.imported, std::get<2>(k));
    EXPECT_EQ(r.returned, r.outputs);
    ++checked;
  }
  EXPECT_EQ(checked, 198u);
}

TEST(OpgenReflection, FullCallsRecordEveryInputAttributeAndOutput) {
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    Key k(domain_of(s), s.Name(), s.SinceVersion());
    auto it = entries_by_key().find(k);
    if (it == entries_by_key().end()) continue;  // reported above
    SCOPED_TRACE(label(k));
    const Recorded r = record(k, it->second->full);
    EXPECT_EQ(r.op_type, s.Name());
    EXPECT_EQ(r.domain, std::get<0>(k));
    // Every formal once; a variadic one with the two values the call passes.
    size_t inputs = 0;
    for (const auto& p : s.inputs()) inputs += is_variadic(p) ? std::max(2, p.GetMinArity()) : 1;
    EXPECT_EQ(r.inputs, inputs);
    std::map<std::string, int> attributes;
    for (const auto& [name, a] : s.attributes()) attributes[name] = static_cast<int>(a.type);
    EXPECT_EQ(r.attributes, attributes);
    // Every declared output; a variadic one with the explicit count 2.
    size_t outputs = 0;
    for (const auto& p : s.outputs()) outputs += is_variadic(p) ? 2 : 1;
    EXPECT_EQ(r.outputs, outputs);
    EXPECT_EQ(r.returned, outputs);
    EXPECT_EQ(r.imported, s.SinceVersion());
  }
}

TEST(OpgenReflection, MinimalCallsRecordOnlyWhatIsRequired) {
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    Key k(domain_of(s), s.Name(), s.SinceVersion());
    auto it = entries_by_key().find(k);
    if (it == entries_by_key().end()) continue;
    SCOPED_TRACE(label(k));
    const Recorded r = record(k, it->second->minimal);
    EXPECT_EQ(r.op_type, s.Name());
    // Required inputs, omitted optional ones before them as empty slots, and
    // a variadic formal's minimum number of values; nothing after the last
    // value actually given.
    size_t last_given = 0, position = 0;
    for (const auto& p : s.inputs()) {
      if (is_variadic(p)) {
        position += static_cast<size_t>(p.GetMinArity());
        if (p.GetMinArity() > 0) last_given = position;
      } else {
        ++position;
        if (!is_optional(p)) last_given = position;
      }
    }
    EXPECT_EQ(r.inputs, last_given);
    std::map<std::string, int> attributes;
    for (const auto& [name, a] : s.attributes()) {
      if (a.required) attributes[name] = static_cast<int>(a.type);
    }
    EXPECT_EQ(r.attributes, attributes)
        << "only required attributes (schema defaults are not written)";
    // The plain call returns the outputs up to the last required one (at
    // least one), or the explicit count 2 for variadic outputs.
    size_t outputs = 0;
    if (!s.outputs().empty() && is_variadic(s.outputs().back())) {
      outputs = s.outputs().size() - 1 + 2;
    } else {
      for (size_t i = 0; i < s.outputs().size(); ++i)
        if (!is_optional(s.outputs()[i])) outputs = i + 1;
      outputs = std::max<size_t>(outputs, std::min<size_t>(1, s.outputs().size()));
    }
    EXPECT_EQ(r.outputs, outputs);
    EXPECT_EQ(r.returned, outputs);
  }
}

TEST(OpgenReflection, OpsetNamespacesHoldTheLatestVersionOfEveryOperator) {
  // Expected, from the since-version table (libonnx's versions and the
  // table's): (domain, opset, name) -> latest since_version <= opset, for
  // every opset up to the domain's newest.
  std::map<Key, int64_t> expected;
  for (const auto& version : onnxscript::eval::all_operator_versions()) {
    const std::string domain(version.domain);
    const int64_t newest = onnxscript::eval::newest_known_opset(domain).value_or(0);
    for (int64_t v = version.since_version; v <= newest; ++v) {
      int64_t& slot = expected[Key(domain, std::string(version.op_type), v)];
      slot = std::max(slot, version.since_version);
    }
  }
  std::map<Key, int64_t> actual;
  for (const OpsetEntry& e : opset_entries()) {
    Key k(std::string(e.domain), std::string(e.name), e.opset);
    EXPECT_TRUE(actual.emplace(k, e.since_version).second) << label(k) << " twice";
    EXPECT_EQ(e.recorded_opset, e.opset) << label(k) << " records the wrong opset";
  }
  for (const auto& [k, v] : expected) {
    auto it = actual.find(k);
    if (it == actual.end()) {
      ADD_FAILURE() << "opset " << std::get<2>(k) << " of '" << std::get<0>(k) << "' lacks "
                    << std::get<1>(k);
    } else {
      EXPECT_EQ(it->second, v) << "opset " << std::get<2>(k) << " of '" << std::get<0>(k)
                               << "' has " << std::get<1>(k) << "-" << it->second;
    }
  }
  for (const auto& [k, v] : actual) {
    EXPECT_TRUE(expected.count(k))
        << "opset " << std::get<2>(k) << " of '" << std::get<0>(k) << "' holds " << std::get<1>(k)
        << "-" << v << ", which is newer";
  }
}

}  // namespace
}  // namespace opgen_test
