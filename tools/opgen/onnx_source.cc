// The libonnx schema registry as a SchemaSource.

#include <onnx/defs/schema.h>

#include "schema.h"

namespace opgen {

namespace {

FormalRecord formal_of(const onnx::OpSchema::FormalParameter& p) {
  FormalRecord f;
  f.name = p.GetName();
  f.description = p.GetDescription();
  f.type = p.GetTypeStr();
  f.optional = p.GetOption() == onnx::OpSchema::Optional;
  f.variadic = p.GetOption() == onnx::OpSchema::Variadic;
  f.heterogeneous = f.variadic && !p.GetIsHomogeneous();
  f.min_arity = f.variadic ? p.GetMinArity() : (f.optional ? 0 : 1);
  return f;
}

// The schema default as a record; nullopt when the schema has none.
std::optional<AttrDefault> default_of(const onnx::OpSchema::Attribute& a) {
  const onnx::AttributeProto& d = a.default_value;
  if (a.required || d.type() == onnx::AttributeProto::UNDEFINED) return std::nullopt;
  switch (d.type()) {
    case onnx::AttributeProto::FLOAT:
      return AttrDefault(d.f());
    case onnx::AttributeProto::INT:
      return AttrDefault(static_cast<int64_t>(d.i()));
    case onnx::AttributeProto::STRING:
      return AttrDefault(d.s());
    case onnx::AttributeProto::FLOATS:
      return AttrDefault(std::vector<float>(d.floats().begin(), d.floats().end()));
    case onnx::AttributeProto::INTS:
      return AttrDefault(std::vector<int64_t>(d.ints().begin(), d.ints().end()));
    case onnx::AttributeProto::STRINGS:
      return AttrDefault(std::vector<std::string>(d.strings().begin(), d.strings().end()));
    default:
      // Tensor or graph defaults do not occur in the registry; treat as none
      // rather than guess a C++ spelling.
      return std::nullopt;
  }
}

class OnnxRegistrySource : public SchemaSource {
 public:
  std::string name() const override { return "the libonnx schema registry"; }

  std::vector<OpSchemaRecord> schemas() const override {
    std::vector<OpSchemaRecord> out;
    for (const onnx::OpSchema& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
      OpSchemaRecord r;
      r.domain = s.domain() == "ai.onnx" ? "" : s.domain();
      r.name = s.Name();
      r.since_version = s.SinceVersion();
      r.deprecated = s.Deprecated();
      r.doc = s.doc() ? s.doc() : "";
      for (const auto& p : s.inputs()) r.inputs.push_back(formal_of(p));
      for (const auto& p : s.outputs()) r.outputs.push_back(formal_of(p));
      for (const auto& [name, a] : s.attributes()) {
        AttributeRecord ar;
        ar.name = name;
        ar.description = a.description;
        ar.type = static_cast<AttrType>(a.type);
        ar.required = a.required;
        ar.default_value = default_of(a);
        r.attributes.push_back(std::move(ar));
      }
      for (const auto& c : s.typeConstraintParams()) {
        r.type_constraints.push_back({c.type_param_str, c.description, c.allowed_type_strs});
      }
      out.push_back(std::move(r));
    }
    return out;
  }

  std::vector<DomainRecord> domains() const override {
    std::vector<DomainRecord> out;
    for (const auto& [domain, range] :
         onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map()) {
      out.push_back({domain == "ai.onnx" ? "" : domain, range.first, range.second});
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<SchemaSource> make_onnx_registry_source() {
  return std::make_unique<OnnxRegistrySource>();
}

}  // namespace opgen
