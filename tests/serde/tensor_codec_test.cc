// TensorProto decoding and encoding: each element type in the typed field the
// ONNX spec assigns it, raw_data, strings, and the .pb file API.

#include <gtest/gtest.h>

#include <cstring>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

using ir::DataType;
using testing::ProtoEquals;

wire::TensorProto make(DataType dtype, std::vector<int64_t> dims) {
  wire::TensorProto p;
  p.set_name("t");
  p.set_data_type(static_cast<int32_t>(dtype));
  for (int64_t d : dims) p.add_dims(d);
  return p;
}

ir::Tensor decode(const wire::TensorProto& p) {
  return tensor_from_proto_bytes(p.SerializeAsString());
}

// Decodes, checks the encoding back is identical, returns the tensor.
ir::Tensor decode_and_check(const wire::TensorProto& p) {
  ir::Tensor t = decode(p);
  wire::TensorProto back;
  EXPECT_TRUE(back.ParseFromString(tensor_to_proto_bytes(t)));
  EXPECT_TRUE(ProtoEquals(p, back));
  return t;
}

template <typename T>
std::vector<T> elements(const ir::Tensor& t) {
  std::vector<T> out(t.nbytes() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.raw_data(), t.nbytes());
  return out;
}

TEST(TensorCodec, Int8AndInt16AreSignExtendedInInt32Data) {
  auto p = make(DataType::kInt8, {3});
  p.add_int32_data(-3);
  p.add_int32_data(127);
  p.add_int32_data(-128);
  EXPECT_EQ(elements<int8_t>(decode_and_check(p)), (std::vector<int8_t>{-3, 127, -128}));

  auto q = make(DataType::kInt16, {2});
  q.add_int32_data(-30000);
  q.add_int32_data(42);
  EXPECT_EQ(elements<int16_t>(decode_and_check(q)), (std::vector<int16_t>{-30000, 42}));
}

TEST(TensorCodec, UnsignedBoolAndBitPatternsAreZeroExtended) {
  auto u8 = make(DataType::kUint8, {2});
  u8.add_int32_data(255);
  u8.add_int32_data(1);
  EXPECT_EQ(elements<uint8_t>(decode_and_check(u8)), (std::vector<uint8_t>{255, 1}));

  auto b = make(DataType::kBool, {2});
  b.add_int32_data(1);
  b.add_int32_data(0);
  EXPECT_EQ(elements<uint8_t>(decode_and_check(b)), (std::vector<uint8_t>{1, 0}));

  auto h = make(DataType::kFloat16, {2});
  h.add_int32_data(0x3c00);  // 1.0
  h.add_int32_data(0xc000);  // -2.0: stays 0xc000, not sign-extended
  EXPECT_EQ(elements<uint16_t>(decode_and_check(h)), (std::vector<uint16_t>{0x3c00, 0xc000}));

  auto bf = make(DataType::kBfloat16, {1});
  bf.add_int32_data(0xbf80);  // -1.0
  EXPECT_EQ(elements<uint16_t>(decode_and_check(bf)), (std::vector<uint16_t>{0xbf80}));

  auto f8 = make(DataType::kFloat8E5M2, {2});
  f8.add_int32_data(0xc0);
  f8.add_int32_data(0x3c);
  EXPECT_EQ(elements<uint8_t>(decode_and_check(f8)), (std::vector<uint8_t>{0xc0, 0x3c}));
}

TEST(TensorCodec, FourBitTypesPackTwoElementsPerInt32Entry) {
  auto p = make(DataType::kInt4, {3});  // elements 1, -1, 7 -> bytes 0xf1, 0x07
  p.add_int32_data(0xf1);
  p.add_int32_data(0x07);
  const ir::Tensor t = decode_and_check(p);
  EXPECT_EQ(t.nbytes(), 2u);
  EXPECT_EQ(elements<uint8_t>(t), (std::vector<uint8_t>{0xf1, 0x07}));

  auto wrong = make(DataType::kUint4, {3});
  wrong.add_int32_data(1);  // 3 elements need 2 entries
  EXPECT_THROW(decode(wrong), ValidationError);
}

TEST(TensorCodec, WideTypesUseTheirOwnFields) {
  auto u32 = make(DataType::kUint32, {2});
  u32.add_uint64_data(4000000000u);
  u32.add_uint64_data(7);
  EXPECT_EQ(elements<uint32_t>(decode_and_check(u32)), (std::vector<uint32_t>{4000000000u, 7}));

  auto u64 = make(DataType::kUint64, {1});
  u64.add_uint64_data(~uint64_t{0});
  EXPECT_EQ(elements<uint64_t>(decode_and_check(u64)), (std::vector<uint64_t>{~uint64_t{0}}));

  auto i64 = make(DataType::kInt64, {2});
  i64.add_int64_data(-5);
  i64.add_int64_data(int64_t{1} << 40);
  EXPECT_EQ(elements<int64_t>(decode_and_check(i64)), (std::vector<int64_t>{-5, int64_t{1} << 40}));

  auto d = make(DataType::kDouble, {1});
  d.add_double_data(2.5);
  EXPECT_EQ(elements<double>(decode_and_check(d)), (std::vector<double>{2.5}));
}

