// The run-time operator-schema table (onnxscript/schema/operator_schema.h):
// every version libonnx 1.12 knows, compared field by field with libonnx's
// registry read directly, and versions beyond libonnx checked against facts
// from the ONNX operator documentation.

#include <gtest/gtest.h>
#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <set>
#include <string>

#include "onnxscript/check/check.h"
#include "onnxscript/ir/type.h"
#include "onnxscript/schema/operator_schema.h"

namespace onnxscript {
namespace {

int32_t bound(int n) { return n == std::numeric_limits<int>::max() ? schema::kUnbounded : n; }

// libonnx's own normal form of a type string; the table's must be the same.
std::string libonnx_canonical(const std::string& s) {
  return *onnx::Utils::DataTypeUtils::ToType(s);
}

TEST(SchemaTable, HoldsEveryVersionLibonnxKnowsWithItsFields) {
  size_t compared = 0;
  for (const onnx::OpSchema& o : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    SCOPED_TRACE(o.domain() + "." + o.Name() + "-" + std::to_string(o.SinceVersion()));
    const schema::OperatorSchema* s = schema::find_schema(o.domain(), o.Name(), o.SinceVersion());
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->since_version, o.SinceVersion());
    EXPECT_EQ(s->deprecated, o.Deprecated());
    EXPECT_EQ(s->min_input, o.min_input());
    EXPECT_EQ(s->max_input, bound(o.max_input()));
    EXPECT_EQ(s->min_output, o.min_output());
    EXPECT_EQ(s->max_output, bound(o.max_output()));
    ASSERT_EQ(s->inputs.size(), o.inputs().size());
    for (size_t i = 0; i < s->inputs.size(); ++i) {
      const auto& f = o.inputs()[i];
      EXPECT_EQ(s->inputs[i].name, f.GetName());
      EXPECT_EQ(s->inputs[i].optional, f.GetOption() == onnx::OpSchema::Optional);
      EXPECT_EQ(s->inputs[i].variadic, f.GetOption() == onnx::OpSchema::Variadic);
      if (s->inputs[i].variadic) {
        EXPECT_EQ(s->inputs[i].heterogeneous, !f.GetIsHomogeneous());
      }
    }
    ASSERT_EQ(s->outputs.size(), o.outputs().size());
    ASSERT_EQ(s->attributes.size(), o.attributes().size());
    for (const auto& [name, a] : o.attributes()) {
      const schema::AttributeSchema* ours = s->attribute(name);
      ASSERT_NE(ours, nullptr) << name;
      EXPECT_EQ(ours->type, static_cast<int32_t>(a.type)) << name;
      EXPECT_EQ(ours->required, a.required) << name;
    }
    ASSERT_EQ(s->type_constraints.size(), o.typeConstraintParams().size());
    for (const auto& c : o.typeConstraintParams()) {
      const schema::TypeConstraint* ours = s->constraint(c.type_param_str);
      ASSERT_NE(ours, nullptr) << c.type_param_str;
      std::set<std::string> theirs, mine(ours->allowed.begin(), ours->allowed.end());
      for (const std::string& t : c.allowed_type_strs) theirs.insert(libonnx_canonical(t));
      EXPECT_EQ(mine, theirs) << c.type_param_str;
    }
    ++compared;
  }
  EXPECT_GT(compared, 400u);
}

TEST(SchemaTable, IsSortedAndCoversOpset28) {
  const auto all = schema::all_schemas();
  // 444 versions from libonnx 1.12 and 198 from the vendored table
  // (tools/opgen/schemas/README.md).
  EXPECT_EQ(all.size(), 642u);
  for (size_t i = 1; i < all.size(); ++i) {
    const auto a = std::make_tuple(all[i - 1].domain, all[i - 1].name, all[i - 1].since_version);
    const auto b = std::make_tuple(all[i].domain, all[i].name, all[i].since_version);
    EXPECT_LT(a, b) << all[i].name;
  }
  const schema::DomainRange* onnx = schema::find_domain("");
  ASSERT_NE(onnx, nullptr);
  EXPECT_EQ(onnx->max_version, check::kMaxOpset);
  EXPECT_EQ(schema::find_domain("ai.onnx"), onnx);
  ASSERT_NE(schema::find_domain("ai.onnx.ml"), nullptr);
  EXPECT_EQ(schema::find_domain("ai.onnx.ml")->max_version, 5);
  EXPECT_EQ(schema::find_domain("com.example"), nullptr);
}

TEST(SchemaTable, FindsTheVersionInEffectAtAnOpset) {
  // Add's versions are 1, 6, 7, 13 and 14 (ONNX Changelog).
  EXPECT_EQ(schema::find_schema("", "Add", 28)->since_version, 14);
  EXPECT_EQ(schema::find_schema("ai.onnx", "Add", 13)->since_version, 13);
  EXPECT_EQ(schema::find_schema("", "Add", 12)->since_version, 7);
  // Celu came with opset 12 and changed at 28 (ONNX 1.23's changelog).
  EXPECT_EQ(schema::find_schema("", "Celu", 11), nullptr);
  EXPECT_EQ(schema::find_schema("", "Celu", 27)->since_version, 12);
  EXPECT_EQ(schema::find_schema("", "Celu", 28)->since_version, 28);
  EXPECT_EQ(schema::find_schema("", "NoSuchOperator", 28), nullptr);
  EXPECT_TRUE(schema::has_operator("", "Relu"));
  EXPECT_FALSE(schema::has_operator("ai.onnx.ml", "Relu"));
}

TEST(SchemaTable, VersionsBeyondLibonnxFollowTheSpec) {
  // ReduceMax-18 (ONNX operator docs): data and an optional axes input of
  // int64; attributes keepdims and noop_with_empty_axes, both optional ints.
  const schema::OperatorSchema* reduce = schema::find_schema("", "ReduceMax", 18);
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->since_version, 18);
  EXPECT_EQ(reduce->min_input, 1);
  EXPECT_EQ(reduce->max_input, 2);
  ASSERT_EQ(reduce->inputs.size(), 2u);
  EXPECT_EQ(reduce->inputs[1].name, "axes");
  EXPECT_EQ(reduce->inputs[1].type, "tensor(int64)");
  EXPECT_TRUE(reduce->inputs[1].optional);
  ASSERT_NE(reduce->attribute("keepdims"), nullptr);
  EXPECT_EQ(reduce->attribute("keepdims")->type, 2);
  EXPECT_FALSE(reduce->attribute("keepdims")->required);
  EXPECT_EQ(reduce->attribute("axes"), nullptr);
  // Split-18: the outputs are variadic (one or more) and num_outputs is an
  // optional int attribute.
  const schema::OperatorSchema* split = schema::find_schema("", "Split", 18);
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->max_output, schema::kUnbounded);
  EXPECT_EQ(split->min_output, 1);
  ASSERT_NE(split->attribute("num_outputs"), nullptr);
  // Cast-19 admits the float8 types (IR 9); Cast-25 adds int2/uint2 among others.
  const schema::TypeConstraint* t1 = schema::find_schema("", "Cast", 19)->constraint("T1");
  ASSERT_NE(t1, nullptr);
  EXPECT_NE(std::find(t1->allowed.begin(), t1->allowed.end(), "tensor(float8e4m3fn)"),
            t1->allowed.end());
  const schema::TypeConstraint* t25 = schema::find_schema("", "Cast", 25)->constraint("T1");
  EXPECT_NE(std::find(t25->allowed.begin(), t25->allowed.end(), "tensor(int2)"),
            t25->allowed.end());
  // LabelEncoder-4 (ai.onnx.ml) takes its keys and values as tensors.
  const schema::OperatorSchema* encoder = schema::find_schema("ai.onnx.ml", "LabelEncoder", 5);
  ASSERT_NE(encoder, nullptr);
  EXPECT_EQ(encoder->since_version, 4);
  ASSERT_NE(encoder->attribute("keys_tensor"), nullptr);
  EXPECT_EQ(encoder->attribute("keys_tensor")->type, 4);
}

TEST(SchemaTable, TypeStringsAreSpelledAsLibonnxSpellsThem) {
  // ZipMap writes "seq(map(string, float))"; the table keeps libonnx's form.
  const schema::TypeConstraint* zip =
      schema::find_schema("ai.onnx.ml", "ZipMap", 1)->constraint("T");
  ASSERT_NE(zip, nullptr);
  EXPECT_EQ(zip->allowed[0], libonnx_canonical("seq(map(string, float))"));
  EXPECT_EQ(zip->allowed[0], "seq(map(string,tensor(float)))");
  // canonical_type_string spells an IR type the same way.
  EXPECT_EQ(check::canonical_type_string(ir::Type::sequence(
                ir::Type::map(ir::DataType::kString, ir::Type::tensor(ir::DataType::kFloat)))),
            "seq(map(string,tensor(float)))");
  EXPECT_EQ(check::canonical_type_string(ir::Type::optional(ir::Type::tensor(ir::DataType::kInt4))),
            "optional(tensor(int4))");
  EXPECT_EQ(check::canonical_type_string(ir::Type::tensor(ir::DataType::kUndefined)), "");
}

}  // namespace
}  // namespace onnxscript
