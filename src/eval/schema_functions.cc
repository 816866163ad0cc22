// The only evaluator file that includes libonnx: schema lookups and the
// conversion of schema function bodies (onnx::FunctionProto) to our IR; and
// the project's own bodies for the versions beyond libonnx 1.12, parsed from
// the text the build embeds.
#include "eval/schema_functions.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::eval::detail {
namespace {

// The libonnx schema of exactly the version `version` selects. libonnx 1.12
// knows opsets up to 17: for opset 18 and later it answers with the newest
// version it has, which is not the one the opset selects when the operator
// changed since (ReduceMax-18); that older schema, and its body, must not
// stand in for it.
const onnx::OpSchema* find_schema(std::string_view domain, std::string_view op_type,
                                  int64_t version) {
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      std::string(op_type), static_cast<int>(version), std::string(domain));
  if (!schema) return nullptr;
  const std::optional<int64_t> since = schema_version(domain, op_type, version);
  if (since && *since != schema->since_version()) return nullptr;
  return schema;
}

// Our attribute -> onnx::AttributeProto, for the kinds that function-body
// builders read (scalars, lists, tensors).
void to_onnx_attribute(const ir::Attribute& a, onnx::AttributeProto& out) {
  out.set_name(a.name);
  out.set_type(static_cast<onnx::AttributeProto::AttributeType>(a.type));
  switch (a.type) {
    case ir::AttributeType::kFloat:
      out.set_f(a.as_float());
      break;
    case ir::AttributeType::kInt:
      out.set_i(a.as_int());
      break;
    case ir::AttributeType::kString:
      out.set_s(a.as_string());
      break;
    case ir::AttributeType::kFloats:
      for (float f : a.as_floats()) out.add_floats(f);
      break;
    case ir::AttributeType::kInts:
      for (int64_t i : a.as_ints()) out.add_ints(i);
      break;
    case ir::AttributeType::kStrings:
      for (const std::string& s : a.as_strings()) out.add_strings(s);
      break;
    case ir::AttributeType::kTensor: {
      const ir::Tensor& t = a.as_tensor();
      onnx::TensorProto* tp = out.mutable_t();
      tp->set_data_type(static_cast<int32_t>(t.dtype()));
      for (int64_t d : t.shape()) tp->add_dims(d);
      if (t.dtype() == ir::DataType::kString) {
        for (int64_t i = 0; i < t.numel(); ++i) tp->add_string_data(t.data<std::string>()[i]);
      } else {
        tp->set_raw_data(t.raw_data(), t.nbytes());
      }
      break;
    }
    default:
      // Graph-valued and type-valued attributes do not drive any 1.12 body builder.
      break;
  }
}

// onnx::AttributeProto -> our attribute, for schema defaults (all scalars or lists).
std::optional<ir::Attribute> from_onnx_attribute(const onnx::AttributeProto& a) {
  switch (a.type()) {
    case onnx::AttributeProto::FLOAT:
      return ir::Attribute::make_float(a.name(), a.f());
    case onnx::AttributeProto::INT:
      return ir::Attribute::make_int(a.name(), a.i());
    case onnx::AttributeProto::STRING:
      return ir::Attribute::make_string(a.name(), a.s());
    case onnx::AttributeProto::FLOATS:
      return ir::Attribute::make_floats(a.name(), {a.floats().begin(), a.floats().end()});
    case onnx::AttributeProto::INTS:
      return ir::Attribute::make_ints(a.name(), {a.ints().begin(), a.ints().end()});
    case onnx::AttributeProto::STRINGS:
      return ir::Attribute::make_strings(a.name(), {a.strings().begin(), a.strings().end()});
    default:
      return std::nullopt;
  }
}

void to_onnx_type(const ir::Type& t, onnx::TypeProto& out) {
  switch (t.kind) {
    case ir::TypeKind::kTensor: {
      auto* tt = out.mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elem_type));
      if (t.shape) {
        auto* shape = tt->mutable_shape();
        for (const ir::Dim& d : *t.shape) {
          auto* dim = shape->add_dim();
          if (d.is_static())
            dim->set_dim_value(d.value());
          else if (d.is_symbolic())
            dim->set_dim_param(d.symbol());
        }
      }
      break;
    }
    case ir::TypeKind::kSequence:
      if (t.element)
        to_onnx_type(*t.element, *out.mutable_sequence_type()->mutable_elem_type());
      else
        out.mutable_sequence_type();
      break;
    case ir::TypeKind::kOptional:
      if (t.element)
        to_onnx_type(*t.element, *out.mutable_optional_type()->mutable_elem_type());
      else
        out.mutable_optional_type();
      break;
    default:
      break;
  }
}

