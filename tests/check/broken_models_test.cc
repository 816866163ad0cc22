// Broken models, each built by one mutation of a valid one: libonnx (for
// models within its bounds) and the project's validator both reject them,
// each with its own message. And models beyond libonnx that only the
// validator can judge.

#include <gtest/gtest.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "check/check_test_util.h"
#include "onnxscript/check/check.h"
#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"

namespace onnxscript {
namespace {

using check_test::any_contains;
using check_test::joined;

ir::Node* nth_node(ir::Graph& g, size_t n) {
  for (ir::Node* node : g.nodes())
    if (n-- == 0) return node;
  return nullptr;
}

struct Broken {
  const char* name;
  const char* text;                        // the model in ONNX's textual syntax
  std::function<void(ir::Model&)> mutate;  // what the text cannot say; may be empty
  const char* libonnx_fragment;            // empty: beyond libonnx (IR > 8 or opset > 17)
  const char* ours_fragment;
  // The same mutation on the ONNX proto, for what our IR cannot serialize (a
  // name that does not resolve); libonnx then checks the mutated proto.
  std::function<void(onnx::ModelProto&)> mutate_proto = {};
};

constexpr const char* kTranspose = R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[3, 2] Y) {
  Y = Transpose<perm = [1, 0]>(X)
})";

constexpr const char* kChain = R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) {
  T = Relu(X)
  U = Neg(X)
  Y = Add(T, U)
})";

