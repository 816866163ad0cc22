// The element types numpy lacks in .npy files (a one-field structured dtype
// named after the ONNX type, one element per item), and numpy-style printing
// of float8e8m0, int2, uint2 and float4e2m1.

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "onnxscript/eval/tensor_io.h"

namespace onnxscript::eval {
namespace {

Tensor packed(DataType dtype, std::vector<int64_t> shape, std::string bytes) {
  Tensor t(dtype, std::move(shape));
  EXPECT_EQ(t.nbytes(), bytes.size());
  std::memcpy(t.raw_data(), bytes.data(), bytes.size());
  return t;
}

// The header dict and the body of a .npy.
std::pair<std::string, std::string> split_npy(const std::string& bytes) {
  const size_t header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  return {bytes.substr(10, header_len), bytes.substr(10 + header_len)};
}

TEST(NpyNewTypes, RoundTripAsOneFieldStructuredDtypes) {
  const struct {
    Tensor t;
    const char* descr;
    std::string items;  // one element per item, as numpy reads it
  } cases[] = {
      {packed(DataType::kFloat8E8M0, {2, 2}, std::string("\x00\x7f\xfe\xff", 4)),
       "[('float8e8m0', '|u1')]", std::string("\x00\x7f\xfe\xff", 4)},
      {packed(DataType::kInt2, {5}, std::string("\x39\x01", 2)), "[('int2', '|i1')]",
       std::string("\x01\xfe\xff\x00\x01", 5)},
      {packed(DataType::kUint2, {5}, std::string("\xe4\x02", 2)), "[('uint2', '|u1')]",
       std::string("\x00\x01\x02\x03\x02", 5)},
      {packed(DataType::kFloat4E2M1, {3}, std::string("\x71\x0a", 2)), "[('float4e2m1', '|u1')]",
       std::string("\x01\x07\x0a", 3)},
      {packed(DataType::kInt4, {3}, std::string("\x8f\x07", 2)), "[('int4', '|i1')]",
       std::string("\xff\xf8\x07", 3)},
      {packed(DataType::kFloat8E4M3FN, {1}, "\x38"), "[('float8e4m3fn', '|u1')]", "\x38"},
      {packed(DataType::kBfloat16, {1}, std::string("\x80\x3f", 2)), "[('bfloat16', '<u2')]",
       std::string("\x80\x3f", 2)},
      {Tensor(DataType::kInt2, {0, 3}), "[('int2', '|i1')]", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(ir::data_type_name(c.t.dtype()));
    const std::string bytes = npy_to_bytes(c.t);
    const auto [header, body] = split_npy(bytes);
    EXPECT_NE(header.find(std::string("'descr': ") + c.descr), std::string::npos) << header;
    EXPECT_EQ(header.size() + 10, (header.size() + 10 + 63) / 64 * 64) << "padded to 64 bytes";
    EXPECT_EQ(body, c.items);
    const Tensor back = npy_from_bytes(bytes);
    EXPECT_EQ(back.dtype(), c.t.dtype());
    EXPECT_EQ(back.shape(), c.t.shape());
    EXPECT_TRUE(back.same_contents(c.t)) << to_string(c.t) << " vs " << to_string(back);
  }
}

TEST(NpyNewTypes, ReadsWhatNumpyWritesAndRefusesTheRest) {
  // numpy's np.save of np.zeros(3, dtype=[('uint2', 'u1')]) + values, with
  // numpy's spacing ("[('uint2', '|u1')]" and a trailing ", " in the dict).
  auto npy = [](const std::string& descr, const std::string& shape, const std::string& body) {
    std::string dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
    dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    return out + dict + body;
  };
  const Tensor u =
      npy_from_bytes(npy("[('uint2', '|u1')]", "(3,)", std::string("\x03\x00\x01", 3)));
  EXPECT_EQ(u.dtype(), DataType::kUint2);
  EXPECT_EQ(to_string(u), "[3 0 1]");
  // A value the type cannot hold, an unknown or numpy-native field name, and
  // a field of the wrong width are errors.
  EXPECT_THROW(npy_from_bytes(npy("[('uint2', '|u1')]", "(1,)", "\x04")), ParseError);
  EXPECT_THROW(npy_from_bytes(npy("[('int2', '|i1')]", "(1,)", "\x02")), ParseError);
  EXPECT_THROW(npy_from_bytes(npy("[('float9', '|u1')]", "(1,)", "\x00")), ParseError);
  EXPECT_THROW(npy_from_bytes(npy("[('float', '<f4')]", "(1,)", std::string(4, '\0'))), ParseError);
  EXPECT_THROW(npy_from_bytes(npy("[('bfloat16', '|u1')]", "(1,)", "\x00")), ParseError);
}

TEST(TensorPrintNewTypes, PrintsValues) {
  EXPECT_EQ(to_string(packed(DataType::kFloat8E8M0, {4}, std::string("\x7e\x7f\x81\xff", 4))),
            "[0.5 1.  4.  nan]");
  EXPECT_EQ(to_string(packed(DataType::kInt2, {2, 3}, std::string("\x39\x01", 2))),
            "[[ 1 -2 -1]\n [ 0  1  0]]");
  EXPECT_EQ(to_string(packed(DataType::kUint2, {5}, std::string("\xe4\x02", 2))), "[0 1 2 3 2]");
  EXPECT_EQ(to_string(packed(DataType::kFloat4E2M1, {3}, std::string("\x71\x0a", 2))),
            "[ 0.5  6.  -1. ]");
  EXPECT_EQ(element_as_double(packed(DataType::kInt2, {3}, "\x39"), 1), -2.0);
  EXPECT_EQ(element_as_double(packed(DataType::kFloat8E8M0, {1}, std::string(1, '\0')), 0),
            0x1p-127);
}

}  // namespace
}  // namespace onnxscript::eval