// onnx::FunctionProto -> ir::Function, through the wire format: libonnx's
// FunctionProto and ours share field numbers, so the bytes of a one-function
// ModelProto are a model our reader takes as is.
std::unique_ptr<ir::Function> convert(const onnx::FunctionProto& function) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  for (const auto& opset : function.opset_import()) *model.add_opset_import() = opset;
  model.mutable_graph()->set_name("schema_function_holder");
  *model.add_functions() = function;
  std::string bytes;
  if (!model.SerializeToString(&bytes))
    throw Error("cannot serialize an ONNX schema function body");
  ir::Model loaded = serde::load_model_from_bytes(bytes, {}, "schema function " + function.name());
  if (loaded.functions().size() != 1)
    throw Error("schema function body did not convert to one function");
  return std::move(loaded.functions().front());
}

// Whether libonnx 1.12 defines exactly this version (not a newer opset
// answered with an older schema).
bool libonnx_defines(std::string_view domain, std::string_view op_type, int64_t since_version) {
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      std::string(op_type), static_cast<int>(since_version), std::string(domain));
  return schema && schema->since_version() == since_version;
}

// The project body of the version that opset `version` selects, or null.
// Only consulted where libonnx has no schema for that version.
const ProjectFunctionBody* find_project_body(std::string_view domain, std::string_view op_type,
                                             int64_t version) {
  const std::optional<int64_t> since = schema_version(domain, op_type, version);
  if (!since) return nullptr;
  for (const ProjectFunctionBody& body : project_function_bodies())
    if (body.domain == domain && body.op_type == op_type && body.since_version == *since)
      return &body;
  return nullptr;
}

// Parses one embedded file and checks it against its name and the table.
ProjectFunctionBody parse_project_body(const EmbeddedFunctionBody& embedded) {
  ProjectFunctionBody body;
  const std::string_view stem = embedded.file_stem;
  body.file = std::string(stem) + ".onnxtxt";
  body.text = std::string_view(reinterpret_cast<const char*>(embedded.text), embedded.size);
  const size_t dash = stem.rfind('-');
  int64_t version = 0;
  const char* digits = dash == std::string_view::npos ? stem.data() : stem.data() + dash + 1;
  const auto parsed = std::from_chars(digits, stem.data() + stem.size(), version);
  if (dash == std::string_view::npos || dash == 0 || parsed.ec != std::errc() ||
      parsed.ptr != stem.data() + stem.size() || version <= 0)
    throw Error(fmt::format("function body file {}: the name is not <Operator>-<version>.onnxtxt",
                            body.file));
  const std::unique_ptr<ir::Function> function = text::parse_function(body.text, body.file);
  if (function->name != stem.substr(0, dash))
    throw Error(fmt::format("function body file {}: the function is named '{}', not '{}'",
                            body.file, function->name, stem.substr(0, dash)));
  body.domain = function->domain == "ai.onnx" ? "" : function->domain;
  body.op_type = function->name;
  body.since_version = version;
  if (schema_version(body.domain, body.op_type, version) != std::optional<int64_t>(version))
    throw Error(fmt::format("function body file {}: {}-{} is not a version of the operator table",
                            body.file, body.op_type, version));
  if (libonnx_defines(body.domain, body.op_type, version))
    throw Error(fmt::format(
        "function body file {}: libonnx 1.12 already defines {}-{}; its schema is the source",
        body.file, body.op_type, version));
  return body;
}

}  // namespace

const std::vector<ProjectFunctionBody>& project_function_bodies() {
  static const std::vector<ProjectFunctionBody> bodies = [] {
    std::vector<ProjectFunctionBody> out;
    for (const EmbeddedFunctionBody& embedded : embedded_function_bodies())
      out.push_back(parse_project_body(embedded));
    std::sort(out.begin(), out.end(),
              [](const ProjectFunctionBody& a, const ProjectFunctionBody& b) {
                return std::tie(a.domain, a.op_type, a.since_version) <
                       std::tie(b.domain, b.op_type, b.since_version);
              });
    for (size_t i = 1; i < out.size(); ++i)
      if (out[i].domain == out[i - 1].domain && out[i].op_type == out[i - 1].op_type &&
          out[i].since_version == out[i - 1].since_version)
        throw Error(fmt::format("function body files {} and {} define the same operator version",
                                out[i - 1].file, out[i].file));
    return out;
  }();
  return bodies;
}

std::vector<SchemaVersion> all_schema_versions() {
  std::vector<SchemaVersion> out;
  for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    SchemaVersion v;
    v.domain = schema.domain() == "ai.onnx" ? "" : schema.domain();
    v.op_type = schema.Name();
    v.since_version = schema.since_version();
    if (schema.HasFunction())
      v.function = SchemaFunctionKind::kStatic;
    else if (schema.HasContextDependentFunction())
      v.function = SchemaFunctionKind::kContextDependent;
    v.deprecated = schema.Deprecated();
    out.push_back(std::move(v));
  }
  for (const ProjectFunctionBody& body : project_function_bodies()) {
    SchemaVersion v;
    v.domain = body.domain;
    v.op_type = body.op_type;
    v.since_version = body.since_version;
    v.function = SchemaFunctionKind::kStatic;
    v.from_libonnx = false;
    out.push_back(std::move(v));
  }
  std::sort(out.begin(), out.end(), [](const SchemaVersion& a, const SchemaVersion& b) {
    return std::tie(a.domain, a.op_type, a.since_version) <
           std::tie(b.domain, b.op_type, b.since_version);
  });
  return out;
}