const Broken kBroken[] = {
    {"wrong attribute type",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[3, 2] Y) {
  Y = Transpose<perm = 1.0>(X)
})",
     {},
     "Mismatched attribute type in ' : perm'",
     "attribute 'perm' has type float, but Transpose-13 expects ints"},
    {"missing required attribute",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X, float[2] Z) => (float[4] Y) {
  Y = Concat(X, Z)
})",
     {},
     "Required attribute 'axis' is missing",
     "required attribute 'axis' of Concat-13 is missing"},
    {"unknown attribute",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) {
  Y = Relu<alpha = 0.5>(X)
})",
     {},
     "Unrecognized attribute: alpha for operator Relu",
     "unknown attribute 'alpha' (Relu-14 has no such attribute)"},
    {"too many inputs",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) {
  Y = Relu(X, X)
})",
     {},
     "has input size 2 not in range [min=1, max=1]",
     "2 inputs given, but Relu-14 takes between 1 and 1"},
    {"input type outside the constraint",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (int64[2] X) => (int64[2] Y) {
  Y = Sqrt(X)
})",
     {},
     "X typestr: T, has unsupported type: tensor(int64)",
     "input 0 'X' has type tensor(int64), which type parameter T of Sqrt-13 does not allow"},
    {"one type parameter, two types",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X, int64[2] Z) => (float[2] Y) {
  Y = Add(X, Z)
})",
     {},
     "B has inconsistent type tensor(int64)",
     "type parameter T of Add-14 is bound to different types: tensor(float) by input 0 'X' and "
     "tensor(int64) by input 1 'Z'"},
    {"undefined input", kChain,
     [](ir::Model& m) {
       ir::Graph& g = m.graph();
       nth_node(g, 1)->set_input(0, g.create_detached_value("Z"));
     },
     "input 'Z' of node", "node 1 (Neg): input 0 'Z' is not defined before this node",
     [](onnx::ModelProto& p) { p.mutable_graph()->mutable_node(1)->set_input(0, "Z"); }},
    {"input used before its definition", kChain,
     [](ir::Model& m) {
       // U = Neg(T) placed before T = Relu(X).
       ir::Graph& g = m.graph();
       ir::Node* relu = nth_node(g, 0);
       ir::Node* neg = nth_node(g, 1);
       neg->set_input(0, relu->output(0));
       g.move_before(neg, relu);
     },
     "is not output of any previous nodes", "node 0 (Neg): input 0 'T' is not defined before"},
    {"name defined twice", kChain,
     [](ir::Model& m) { nth_node(m.graph(), 1)->output(0)->set_name("T"); },
     "'T' has been used as output names multiple times",
     "node 1 (Neg): output 0 'T' is defined twice",
     [](onnx::ModelProto& p) {
       p.mutable_graph()->mutable_node(1)->set_output(0, "T");
       p.mutable_graph()->mutable_node(2)->set_input(1, "T");
     }},
    {"float8 in an IR 8 model",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float8e4m3fn[2] X) => (float[2] Y) {
  Y = Cast<to = 1>(X)
})",
     {},
     "Invalid tensor data type 17",
     "input 'X' has type float8e4m3fn[2], which needs IR version 9; the model is IR version 8"},
    {"missing opset import",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) {
  Y = ai.onnx.ml.Normalizer<norm = "MAX">(X)
})",
     {},
     "No opset import for domain 'ai.onnx.ml'",
     "domain 'ai.onnx.ml' is used but not imported"},
    {"declared type contradicting inference",
     R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[3] Y) {
  Y = Relu(X)
})",
     {},
     "Inferred shape and existing shape differ in dimension 0: (2) vs (3)",
     "output 0 'Y' is declared float[3] but inference gives float[2] (dimension 0 differs)"},
    {"deprecated operator",
     R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[1, 1, 2, 2] X, float[4] S) => (float[1, 1, 4, 4] Y) {
  Y = Upsample(X, S)
})",
     {},
     "is deprecated",
     "Upsample-10 is deprecated"},
    // Beyond libonnx: the validator alone.
    {"wrong attribute type at opset 22",
     R"(<ir_version: 10, opset_import: ["" : 22]>
g (float[2, 3] X) => (float[3, 2] Y) {
  Y = Transpose<perm = 1.0>(X)
})",
     {},
     "",
     "attribute 'perm' has type float, but Transpose-21 expects ints"},
    {"int2 in an IR 10 model",
     R"(<ir_version: 10, opset_import: ["" : 25]>
g (int2[4] X) => (float[4] Y) {
  Y = Cast<to = 1>(X)
})",
     {},
     "",
     "input 'X' has type int2[4], which needs IR version 13; the model is IR version 10"},
    {"float4e2m1 outside Add's constraint at opset 28",
     R"(<ir_version: 13, opset_import: ["" : 28]>
g (float4e2m1[2] X, float4e2m1[2] Z) => (float4e2m1[2] Y) {
  Y = Add(X, Z)
})",
     {},
     "",
     "which type parameter T of Add-14 does not allow"},
    {"missing required attribute at opset 28",
     R"(<ir_version: 13, opset_import: ["" : 28]>
g (float[2] X) => (float[2] Y) {
  Y = Cast(X)
})",
     {},
     "",
     "required attribute 'to' of Cast-25 is missing"},
    {"an operator that does not exist yet",
     R"(<ir_version: 10, opset_import: ["" : 22]>
g (float[2, 4] X) => (float[2, 2] Y) {
  Y = SwiGLU(X)
})",
     {},
     "",
     "no operator 'SwiGLU' in domain 'ai.onnx' at opset 22"},
    {"attribute reference outside a function",
     R"(<ir_version: 10, opset_import: ["" : 22]>
g (float[2] X) => (float[2] Y) {
  Y = LeakyRelu<alpha: float = @a>(X)
})",
     {},
     "",
     "attribute 'alpha' refers to 'a', but only a function body may refer to attributes"},
    {"a function body refers to an undeclared attribute",
     R"(<ir_version: 10, opset_import: ["" : 22, "local" : 1]>
g (float[2] X) => (float[2] Y) {
  Y = local.Leaky(X)
}
<domain: "local", opset_import: ["" : 22]>
Leaky <slope> (x) => (y) {
  y = LeakyRelu<alpha: float = @gain>(x)
})",
     {},
     "",
     "function 'local.Leaky': node 0 (LeakyRelu): attribute 'alpha' refers to 'gain'"},
    {"a function body uses a domain it does not import",
     R"(<ir_version: 10, opset_import: ["" : 22, "local" : 1]>
g (float[2] X) => (float[2] Y) {
  Y = local.F(X)
}
<domain: "local", opset_import: ["" : 22]>
F (x) => (y) {
  y = ai.onnx.ml.Normalizer<norm = "MAX">(x)
})",
     {},
     "",
     "function 'local.F': node 0 (ai.onnx.ml.Normalizer): domain 'ai.onnx.ml' is used but "
     "not imported"},
};

// libonnx's checker and strict inference on the valid model of `text` after
// `mutate` edits its proto.
std::vector<std::string> libonnx_errors(const char* text,
                                        const std::function<void(onnx::ModelProto&)>& mutate) {
  onnx::ModelProto proto;
  EXPECT_TRUE(proto.ParseFromString(serde::serialize_model(text::parse_model(text))));
  mutate(proto);
  std::vector<std::string> errors;
  try {
    onnx::checker::check_model(proto);
  } catch (const std::exception& e) {
    errors.push_back(e.what());
  }
  try {
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(true, 1, true));
  } catch (const std::exception& e) {
    errors.push_back(e.what());
  }
  return errors;
}

