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

TEST(OpgenReflection, EveryRegistrySchemaHasExactlyOneEntry) {
  const auto schemas = onnx::OpSchemaRegistry::get_all_schemas_with_history();
  ASSERT_GT(schemas.size(), 400u);
  std::set<Key> registry;
  for (const auto& s : schemas) {
    Key k(domain_of(s), s.Name(), s.SinceVersion());
    registry.insert(k);
    EXPECT_TRUE(entries_by_key().count(k)) << label(k) << " has no generated API";
  }
  EXPECT_EQ(entries_by_key().size(), op_entries().size()) << "duplicate entries";
  for (const auto& [k, e] : entries_by_key())
    EXPECT_TRUE(registry.count(k)) << label(k) << " is not in the registry";
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
  const auto schemas = onnx::OpSchemaRegistry::get_all_schemas_with_history();
  // The versions each domain defines, from the registry.
  std::map<std::string, int64_t> max_version;
  for (const auto& [domain, range] :
       onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map()) {
    max_version[domain == "ai.onnx" ? "" : domain] = range.second;
  }
  // Expected: (domain, opset, name) -> latest since_version <= opset.
  std::map<Key, int64_t> expected;
  for (const auto& s : schemas) {
    const std::string domain = domain_of(s);
    for (int64_t v = s.SinceVersion(); v <= max_version[domain]; ++v) {
      int64_t& slot = expected[Key(domain, s.Name(), v)];
      slot = std::max(slot, static_cast<int64_t>(s.SinceVersion()));
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