SchemaFunctionInfo find_schema_function(std::string_view domain, std::string_view op_type,
                                        int64_t version) {
  const onnx::OpSchema* schema = find_schema(domain, op_type, version);
  if (!schema) {
    const ProjectFunctionBody* body = find_project_body(domain, op_type, version);
    if (!body) return {};
    return {SchemaFunctionKind::kStatic, body->since_version};
  }
  SchemaFunctionInfo info;
  info.since_version = schema->since_version();
  if (schema->HasFunction())
    info.kind = SchemaFunctionKind::kStatic;
  else if (schema->HasContextDependentFunction())
    info.kind = SchemaFunctionKind::kContextDependent;
  return info;
}

std::unique_ptr<ir::Function> schema_function_body(std::string_view domain,
                                                   std::string_view op_type, int64_t version) {
  const onnx::OpSchema* schema = find_schema(domain, op_type, version);
  if (!schema) {
    if (const ProjectFunctionBody* body = find_project_body(domain, op_type, version))
      return text::parse_function(body->text, body->file);
  }
  if (!schema || !schema->HasFunction() || !schema->GetFunction())
    throw Error(fmt::format("{}-{} has no function body in its schema", op_type, version));
  return convert(*schema->GetFunction());
}

std::unique_ptr<ir::Function> schema_function_body_for(std::string_view domain,
                                                       std::string_view op_type, int64_t version,
                                                       std::span<const ir::Attribute> attributes,
                                                       std::span<const ir::Type> input_types,
                                                       size_t num_outputs) {
  const onnx::OpSchema* schema = find_schema(domain, op_type, version);
  if (!schema || !schema->HasContextDependentFunction())
    throw Error(fmt::format("{}-{} has no context-dependent function body", op_type, version));
  onnx::NodeProto node;
  node.set_op_type(std::string(op_type));
  node.set_domain(std::string(domain));
  std::vector<onnx::TypeProto> types(input_types.size());
  for (size_t i = 0; i < input_types.size(); ++i) {
    // An omitted input has an unspecified type and an empty name, which is
    // what the builders test with hasInput().
    node.add_input(input_types[i].kind == ir::TypeKind::kUnspecified ? "" : fmt::format("in{}", i));
    to_onnx_type(input_types[i], types[i]);
  }
  for (size_t i = 0; i < num_outputs; ++i) node.add_output(fmt::format("out{}", i));
  for (const ir::Attribute& a : attributes) to_onnx_attribute(a, *node.add_attribute());
  onnx::FunctionBodyBuildContextImpl context(node, types);
  onnx::FunctionProto body;
  if (!schema->BuildContextDependentFunction(context, body))
    throw Error(fmt::format("{}-{}: the schema could not build a function body for these inputs",
                            op_type, version));
  // Builders declare every formal output, even those the call does not ask
  // for and the body then does not compute (SoftmaxCrossEntropyLoss's
  // log_prob): drop trailing outputs nothing defines.
  {
    std::set<std::string> defined(body.input().begin(), body.input().end());
    for (const auto& n : body.node())
      for (const std::string& out : n.output()) defined.insert(out);
    while (body.output_size() > 0 && !defined.count(body.output(body.output_size() - 1)))
      body.mutable_output()->RemoveLast();
  }
  // The builders leave the signature to the caller; name it after the node.
  if (body.input_size() == 0)
    for (const std::string& in : node.input()) body.add_input(in);
  if (body.output_size() == 0)
    for (const std::string& out : node.output()) body.add_output(out);
  if (body.name().empty()) body.set_name(std::string(op_type));
  if (body.opset_import_size() == 0) {
    auto* opset = body.add_opset_import();
    opset->set_domain(std::string(domain));
    opset->set_version(schema->since_version());
  }
  return convert(body);
}

std::vector<ir::Attribute> schema_attribute_defaults(std::string_view domain,
                                                     std::string_view op_type, int64_t version) {
  std::vector<ir::Attribute> out;
  const onnx::OpSchema* schema = find_schema(domain, op_type, version);
  // A project body declares its defaults in its own header.
  if (!schema) return out;
  for (const auto& [name, attr] : schema->attributes()) {
    if (attr.required || attr.default_value.type() == onnx::AttributeProto::UNDEFINED) continue;
    if (auto converted = from_onnx_attribute(attr.default_value)) {
      converted->name = name;
      out.push_back(std::move(*converted));
    }
  }
  return out;
}

}  // namespace onnxscript::eval::detail