TEST(TensorCodec, ComplexValuesArePairsInFloatOrDoubleData) {
  auto c64 = make(DataType::kComplex64, {2});
  for (float v : {1.f, 2.f, 3.f, 4.f}) c64.add_float_data(v);
  EXPECT_EQ(elements<float>(decode_and_check(c64)), (std::vector<float>{1, 2, 3, 4}));

  auto c128 = make(DataType::kComplex128, {1});
  c128.add_double_data(-1);
  c128.add_double_data(0.5);
  EXPECT_EQ(elements<double>(decode_and_check(c128)), (std::vector<double>{-1, 0.5}));

  auto odd = make(DataType::kComplex64, {2});
  for (float v : {1.f, 2.f, 3.f}) odd.add_float_data(v);
  EXPECT_THROW(decode(odd), ValidationError);
}

TEST(TensorCodec, StringsAndScalars) {
  auto s = make(DataType::kString, {2});
  s.add_string_data("hello");
  s.add_string_data(std::string("\0bytes", 6));
  const ir::Tensor t = decode_and_check(s);
  EXPECT_EQ(t.data<std::string>()[0], "hello");
  EXPECT_EQ(t.data<std::string>()[1], std::string("\0bytes", 6));

  auto scalar = make(DataType::kFloat, {});
  scalar.add_float_data(3.25f);
  const ir::Tensor sc = decode_and_check(scalar);
  EXPECT_EQ(sc.rank(), 0);
  EXPECT_EQ(sc.data<float>()[0], 3.25f);
}

TEST(TensorCodec, RawDataKeepsItsEncodingEvenWhenEmpty) {
  auto raw = make(DataType::kFloat, {2});
  const float values[] = {1.5f, -0.0f};
  raw.set_raw_data(values, sizeof(values));
  const ir::Tensor t = decode_and_check(raw);
  EXPECT_EQ(t.proto_info()->encoding, ir::TensorEncoding::kRawData);
  EXPECT_EQ(elements<uint32_t>(t)[1], 0x80000000u);  // -0.0 kept bit for bit

  auto empty_raw = make(DataType::kInt64, {0, 3});
  empty_raw.set_raw_data("");
  EXPECT_EQ(decode_and_check(empty_raw).numel(), 0);
  auto empty_typed = make(DataType::kInt64, {0});
  EXPECT_EQ(decode_and_check(empty_typed).proto_info()->encoding, ir::TensorEncoding::kTypedFields);
}

TEST(TensorCodec, ProtoFactsSurvive) {
  auto p = make(DataType::kInt32, {1});
  p.add_int32_data(9);
  p.set_doc_string("doc");
  p.mutable_segment()->set_begin(2);
  p.mutable_segment()->set_end(5);
  auto* meta = p.add_metadata_props();
  meta->set_key("k");
  meta->set_value("v");
  p.GetReflection()->MutableUnknownFields(&p)->AddVarint(99, 1);
  p.set_data_location(wire::TensorProto::DEFAULT);  // present with its default value
  const ir::Tensor t = decode_and_check(p);
  EXPECT_EQ(t.proto_info()->doc_string, "doc");
  EXPECT_TRUE(t.proto_info()->has_segment);
}

TEST(TensorCodec, NewTensorsAreWrittenAsRawData) {
  ir::Tensor t(DataType::kFloat, {2, 2});
  for (int i = 0; i < 4; ++i) t.data<float>()[i] = static_cast<float>(i) / 3;
  wire::TensorProto p;
  ASSERT_TRUE(p.ParseFromString(tensor_to_proto_bytes(t)));
  EXPECT_TRUE(p.has_raw_data());
  EXPECT_EQ(p.raw_data().size(), 16u);
  EXPECT_FALSE(p.has_name());
  EXPECT_TRUE(decode(p).same_contents(t));

  ir::Tensor s(DataType::kString, {1});
  s.data<std::string>()[0] = "x";
  ASSERT_TRUE(p.ParseFromString(tensor_to_proto_bytes(s)));
  EXPECT_EQ(p.string_data_size(), 1);

  EXPECT_THROW(tensor_to_proto_bytes(ir::Tensor()), ValidationError);
}

TEST(TensorCodec, PbFilesRoundTrip) {
  testing::TempDir dir;
  ir::Tensor t(DataType::kUint16, {3});
  t.data<uint16_t>()[2] = 65535;
  t.mutable_proto_info().name = "input_0";
  save_tensor_pb(t, dir / "input_0.pb");
  const ir::Tensor back = load_tensor_pb(dir / "input_0.pb");
  EXPECT_TRUE(back.same_contents(t));
  EXPECT_EQ(back.proto_info()->name, "input_0");
  EXPECT_EQ(testing::list_dir(dir.path()), std::vector<std::string>{"input_0.pb"});

  // A real test input of the ONNX corpus: test_abs takes a float [3,4,5].
  const ir::Tensor abs_in =
      load_tensor_pb(std::string(ONNX_TESTDATA_DIR) + "/node/test_abs/test_data_set_0/input_0.pb");
  EXPECT_EQ(abs_in.dtype(), DataType::kFloat);
  EXPECT_EQ(abs_in.shape(), (std::vector<int64_t>{3, 4, 5}));
  const ir::Tensor abs_out =
      load_tensor_pb(std::string(ONNX_TESTDATA_DIR) + "/node/test_abs/test_data_set_0/output_0.pb");
  for (int64_t i = 0; i < abs_in.numel(); ++i)
    EXPECT_EQ(abs_out.data<float>()[i], std::abs(abs_in.data<float>()[i]));
}

}  // namespace
}  // namespace onnxscript::serde
