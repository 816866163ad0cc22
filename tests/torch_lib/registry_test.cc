// The torchlib registry: ATen schema parsing, lookup, overload choice,
// argument conversion and its errors, and user registrations.
#include <gtest/gtest.h>

#include "onnxscript/onnxscript.h"
#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::torch_lib {
namespace {

namespace op = onnxscript::opset18;

std::vector<float> floats(const Value& v) {
  const Tensor& t = v.tensor();
  EXPECT_EQ(t.dtype(), DataType::kFloat);
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

TEST(AtenSchema, ParsesParametersDefaultsAndKeywordOnlyMarks) {
  const Schema s =
      Schema::parse("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(s.qualified_name, "aten::add.Tensor");
  EXPECT_EQ(s.base_name(), "aten::add");
  EXPECT_EQ(s.overload_name(), "Tensor");
  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.params[0].type, "Tensor");
  EXPECT_EQ(s.params[0].name, "self");
  EXPECT_FALSE(s.params[1].keyword_only);
  EXPECT_TRUE(s.params[2].keyword_only);
  ASSERT_TRUE(s.params[2].default_value.has_value());
  EXPECT_EQ(s.params[2].default_value->describe(), "int 1");
  EXPECT_EQ(s.returns, std::vector<std::string>{"Tensor"});
}

TEST(AtenSchema, DropsAliasAnnotationsAndReadsListAndIdentifierDefaults) {
  const Schema chunk =
      Schema::parse("aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(chunk.params[0].type, "Tensor");
  EXPECT_FALSE(chunk.params[0].written);  // a view, not a write
  EXPECT_EQ(chunk.overload_name(), "");
  const Schema add_ = Schema::parse(
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_EQ(add_.params[0].type, "Tensor");
  EXPECT_TRUE(add_.params[0].written);
  EXPECT_FALSE(add_.params[1].written);
  EXPECT_EQ(chunk.returns, std::vector<std::string>{"Tensor[]"});
  const Schema pool = Schema::parse(
      "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0) -> "
      "Tensor");
  EXPECT_EQ(pool.params[2].default_value->describe(), "int[] []");
  EXPECT_EQ(pool.params[3].default_value->describe(), "int 0");
  const Schema contiguous = Schema::parse(
      "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> "
      "Tensor(a)");
  EXPECT_EQ(contiguous.params[1].default_value->describe(), "str 'contiguous_format'");
  const Schema norm = Schema::parse(
      "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float "
      "eps=1e-05) -> Tensor");
  EXPECT_TRUE(norm.params[2].optional());
  EXPECT_TRUE(norm.params[2].default_value->is_none());
  EXPECT_EQ(norm.params[3].default_value->describe(), "float 1e-05");
}

TEST(AtenSchema, RejectsTextWithoutNamespaceOrParameters) {
  EXPECT_THROW(Schema::parse("add(Tensor self) -> Tensor"), ParseError);
  EXPECT_THROW(Schema::parse("aten::add -> Tensor"), ParseError);
  EXPECT_THROW(Schema::parse("aten::add(Tensor) -> Tensor"), ParseError);
}

TEST(TorchlibRegistry, KnowsTheOperatorsTorchScriptModelsUse) {
  const Registry& r = torchlib_registry();
  // The 37 aten operators of the frozen torchvision and torch.nn models, in
  // the spellings TorchScript records.
  for (const char* name : {"aten::Int.Tensor",    "aten::_convolution", "aten::adaptive_avg_pool2d",
                           "aten::add.Tensor",    "aten::add_.Tensor",  "aten::avg_pool2d",
                           "aten::batch_norm",    "aten::bmm",          "aten::cat",
                           "aten::chunk",         "aten::contiguous",   "aten::div.Tensor",
                           "aten::embedding",     "aten::expand",       "aten::flatten.using_ints",
                           "aten::floor_divide",  "aten::gelu",         "aten::hardsigmoid",
                           "aten::hardswish_",    "aten::hardtanh_",    "aten::layer_norm",
                           "aten::linear",        "aten::max_pool2d",   "aten::mean.dim",
                           "aten::mul.Tensor",    "aten::permute",      "aten::relu",
                           "aten::relu_",         "aten::reshape",      "aten::select.int",
                           "aten::size.int",      "aten::slice.Tensor", "aten::softmax.int",
                           "aten::transpose.int", "aten::view",         "aten::zeros"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
  EXPECT_TRUE(r.is_registered_op("aten::lstm.input"));
  EXPECT_FALSE(r.is_registered_op("aten::add"));  // only its overloads have names
  const std::vector<std::string> names = r.names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(names.size(), r.size());
}

TEST(TorchlibRegistry, CallsFillDefaultsFromTheSchema) {
  const Registry& r = torchlib_registry();
  const OpOverload& add = r.get_op_functions("aten::add.Tensor").front();
  const Tensor x = Tensor::from<float>({1, 2, 3});
  const Tensor y = Tensor::from<float>({10, 20, 30});
  EXPECT_EQ(floats(add({x, y}).at(0)), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(floats(add({x, y, 2}).at(0)), (std::vector<float>{21, 42, 63}));
  // A Python float as the Scalar other of add.Scalar takes x's element type.
  const OpOverload& add_scalar = r.get_op_functions("aten::add.Scalar").front();
  EXPECT_EQ(floats(add_scalar({x, 0.5}).at(0)), (std::vector<float>{1.5f, 2.5f, 3.5f}));
}

TEST(TorchlibRegistry, ArgumentErrorsNameTheOperatorAndTheParameter) {
  const Registry& r = torchlib_registry();
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  const OpOverload& transpose = r.get_op_functions("aten::transpose.int").front();
  try {
    transpose({x, "zero", 1});
    FAIL() << "a string for an int must be rejected";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("aten::transpose.int"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'dim0'"), std::string::npos) << e.what();
  }
  try {
    transpose({x, 0});
    FAIL() << "a missing required argument must be rejected";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("missing argument 'dim1'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(transpose({x, 0, 1, 2}), TypeError);
}

TEST(TorchlibRegistry, ChoosesAComplexOverloadForComplexInputsOnly) {
  Registry r;
  auto overload_returning = [](float v, DtypeClass dtypes) {
    OpOverload o;
    o.schema = Schema::parse("test::f(Tensor self) -> Tensor");
    o.callable = [v](std::span<const Arg>) {
      return std::vector<Value>{Value(Tensor::from<float>({v}))};
    };
    o.dtypes = dtypes;
    return o;
  };
  r.add(overload_returning(2, DtypeClass::kComplex));
  r.add(overload_returning(1, DtypeClass::kAny));
  const std::vector<Arg> real = {Arg(Tensor::from<float>({0}))};
  const std::vector<Arg> complex = {Arg(Tensor(DataType::kComplex64, {1}))};
  EXPECT_EQ(floats(r.choose("test::f", real)->callable(real).at(0)), std::vector<float>{1});
  EXPECT_EQ(floats(r.choose("test::f", complex)->callable(complex).at(0)), std::vector<float>{2});
  EXPECT_EQ(r.choose("test::g", real), nullptr);
}

TEST(TorchlibRegistry, UserFunctionsReplaceOrExtendIt) {
  Registry r = torchlib_registry();  // a copy: torchlib's own stays as it was
  // relu as x * (x > 0), to show the replacement runs.
  const Function my_relu = script("my_relu", {"self"}, [](FLOAT<AnyRank> self) {
    return op::Mul(self, op::CastLike(op::Greater(self, 0.0f), self));
  });
  r.register_op(my_relu, "aten::relu", "aten::relu(Tensor self) -> Tensor");
  const std::span<const OpOverload> relu = r.get_op_functions("aten::relu");
  ASSERT_EQ(relu.size(), 1u);
  EXPECT_TRUE(relu[0].custom);
  EXPECT_EQ(relu[0].emission, Emission::kFunction);
  EXPECT_EQ(floats(relu[0]({Tensor::from<float>({-1, 2})}).at(0)), (std::vector<float>{0, 2}));
  EXPECT_FALSE(torchlib_registry().get_op_functions("aten::relu").front().custom);

  // A custom TorchScript operator with an attribute.
  const Function scale =
      script("scale", {"x", {"factor", 1.0f}},
             [](FLOAT<AnyRank> x, Attr<float> factor) { return op::Mul(x, factor); });
  r.register_op(scale, "my_ops::scale", "my_ops::scale(Tensor x, float factor=1.0) -> Tensor");
  EXPECT_TRUE(r.is_registered_op("my_ops::scale"));
  const OpOverload& s = r.get_op_functions("my_ops::scale").front();
  EXPECT_EQ(floats(s({Tensor::from<float>({1, 2}), 3.0}).at(0)), (std::vector<float>{3, 6}));
  EXPECT_EQ(floats(s({Tensor::from<float>({1, 2})}).at(0)), (std::vector<float>{1, 2}));
  EXPECT_THROW(r.register_op(scale, "my_ops::scale", "my_ops::other(Tensor x) -> Tensor"),
               TypeError);
}

}  // namespace
}  // namespace onnxscript::torch_lib
