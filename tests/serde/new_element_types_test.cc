// The element types of IR 11-13 through the wire format and the textual
// syntax: float8e8m0 (IR 12), int2 and uint2 (IR 13, four to a byte) and
// float4e2m1 (IR 11, two to a byte). Each round-trips through both tensor
// encoders (raw_data and int32_data) and both model writers, prints and
// parses, makes a model need exactly its IR version, and an IR 12/13 file
// reads and writes back byte for byte.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde/model_io.h"
#include "serde/wire_encoder.h"

namespace onnxscript::serde {
namespace {

using ir::DataType;
using ir::Type;
using text::parse_model;
using text::parse_type;
using text::print_model;
using text::print_type;

struct Case {
  DataType dtype;
  int64_t numel;
  std::vector<uint8_t> bytes;  // packed as ONNX raw_data packs them
  const char* text;            // the elements as the textual syntax prints them
  int64_t ir_version;
};

// Odd counts, so that the last byte of a sub-byte type is partly used.
const Case kCases[] = {
    // 2^-127, 1, 2, 2^127, NaN
    {DataType::kFloat8E8M0, 5, {0x00, 0x7f, 0x80, 0xfe, 0xff}, "6e-39, 1, 2, 2e+38, nan", 12},
    // 1, -2, -1, 0 | 1, -2, -1 (first element in the lowest bits)
    {DataType::kInt2, 7, {0x39, 0x39}, "1, -2, -1, 0, 1, -2, -1", 13},
    // 0, 1, 2, 3 | 2
    {DataType::kUint2, 5, {0xe4, 0x02}, "0, 1, 2, 3, 2", 13},
    // 0.5, 6 | -1
    {DataType::kFloat4E2M1, 3, {0x71, 0x0a}, "0.5, 6, -1", 11},
};

std::string name_of(const Case& c) { return std::string(ir::data_type_name(c.dtype)); }

ir::Tensor make_tensor(const Case& c, ir::TensorEncoding encoding = ir::TensorEncoding::kRawData) {
  ir::Tensor t(c.dtype, {c.numel});
  EXPECT_EQ(t.nbytes(), c.bytes.size()) << name_of(c);
  std::memcpy(t.raw_data(), c.bytes.data(), c.bytes.size());
  if (encoding != ir::TensorEncoding::kRawData) t.mutable_proto_info().encoding = encoding;
  return t;
}

std::string raw_bytes(const ir::Tensor& t) {
  return std::string(static_cast<const char*>(t.raw_data()), t.nbytes());
}

std::string case_bytes(const Case& c) { return std::string(c.bytes.begin(), c.bytes.end()); }

// x (dtype) and an initializer w (dtype) -> Identity(w) -> y.
ir::Model model_of(const Case& c, ir::TensorEncoding encoding) {
  ir::Model m;
  m.opset_imports.set("", 21);
  ir::Graph& g = m.graph();
  g.add_input("x", Type::tensor(c.dtype, ir::Shape{c.numel}));
  ir::Tensor w = make_tensor(c, encoding);
  ir::Value* wv = g.add_initializer("w", w);
  ir::Node* id = g.append_node("Identity", {wv}, 1);
  id->output(0)->set_name("y");
  id->output(0)->set_type(Type::tensor(c.dtype, ir::Shape{c.numel}));
  g.outputs().push_back(id->output(0));
  m.ir_version = required_ir_version(m);
  return m;
}

std::string general_bytes(const ir::Model& model) {
  detail::ErrorContext ctx{"<serialize_model>"};
  wire::ModelProto proto;
  detail::write_model_proto(model, &proto, ctx, nullptr);
  return proto.SerializeAsString();
}

TEST(NewElementTypes, TensorCodecRawDataRoundTrips) {
  for (const Case& c : kCases) {
    const ir::Tensor t = make_tensor(c);
    const std::string bytes = tensor_to_proto_bytes(t);
    wire::TensorProto p;
    ASSERT_TRUE(p.ParseFromString(bytes)) << name_of(c);
    EXPECT_EQ(p.data_type(), static_cast<int32_t>(c.dtype)) << name_of(c);
    EXPECT_EQ(p.raw_data(), case_bytes(c)) << name_of(c);
    const ir::Tensor back = tensor_from_proto_bytes(bytes);
    EXPECT_EQ(back.dtype(), c.dtype);
    EXPECT_EQ(back.shape(), (std::vector<int64_t>{c.numel}));
    EXPECT_EQ(raw_bytes(back), case_bytes(c)) << name_of(c);
    EXPECT_EQ(tensor_to_proto_bytes(back), bytes) << name_of(c);
  }
}

TEST(NewElementTypes, TensorCodecInt32DataHoldsOnePackedBytePerEntry) {
  for (const Case& c : kCases) {
    // As ONNX writes them: int32_data, one entry per (packed) byte.
    wire::TensorProto p;
    p.set_data_type(static_cast<int32_t>(c.dtype));
    p.add_dims(c.numel);
    for (uint8_t b : c.bytes) p.add_int32_data(b);
    const std::string bytes = p.SerializeAsString();
    const ir::Tensor t = tensor_from_proto_bytes(bytes);
    EXPECT_EQ(raw_bytes(t), case_bytes(c)) << name_of(c);
    EXPECT_EQ(tensor_to_proto_bytes(t), bytes) << name_of(c);
    // A tensor made here and marked for typed fields encodes the same way.
    EXPECT_EQ(tensor_to_proto_bytes(make_tensor(c, ir::TensorEncoding::kTypedFields)), bytes)
        << name_of(c);
  }
  // A wrong entry count is an error, not a silent truncation.
  wire::TensorProto bad;
  bad.set_data_type(static_cast<int32_t>(DataType::kInt2));
  bad.add_dims(5);
  bad.add_int32_data(0);
  EXPECT_THROW(tensor_from_proto_bytes(bad.SerializeAsString()), ValidationError);
}

TEST(NewElementTypes, BothModelWritersAgreeAndReadBack) {
  for (const Case& c : kCases) {
    for (auto encoding : {ir::TensorEncoding::kRawData, ir::TensorEncoding::kTypedFields}) {
      const ir::Model m = model_of(c, encoding);
      std::string fast;
      const char* reason = nullptr;
      ASSERT_TRUE(detail::encode_model_fast(m, &fast, &reason)) << name_of(c) << ": " << reason;
      EXPECT_EQ(fast, general_bytes(m)) << name_of(c);
      const ir::Model back = load_model_from_bytes(fast);
      EXPECT_EQ(back.ir_version, c.ir_version) << name_of(c);
      const ir::Tensor* w = back.graph().initializers()[0]->const_value();
      ASSERT_NE(w, nullptr);
      EXPECT_EQ(w->dtype(), c.dtype);
      EXPECT_EQ(raw_bytes(*w), case_bytes(c)) << name_of(c);
      EXPECT_EQ(serialize_model(back), fast) << name_of(c);
    }
  }
}

TEST(NewElementTypes, ModelsNeedExactlyTheirIrVersion) {
  for (const Case& c : kCases) {
    EXPECT_EQ(ir::min_ir_version(c.dtype), c.ir_version) << name_of(c);
    EXPECT_EQ(model_of(c, ir::TensorEncoding::kRawData).ir_version, c.ir_version) << name_of(c);
    // The type alone (a graph input of an otherwise plain model) asks for it too.
    ir::Model m;
    m.opset_imports.set("", 7);
    ir::Value* x = m.graph().add_input("x", Type::tensor(c.dtype));
    m.graph().outputs().push_back(x);
    EXPECT_EQ(required_ir_version(m), c.ir_version) << name_of(c);
  }
  // The opsets of ONNX 1.19 and 1.20 came with IR 12 and 13.
  ir::Model m;
  ir::Value* x = m.graph().add_input("x", Type::tensor(DataType::kFloat));
  m.graph().outputs().push_back(x);
  for (auto [opset, ir] : {std::pair<int64_t, int64_t>{23, 11}, {24, 12}, {25, 13}, {26, 13}}) {
    m.opset_imports.set("", opset);
    EXPECT_EQ(required_ir_version(m), ir) << "opset " << opset;
  }
}

// An IR 13 model as ONNX 1.22 writes one: opset 25, a Cast to float8e8m0 with
// round_mode, initializers of every new type in raw_data and int32_data.
std::string ir13_model_bytes() {
  wire::ModelProto m;
  m.set_ir_version(13);
  m.set_producer_name("backend-test");
  auto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(25);
  auto* g = m.mutable_graph();
  g->set_name("g");
  int n = 0;
  for (const Case& c : kCases) {
    for (bool raw : {true, false}) {
      auto* t = g->add_initializer();
      t->add_dims(c.numel);
      t->set_data_type(static_cast<int32_t>(c.dtype));
      t->set_name("w" + std::to_string(n++));
      if (raw) {
        t->set_raw_data(case_bytes(c));
      } else {
        for (uint8_t b : c.bytes) t->add_int32_data(b);
      }
    }
  }
  auto* node = g->add_node();
  node->add_input("w0");
  node->add_output("y");
  node->set_op_type("Cast");
  auto* round_mode = node->add_attribute();
  round_mode->set_name("round_mode");
  round_mode->set_s("down");
  round_mode->set_type(wire::AttributeProto::STRING);
  auto* to = node->add_attribute();
  to->set_name("to");
  to->set_i(static_cast<int64_t>(DataType::kInt2));
  to->set_type(wire::AttributeProto::INT);
  auto* y = g->add_output();
  y->set_name("y");
  auto* tt = y->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(static_cast<int32_t>(DataType::kInt2));
  tt->mutable_shape()->add_dim()->set_dim_value(5);
  return m.SerializeAsString();
}

TEST(NewElementTypes, Ir13FileReadsAndWritesBackByteForByte) {
  const std::string bytes = ir13_model_bytes();
  const ir::Model m = load_model_from_bytes(bytes);
  EXPECT_EQ(m.ir_version, 13);
  EXPECT_EQ(required_ir_version(m), 13);
  EXPECT_EQ(serialize_model(m), bytes);
  EXPECT_EQ(general_bytes(m), bytes);
  // And through the textual syntax (which does not record raw_data against
  // int32_data): the same text again, and the same elements.
  const std::string text = print_model(m);
  const ir::Model parsed = parse_model(text);
  EXPECT_EQ(print_model(parsed), text);
  ASSERT_EQ(parsed.graph().initializers().size(), m.graph().initializers().size());
  for (size_t i = 0; i < m.graph().initializers().size(); ++i) {
    const ir::Tensor& a = *m.graph().initializers()[i]->const_value();
    const ir::Tensor& b = *parsed.graph().initializers()[i]->const_value();
    EXPECT_EQ(b.dtype(), a.dtype());
    EXPECT_EQ(b.shape(), a.shape());
    EXPECT_EQ(raw_bytes(b), raw_bytes(a)) << i;
  }
}

TEST(NewElementTypes, Ir12FileReadsBackLosslessly) {
  wire::ModelProto m;
  m.set_ir_version(12);
  auto* opset = m.add_opset_import();
  opset->set_version(24);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* t = g->add_initializer();
  t->add_dims(5);
  t->set_data_type(static_cast<int32_t>(DataType::kFloat8E8M0));
  t->set_name("scale");
  t->set_raw_data(case_bytes(kCases[0]));
  auto* out = g->add_output();
  out->set_name("scale");
  out->mutable_type()->mutable_tensor_type()->set_elem_type(24);
  const std::string bytes = m.SerializeAsString();
  const ir::Model back = load_model_from_bytes(bytes);
  EXPECT_EQ(back.ir_version, 12);
  EXPECT_EQ(required_ir_version(back), 12);
  EXPECT_EQ(serialize_model(back), bytes);
}

TEST(NewElementTypes, TextPrintsAndParsesElements) {
  for (const Case& c : kCases) {
    const ir::Model m = model_of(c, ir::TensorEncoding::kRawData);
    const std::string text = print_model(m);
    const std::string expected =
        fmt::format("{}[{}] w = {{{}}}", ir::data_type_name(c.dtype), c.numel, c.text);
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nnot in\n" << text;
    EXPECT_NE(text.find(fmt::format("{}[{}] x", ir::data_type_name(c.dtype), c.numel)),
              std::string::npos)
        << text;
    const ir::Model back = parse_model(text);
    EXPECT_EQ(print_model(back), text);
    const ir::Tensor* w = back.graph().initializers()[0]->const_value();
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->dtype(), c.dtype);
    EXPECT_EQ(raw_bytes(*w), case_bytes(c)) << name_of(c);
    EXPECT_EQ(back.graph().inputs()[0]->type()->elem_type, c.dtype);
  }
  EXPECT_EQ(print_type(Type::tensor(DataType::kFloat8E8M0, ir::Shape{2})), "float8e8m0[2]");
  EXPECT_EQ(parse_type("uint2[3]").elem_type, DataType::kUint2);
  EXPECT_EQ(parse_type("int2").elem_type, DataType::kInt2);
}

TEST(NewElementTypes, TextRejectsValuesATypeCannotHold) {
  auto parse_w = [](const std::string& tensor) {
    const std::string type = tensor.substr(0, tensor.find(" w"));
    return parse_model("<ir_version: 13, opset_import: [\"\" : 25]>\ng () => (" + type + " y)\n<" +
                       tensor + ">\n{\n  y = Identity (w)\n}\n");
  };
  // Sanity: a valid one parses.
  EXPECT_NO_THROW(parse_w("int2[2] w = {1, -2}"));
  EXPECT_THROW(parse_w("int2[1] w = {2}"), ParseError);
  EXPECT_THROW(parse_w("uint2[1] w = {4}"), ParseError);
  EXPECT_THROW(parse_w("uint2[1] w = {-1}"), ParseError);
  EXPECT_THROW(parse_w("float8e8m0[1] w = {-1}"), ParseError);
  EXPECT_THROW(parse_w("float8e8m0[1] w = {0}"), ParseError);
  // Powers of two read exactly; other values go to the nearest one.
  const ir::Model m = parse_w("float8e8m0[3] w = {0.25, 3.5, nan}");
  const ir::Tensor* w = m.graph().initializers()[0]->const_value();
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(raw_bytes(*w), std::string("\x7d\x81\xff", 3));
}

}  // namespace
}  // namespace onnxscript::serde