class BrokenModel : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenModel, BothCheckersRejectIt) {
  const Broken& b = GetParam();
  ir::Model model = text::parse_model(b.text);
  if (b.mutate) b.mutate(model);
  const std::vector<std::string> ours = check::validate_model(model);
  EXPECT_TRUE(any_contains(ours, b.ours_fragment)) << b.ours_fragment << joined(ours);
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.checked);
  EXPECT_FALSE(result.ok());
  if (std::string(b.libonnx_fragment).empty()) {
    EXPECT_TRUE(serde::beyond_libonnx(model).has_value());
    EXPECT_FALSE(result.libonnx_checked);
    return;
  }
  ASSERT_FALSE(serde::beyond_libonnx(model).has_value());
  EXPECT_TRUE(result.libonnx_checked);
  const std::vector<std::string> theirs =
      b.mutate_proto ? libonnx_errors(b.text, b.mutate_proto) : serde::check_with_libonnx(model);
  EXPECT_TRUE(any_contains(theirs, b.libonnx_fragment)) << b.libonnx_fragment << joined(theirs);
}

std::string case_name(const ::testing::TestParamInfo<Broken>& info) {
  std::string out;
  for (char c : std::string(info.param.name))
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

INSTANTIATE_TEST_SUITE_P(Mutations, BrokenModel, ::testing::ValuesIn(kBroken), case_name);

TEST(Check, AcceptsAValidFunctionModelBeyondLibonnx) {
  const ir::Model model =
      text::parse_model(R"(<ir_version: 10, opset_import: ["" : 22, "local" : 1]>
g (float[2] X) => (float[2] Y) {
  Y = local.Leaky<slope = 0.2>(X)
}
<domain: "local", opset_import: ["" : 22]>
Leaky <slope> (x) => (y) {
  y = LeakyRelu<alpha: float = @slope>(x)
})");
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.ok()) << result.skipped_reason << joined(result.errors);
  EXPECT_FALSE(result.libonnx_checked);
}

TEST(Check, EachNewElementTypeNeedsItsIrVersion) {
  // The IR version that introduced each element type (onnx.proto's history).
  const std::pair<const char*, int64_t> kFirstIr[] = {
      {"float8e4m3fn", 9}, {"float8e5m2fnuz", 9}, {"uint4", 10}, {"int4", 10},
      {"float4e2m1", 11},  {"float8e8m0", 12},    {"uint2", 13}, {"int2", 13}};
  for (const auto& [type, first] : kFirstIr) {
    for (int64_t ir : {first - 1, first}) {
      SCOPED_TRACE(std::string(type) + " at IR " + std::to_string(ir));
      const std::string text = "<ir_version: " + std::to_string(ir) +
                               R"(, opset_import: ["" : 25]>
g ()" + type + "[4] X) => (" + type +
                               R"([4] Y) {
  Y = Identity(X)
})";
      const std::vector<std::string> errors = check::validate_model(text::parse_model(text));
      if (ir < first) {
        EXPECT_TRUE(any_contains(errors, "which needs IR version " + std::to_string(first)))
            << joined(errors);
      } else {
        EXPECT_TRUE(errors.empty()) << joined(errors);
      }
    }
  }
}

TEST(Check, LeavesTheModelAsItWas) {
  // Strict inference types a copy: the caller's untyped value stays untyped.
  const ir::Model model = text::parse_model(R"(<ir_version: 10, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) {
  T = Relu(X)
  Y = Neg(T)
})");
  const ir::Value* t = model.graph().first_node()->output(0);
  ASSERT_FALSE(t->type().has_value());
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.ok()) << joined(result.errors);
  EXPECT_FALSE(t->type().has_value());
}

TEST(Check, SaysWhenAModelIsBeyondItsBounds) {
  ir::Model model = text::parse_model(kTranspose);
  model.ir_version = 14;
  check::CheckResult result = check::check_model(model);
  EXPECT_FALSE(result.checked);
  EXPECT_EQ(result.skipped_reason,
            "IR version 14 is newer than the validator knows (it knows IR <= 13)");
  model.ir_version = 13;
  model.opset_imports.set("", 29);
  result = check::check_model(model);
  EXPECT_FALSE(result.checked);
  EXPECT_EQ(result.skipped_reason,
            "opset ai.onnx 29 is newer than the validator knows (it knows <= 28)");
}

TEST(Check, RunsLibonnxOnlyWithinItsBounds) {
  ir::Model model = text::parse_model(kTranspose);
  EXPECT_TRUE(check::check_model(model).libonnx_checked);
  model.opset_imports.set("", 18);
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.ok()) << joined(result.errors);
  EXPECT_FALSE(result.libonnx_checked);
  EXPECT_EQ(serde::beyond_libonnx(model),
            "opset ai.onnx 18 is newer than libonnx 1.12 knows (it knows ai.onnx <= 17)");
}

}  // namespace
}  // namespace onnxscript
