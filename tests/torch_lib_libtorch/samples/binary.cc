// Samples of the binary family (src/lib/torch_lib/ops/binary.cc): pow,
// remainder, fmod, maximum / minimum, atan2, logaddexp, xlogy, heaviside,
// the comparisons and their aliases, the logical, bitwise and shift
// operators, where, clamp, masked_fill, lerp, addcmul / addcdiv, the small
// matrix products and the arithmetic aliases; and the prims:: binary
// operators of prims.cc, whose expected values come from their aten::
// counterparts. Mixed element types (integer with float, float with double,
// a tensor with a Python number, a 0-D tensor with a larger one) check
// PyTorch's type promotion. LibTorch 1.13 has no float16 CPU kernel for
// atan2, logaddexp, clamp, lerp, addcmul / addcdiv or the matrix products,
// so those have no float16 sample.

#include <cmath>
#include <limits>

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// Float values chosen by hand (ties, zeros, NaN), not drawn.
Value floats(std::initializer_list<float> values, Ints shape = {-1}) {
  return Value(Tensor::from<float>(values, ir::Dims(shape.begin(), shape.end())));
}

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

void add_comparison_samples(SampleTable& t) {
  // The six comparisons and PyTorch's four aliases. Small integer ranges
  // make equal elements likely.
  const char* tensor_names[] = {"aten::eq.Tensor",      "aten::ne.Tensor",
                                "aten::lt.Tensor",      "aten::le.Tensor",
                                "aten::gt.Tensor",      "aten::ge.Tensor",
                                "aten::less.Tensor",    "aten::less_equal.Tensor",
                                "aten::greater.Tensor", "aten::greater_equal.Tensor"};
  for (const char* name : tensor_names) {
    t.add(name, "float with ties",
          {floats({1, 2, 3, -1, 0, 2}, {2, 3}), floats({1, 3, 2, -1, 1, 2}, {2, 3})});
    t.add(name, "rank 3 with rank 1 broadcast", {f32({2, 3, 4}, 1000), f32({4}, 1001)});
    t.add(name, "int64 with ties", {i64({2, 4}, 1002, -2, 2), i64({2, 4}, 1003, -2, 2)});
    t.add(name, "int64 with float promotes to float",
          {i64({5}, 1004, -2, 2), f32({5}, 1005, -2, 2)});
    t.add(name, "float with double promotes to double", {f32({4}, 1006), f64({4}, 1007)});
    t.add(name, "bool", {booleans({6}, 1008), booleans({6}, 1009)});
    t.add(name, "0-D with rank 2", {f32({}, 1010), f32({2, 3}, 1011)});
    t.add(name, "0-D double with float rank 1 (dimensioned type wins)",
          {f32({3}, 1012), f64({}, 1013)});
    t.add(name, "empty", {f32({0, 3}, 1014), f32({3}, 1015)});
    t.add(name, "size-1 dims broadcast", {f32({3, 1}, 1016), f32({1, 4}, 1017)});
    t.add(name, "float16", {f16({2, 3}, 1018), f16({2, 3}, 1019)});
  }
  const char* scalar_names[] = {"aten::eq.Scalar",      "aten::ne.Scalar",
                                "aten::lt.Scalar",      "aten::le.Scalar",
                                "aten::gt.Scalar",      "aten::ge.Scalar",
                                "aten::less.Scalar",    "aten::less_equal.Scalar",
                                "aten::greater.Scalar", "aten::greater_equal.Scalar"};
  for (const char* name : scalar_names) {
    t.add(name, "float tensor, int scalar", {floats({1, 2, 3, 2, -2, 0}, {3, 2}), 2});
    t.add(name, "float tensor, float scalar", {f32({2, 3}, 1020), 0.5});
    t.add(name, "int64 tensor, int scalar", {i64({6}, 1021, -3, 3), 1});
    t.add(name, "int64 tensor, float scalar", {i64({6}, 1022, -3, 3), 1.5});
    t.add(name, "bool tensor, int scalar", {booleans({5}, 1023), 1});
    t.add(name, "0-D", {f32({}, 1024), 0});
    t.add(name, "empty", {f32({2, 0}, 1025), 1.0});
    t.add(name, "double rank 4", {f64({2, 1, 2, 3}, 1026), -0.5});
    t.add(name, "float16", {f16({4}, 1027), 0.5});
  }
  // prims:: take operands of one element type and shape.
  const std::pair<const char*, const char*> prims[] = {
      {"prims::eq", "aten::eq.Tensor"}, {"prims::ne", "aten::ne.Tensor"},
      {"prims::lt", "aten::lt.Tensor"}, {"prims::le", "aten::le.Tensor"},
      {"prims::gt", "aten::gt.Tensor"}, {"prims::ge", "aten::ge.Tensor"}};
  for (const auto& [name, aten] : prims) {
    t.add(name, "float with ties", {floats({1, 2, 3, 4}, {2, 2}), floats({1, 3, 2, 4}, {2, 2})});
    t.reference(aten);
    t.add(name, "int64", {i64({6}, 1028, -2, 2), i64({6}, 1029, -2, 2)});
    t.reference(aten);
    t.add(name, "double 0-D", {f64({}, 1030), f64({}, 1031)});
    t.reference(aten);
    t.add(name, "float16", {f16({3}, 1032), f16({3}, 1033)});
    t.reference(aten);
  }
}

void add_logical_and_bitwise_samples(SampleTable& t) {
  for (const char* name : {"aten::logical_and", "aten::logical_or", "aten::logical_xor"}) {
    t.add(name, "bool", {booleans({2, 3}, 1040), booleans({2, 3}, 1041)});
    t.add(name, "float with zeros", {floats({0, 1.5, 0, -2}), floats({0, 0, 3, -1})});
    t.add(name, "int64 broadcast", {i64({2, 3}, 1042, -1, 1), i64({3}, 1043, -1, 1)});
    t.add(name, "int64 with bool", {i64({4}, 1044, -1, 1), booleans({4}, 1045)});
    t.add(name, "0-D and empty", {booleans({}, 1046), booleans({0}, 1047)});
    t.add(name, "float16 with double", {f16({3}, 1048, -1, 1), f64({3}, 1049)});
    t.add(name, "float16", {f16({2, 2}, 1092, -1, 1), f16({2, 2}, 1093, -1, 1)});
  }
  for (const char* base : {"aten::bitwise_and", "aten::bitwise_or", "aten::bitwise_xor"}) {
    const std::string b = base;
    t.add(b + ".Tensor", "int64", {i64({2, 3}, 1050, -20, 20), i64({2, 3}, 1051, -20, 20)});
    t.add(b + ".Tensor", "int64 broadcast rank 3",
          {i64({2, 1, 3}, 1052, 0, 15), i64({4, 1}, 1053, 0, 15)});
    t.add(b + ".Tensor", "bool", {booleans({6}, 1054), booleans({6}, 1055)});
    t.add(b + ".Tensor", "int32 with int64 promotes",
          {i32({4}, 1056, -8, 8), i64({4}, 1057, -8, 8)});
    t.add(b + ".Tensor", "bool with int64", {booleans({4}, 1058), i64({4}, 1059, 0, 3)});
    t.add(b + ".Tensor", "0-D int64 with int32 rank 1 keeps int32",
          {i32({3}, 1060), i64({}, 1061)});
    t.add(b + ".Tensor", "empty", {i64({0}, 1062), i64({1}, 1063)});
    t.add(b + ".Scalar", "int64 tensor", {i64({5}, 1064, -20, 20), 6});
    t.add(b + ".Scalar", "int64 tensor, negative scalar", {i64({2, 2}, 1065, -20, 20), -3});
    t.add(b + ".Scalar", "int32 tensor keeps int32", {i32({4}, 1066, 0, 31), 5});
    t.add(b + ".Scalar", "bool tensor, bool scalar", {booleans({4}, 1067), true});
    t.add(b + ".Scalar_Tensor", "int scalar, int64 tensor", {12, i64({5}, 1068, -20, 20)});
    t.add(b + ".Scalar_Tensor", "int scalar, int32 tensor", {-7, i32({3}, 1069, 0, 15)});
    t.add(b + ".Scalar_Tensor", "int scalar, 0-D int64 tensor", {3, i64({}, 1090, -20, 20)});
  }
  // Shifts: int64 and int32, negative values (an arithmetic right shift).
  for (const char* base : {"aten::bitwise_left_shift", "aten::bitwise_right_shift"}) {
    const std::string b = base;
    t.add(b + ".Tensor", "int64", {i64({2, 3}, 1070, -50, 50), i64({2, 3}, 1071, 0, 5)});
    t.add(b + ".Tensor", "int32 broadcast", {i32({2, 3}, 1072, -50, 50), i32({3}, 1073, 0, 4)});
    t.add(b + ".Tensor", "0-D shift", {i64({4}, 1074, -50, 50), i64({}, 1075, 1, 3)});
    t.add(b + ".Tensor_Scalar", "int64 by 2", {i64({5}, 1076, -50, 50), 2});
    t.add(b + ".Tensor_Scalar", "int32 by 0", {i32({3}, 1077, -50, 50), 0});
    t.add(b + ".Tensor_Scalar", "empty", {i64({0, 2}, 1078), 1});
    t.add(b + ".Scalar_Tensor", "int scalar, int64 shifts", {37, i64({4}, 1079, 0, 5)});
    t.add(b + ".Scalar_Tensor", "negative scalar", {-37, i64({2, 2}, 1080, 0, 4)});
    t.add(b + ".Scalar_Tensor", "int32 shifts", {5, i32({3}, 1091, 0, 4)});
  }
  for (const char* base : {"aten::__lshift__", "aten::__rshift__"}) {
    const std::string b = base;
    t.add(b + ".Tensor", "int64", {i64({2, 3}, 1081, -50, 50), i64({2, 3}, 1082, 0, 5)});
    t.add(b + ".Tensor", "int32 broadcast", {i32({2, 2}, 1083, -50, 50), i32({2}, 1084, 0, 4)});
    t.add(b + ".Scalar", "int64 by 3", {i64({5}, 1085, -50, 50), 3});
    t.add(b + ".Scalar", "int32 0-D", {i32({}, 1086, -50, 50), 1});
    t.add(b + ".Tensor", "0-D with rank 3, empty",
          {i64({}, 1087, -50, 50), i64({2, 0, 3}, 1088, 0, 5)});
    t.add(b + ".Scalar", "int64 rank 4 by 0", {i64({2, 1, 2, 2}, 1089, -50, 50), 0});
  }
}

void add_elementwise_samples(SampleTable& t) {
  // pow.
  t.add("aten::pow.Tensor_Tensor", "float positive base",
        {f32({2, 3}, 1100, 0.1, 3), f32({2, 3}, 1101)});
  t.add("aten::pow.Tensor_Tensor", "broadcast rank 3",
        {f32({2, 1, 3}, 1102, 0.1, 2), f32({4, 1}, 1103)});
  t.add("aten::pow.Tensor_Tensor", "int64", {i64({5}, 1104, -4, 4), i64({5}, 1105, 0, 4)});
  t.add("aten::pow.Tensor_Tensor", "float base, int64 exponent",
        {f32({4}, 1106), i64({4}, 1107, 0, 3)});
  t.add("aten::pow.Tensor_Tensor", "int64 base, float exponent promotes",
        {i64({4}, 1108, 1, 5), f32({4}, 1109, -1, 2)});
  t.add("aten::pow.Tensor_Tensor", "double with float", {f64({3}, 1110, 0.1, 3), f32({3}, 1111)});
  t.add("aten::pow.Tensor_Tensor", "float16", {f16({4}, 1112, 0.1, 2), f16({4}, 1113, -2, 2)});
  t.add("aten::pow.Tensor_Tensor", "empty", {f32({0, 2}, 1114, 0.1, 2), f32({2}, 1115)});
  t.add("aten::pow.Tensor_Scalar", "square", {f32({2, 3}, 1116), 2});
  t.add("aten::pow.Tensor_Scalar", "square root", {f32({4}, 1117, 0, 4), 0.5});
  t.add("aten::pow.Tensor_Scalar", "negative base, integer exponent",
        {f32({5}, 1118, -3, -0.5), 3});
  t.add("aten::pow.Tensor_Scalar", "int64 cube", {i64({5}, 1119), 3});
  t.add("aten::pow.Tensor_Scalar", "int64 with float exponent gives float",
        {i64({4}, 1120, 0, 9), 0.5});
  t.add("aten::pow.Tensor_Scalar", "double 0-D", {f64({}, 1121, 0.1, 3), -1.5});
  t.add("aten::pow.Tensor_Scalar", "double, exponent 0.1 keeps double precision",
        {f64({4}, 1145, 0.1, 3), 0.1});
  t.add("aten::pow.Tensor_Scalar", "float16", {f16({3}, 1122), 2});
  t.add("aten::pow.Scalar", "2 to float powers", {2, f32({2, 3}, 1123)});
  t.add("aten::pow.Scalar", "float base to float powers", {0.5, f32({4}, 1124)});
  t.add("aten::pow.Scalar", "int base to int64 powers", {3, i64({4}, 1125, 0, 5)});
  t.add("aten::pow.Scalar", "float base to int64 powers gives float", {2.5, i64({4}, 1126, 0, 4)});
  t.add("aten::pow.Scalar", "double powers", {2, f64({3}, 1127)});
  t.add("aten::pow_.Scalar", "float", {f32({2, 3}, 1128, 0.1, 3), 2});
  t.add("aten::pow_.Scalar", "float, fractional exponent", {f32({3}, 1129, 0.1, 3), 1.5});
  t.add("aten::pow_.Scalar", "int64", {i64({4}, 1130), 2});
  t.add("aten::pow_.Tensor", "float broadcast", {f32({2, 3}, 1131, 0.1, 3), f32({3}, 1132)});
  t.add("aten::pow_.Tensor", "int64", {i64({4}, 1133, -3, 3), i64({4}, 1134, 0, 3)});
  t.add("aten::pow_.Tensor", "float base, int64 exponent", {f32({4}, 1135), i64({4}, 1136, 0, 3)});
  t.add("prims::pow", "float", {f32({2, 3}, 1137, 0.1, 3), f32({2, 3}, 1138)});
  t.reference("aten::pow.Tensor_Tensor");
  t.add("prims::pow", "int64", {i64({4}, 1139), i64({4}, 1140, 0, 3)});
  t.reference("aten::pow.Tensor_Tensor");
  t.add("prims::pow", "double", {f64({3}, 1141, 0.1, 3), f64({3}, 1142)});
  t.reference("aten::pow.Tensor_Tensor");
  t.add("prims::pow", "float16", {f16({4}, 1143, 0.1, 2), f16({4}, 1144)});
  t.reference("aten::pow.Tensor_Tensor");

  // remainder (the divisor's sign) and fmod (the dividend's sign).
  t.add("aten::remainder.Tensor", "float", {f32({2, 4}, 1150, -9, 9), nonzero_f32({2, 4}, 1151)});
  t.add("aten::remainder.Tensor", "int64 negative",
        {i64({8}, 1152, -20, 20), nonzero_i64({8}, 1153)});
  t.add("aten::remainder.Tensor", "int64 with float promotes",
        {i64({4}, 1154, -20, 20), nonzero_f32({4}, 1155)});
  t.add("aten::remainder.Tensor", "double broadcast",
        {f64({2, 3}, 1156, -9, 9), f64({3}, 1157, 0.5, 3)});
  t.add("aten::remainder.Tensor", "float16", {f16({4}, 1158, -9, 9), f16({4}, 1159, 0.5, 3)});
  t.add("aten::remainder.Tensor", "empty", {f32({0}, 1160), nonzero_f32({1}, 1161)});
  t.add("aten::remainder.Scalar", "float by int", {f32({2, 3}, 1162, -9, 9), 4});
  t.add("aten::remainder.Scalar", "float by negative float", {f32({5}, 1163, -9, 9), -1.5});
  t.add("aten::remainder.Scalar", "int64 by negative int", {i64({6}, 1164, -20, 20), -3});
  t.add("aten::remainder.Scalar", "int64 by float gives float", {i64({4}, 1165, -20, 20), 2.5});
  t.add("aten::remainder.Scalar_Tensor", "int by int64", {7, nonzero_i64({6}, 1166)});
  t.add("aten::remainder.Scalar_Tensor", "float by float", {5.5, nonzero_f32({2, 2}, 1167)});
  t.add("aten::remainder.Scalar_Tensor", "int by float", {-7, nonzero_f32({4}, 1168)});
  t.add("prims::remainder", "float", {f32({5}, 1169, -9, 9), nonzero_f32({5}, 1170)});
  t.reference("aten::remainder.Tensor");
  t.add("prims::remainder", "int64", {i64({6}, 1171, -20, 20), nonzero_i64({6}, 1172)});
  t.reference("aten::remainder.Tensor");
  t.add("prims::remainder", "double", {f64({2, 2}, 1185, -9, 9), f64({2, 2}, 1186, 0.5, 3)});
  t.reference("aten::remainder.Tensor");
  t.add("prims::remainder", "float16", {f16({4}, 1187, -9, 9), f16({4}, 1188, 0.5, 3)});
  t.reference("aten::remainder.Tensor");
  t.add("aten::fmod.Tensor", "float", {f32({2, 4}, 1173, -9, 9), nonzero_f32({2, 4}, 1174)});
  t.add("aten::fmod.Tensor", "int64 negative", {i64({8}, 1175, -20, 20), nonzero_i64({8}, 1176)});
  t.add("aten::fmod.Tensor", "int64 with double promotes",
        {i64({3}, 1177, -20, 20), f64({3}, 1178, 0.5, 3)});
  t.add("aten::fmod.Tensor", "float16 broadcast",
        {f16({2, 3}, 1179, -9, 9), f16({3}, 1180, 0.5, 3)});
  t.add("aten::fmod.Scalar", "float by int", {f32({2, 3}, 1181, -9, 9), 4});
  t.add("aten::fmod.Scalar", "int64 by negative int", {i64({6}, 1182, -20, 20), -3});
  t.add("aten::fmod.Scalar", "int64 by float gives float", {i64({4}, 1183, -20, 20), 2.5});
  t.add("aten::fmod.Scalar", "0-D double", {f64({}, 1184, -9, 9), 0.75});

  // maximum / minimum and the max.other / min.other overloads.
  for (const char* name :
       {"aten::maximum", "aten::minimum", "aten::max.other", "aten::min.other"}) {
    t.add(name, "float broadcast", {f32({2, 3}, 1190), f32({3}, 1191)});
    t.add(name, "int64", {i64({6}, 1192), i64({6}, 1193)});
    t.add(name, "int64 with float promotes", {i64({4}, 1194), f32({4}, 1195)});
    t.add(name, "float with double promotes", {f32({3}, 1196), f64({3}, 1197)});
    t.add(name, "NaN propagates", {floats({kNan, 1, 2, kNan}), floats({1, kNan, 3, kNan})});
    t.add(name, "float16", {f16({4}, 1198), f16({4}, 1199)});
    t.add(name, "0-D with rank 2, empty", {f32({}, 1200), f32({0, 2}, 1201)});
    t.add(name, "bool", {booleans({4}, 1202), booleans({4}, 1203)});
  }

  // atan2 over all four quadrants and the axes.
  t.add("aten::atan2", "float", {f32({2, 4}, 1210), f32({2, 4}, 1211)});
  t.add("aten::atan2", "zeros on the axes",
        {floats({1, -1, 0, 2, -2, 0}), floats({0, 0, 1, -1, -1, -3})});
  t.add("aten::atan2", "double broadcast", {f64({3, 1}, 1212), f64({4}, 1213)});
  t.onnxruntime_lacks("no double Atan");
  t.add("aten::atan2", "int64 gives float", {i64({4}, 1214), i64({4}, 1215)});
  t.add("aten::atan2", "float with double promotes", {f32({3}, 1216), f64({3}, 1217)});
  t.onnxruntime_lacks("no double Atan");
  for (const char* name : {"aten::logaddexp", "aten::logaddexp2"}) {
    t.add(name, "float", {f32({2, 3}, 1220), f32({2, 3}, 1221)});
    t.add(name, "large magnitudes", {floats({100, -100, 80, 0}), floats({99, -101, -80, 0})});
    t.add(name, "double broadcast", {f64({2, 3}, 1222), f64({3}, 1223)});
    t.add(name, "float with double promotes", {f32({3}, 1224), f64({3}, 1225)});
    t.add(name, "0-D and empty", {f32({}, 1226), f32({0}, 1227)});
  }
  t.add("aten::xlogy.Tensor", "float with zeros in x",
        {floats({0, 1.5, 2, 0, -1}), floats({0.5, 2, 0, 3, 4})});
  t.add("aten::xlogy.Tensor", "NaN y wins over x = 0", {floats({0, 1}), floats({kNan, kNan})});
  t.add("aten::xlogy.Tensor", "broadcast", {f32({2, 3}, 1230), f32({3}, 1231, 0.1, 4)});
  t.add("aten::xlogy.Tensor", "int64 gives float", {i64({4}, 1232, 0, 4), i64({4}, 1233, 1, 5)});
  t.add("aten::xlogy.Tensor", "double", {f64({3}, 1234), f64({3}, 1235, 0.1, 4)});
  t.add("aten::xlogy.Tensor", "float16", {f16({4}, 1249), f16({4}, 1250, 0.1, 4)});
  t.add("aten::xlogy.Scalar_Other", "float tensor, int scalar", {f32({2, 3}, 1236), 3});
  t.add("aten::xlogy.Scalar_Other", "int64 tensor, float scalar", {i64({4}, 1237, 0, 3), 0.5});
  t.add("aten::xlogy.Scalar_Other", "float16 tensor", {f16({3}, 1247), 2});
  t.add("aten::xlogy.Scalar_Other", "0-D double, zero scalar", {f64({}, 1248), 0});
  t.add("aten::xlogy.Scalar_Self", "int scalar, float tensor", {2, f32({2, 2}, 1238, 0.1, 4)});
  t.add("aten::xlogy.Scalar_Self", "zero scalar", {0, f32({3}, 1239, 0, 4)});
  t.add("aten::xlogy.Scalar_Self", "float scalar, double tensor", {1.5, f64({3}, 1240, 0.1, 4)});
  t.add("aten::heaviside", "float with zeros",
        {floats({-1, 0, 2, 0}), floats({0.5, 0.25, 0.5, 3})});
  t.add("aten::heaviside", "broadcast values",
        {floats({0, -2, 0, 1.5, 0, 0}, {2, 3}), floats({7, 8, 9})});
  t.add("aten::heaviside", "int64", {i64({6}, 1241, -2, 2), i64({6}, 1242)});
  t.add("aten::heaviside", "double", {f64({3}, 1243), f64({3}, 1244)});
  t.add("aten::heaviside", "float16", {f16({4}, 1245), f16({4}, 1246)});
}

void add_selection_samples(SampleTable& t) {
  // where and prims::where.
  t.add("aten::where.self", "float broadcast",
        {booleans({2, 3}, 1300), f32({2, 3}, 1301), f32({3}, 1302)});
  t.add("aten::where.self", "condition broadcast",
        {booleans({3}, 1303), f32({2, 3}, 1304), f32({2, 3}, 1305)});
  t.add("aten::where.self", "int64 with float promotes",
        {booleans({4}, 1306), i64({4}, 1307), f32({4}, 1308)});
  t.add("aten::where.self", "float with double promotes",
        {booleans({4}, 1309), f32({4}, 1310), f64({4}, 1311)});
  t.add("aten::where.self", "bool values",
        {booleans({5}, 1312), booleans({5}, 1313), booleans({5}, 1314)});
  t.add("aten::where.self", "float16", {booleans({4}, 1315), f16({4}, 1316), f16({4}, 1317)});
  t.add("aten::where.self", "0-D branches, empty condition",
        {booleans({0, 2}, 1318), f32({}, 1319), f32({}, 1320)});
  t.add("aten::where.ScalarOther", "float tensor, int other",
        {booleans({2, 3}, 1321), f32({2, 3}, 1322), 0});
  t.add("aten::where.ScalarOther", "int64 tensor, int other",
        {booleans({4}, 1323), i64({4}, 1324), -1});
  t.add("aten::where.ScalarOther", "int64 tensor, float other promotes",
        {booleans({4}, 1325), i64({4}, 1326), 0.5});
  t.add("aten::where.ScalarSelf", "int self, float tensor",
        {booleans({2, 3}, 1327), 1, f32({2, 3}, 1328)});
  t.add("aten::where.ScalarSelf", "float self, double tensor",
        {booleans({3}, 1329), 2.5, f64({3}, 1330)});
  t.add("aten::where.ScalarSelf", "float self, int64 tensor promotes",
        {booleans({3}, 1331), 2.5, i64({3}, 1332)});
  t.add("aten::where.Scalar", "two ints give int64", {booleans({2, 3}, 1333), 1, 0});
  t.add("aten::where.Scalar", "float and int give float", {booleans({4}, 1334), 1.5, -2});
  t.add("aten::where.Scalar", "two floats, 0-D condition", {booleans({}, 1335), 0.25, 0.75});
  t.add("prims::where", "float", {booleans({2, 3}, 1336), f32({2, 3}, 1337), f32({2, 3}, 1338)});
  t.reference("aten::where.self");
  t.add("prims::where", "int64", {booleans({4}, 1339), i64({4}, 1340), i64({4}, 1341)});
  t.reference("aten::where.self");
  t.add("prims::where", "float16", {booleans({3}, 1342), f16({3}, 1343), f16({3}, 1344)});
  t.reference("aten::where.self");

  // clamp and its one-sided and in-place forms.
  for (const char* name : {"aten::clamp", "aten::clamp_"}) {
    t.add(name, "float, both bounds", {f32({2, 3}, 1350), -1, 1.5});
    t.add(name, "min only, max omitted", {f32({5}, 1351), 0});
    t.add(name, "max only (min None)", {f32({5}, 1352), Arg(), 0.5});
    t.add(name, "min above max gives max", {f32({4}, 1353), 2, -1});
    t.add(name, "int64 int bounds", {i64({6}, 1354), -2, 3});
    t.add(name, "double keywords", {f64({2, 2}, 1355)}, {{"min", -0.5}, {"max", 0.5}});
    t.add(name, "rank 4, float min only", {f32({2, 1, 2, 2}, 1356), 0.0});
  }
  t.add("aten::clamp", "int64 with float bound promotes", {i64({5}, 1357), 0.5});
  t.add("aten::clamp", "empty", {f32({0, 3}, 1358), -1, 1});
  for (const char* name : {"aten::clamp.Tensor", "aten::clamp_.Tensor"}) {
    t.add(name, "both bounds broadcast",
          {f32({2, 3}, 1360), f32({3}, 1361, -3, 0), f32({2, 1}, 1362, 0, 3)});
    t.add(name, "min only", {f32({4}, 1363), f32({4}, 1364)});
    t.add(name, "max only", {f32({4}, 1365), Arg(), f32({}, 1366)});
    t.add(name, "int64", {i64({5}, 1367), i64({5}, 1368, -5, 0), i64({5}, 1369, 0, 5)});
    t.add(name, "double, max keyword", {f64({3}, 1370)}, {{"max", Arg(f64({3}, 1371))}});
  }
  t.add("aten::clamp.Tensor", "int64 with float bounds promotes",
        {i64({4}, 1372), f32({4}, 1373, -3, 0), f32({4}, 1374, 0, 3)});
  for (const char* name :
       {"aten::clamp_min", "aten::clamp_min_", "aten::clamp_max", "aten::clamp_max_"}) {
    t.add(name, "float, int bound", {f32({2, 3}, 1380), 0});
    t.add(name, "float, float bound", {f32({5}, 1381), -0.5});
    t.add(name, "int64", {i64({6}, 1382), 2});
    t.add(name, "double 0-D", {f64({}, 1383), 1.25});
  }
  t.add("aten::clamp_min", "int64 with float bound promotes", {i64({4}, 1384), 0.5});
  t.add("aten::clamp_max", "empty", {f32({0}, 1385), 1});
  for (const char* name : {"aten::clamp_min.Tensor", "aten::clamp_max.Tensor"}) {
    t.add(name, "float broadcast", {f32({2, 3}, 1386), f32({3}, 1387)});
    t.add(name, "int64", {i64({5}, 1388), i64({5}, 1389)});
    t.add(name, "0-D bound", {f64({2, 2}, 1390), f64({}, 1391)});
    t.add(name, "int64 with float bound promotes", {i64({4}, 1392), f32({4}, 1393)});
    t.add(name, "float16", {f16({4}, 1394), f16({4}, 1395)});
  }

  // masked_fill.
  for (const char* name : {"aten::masked_fill.Scalar", "aten::masked_fill_.Scalar"}) {
    t.add(name, "float, float value", {f32({2, 3}, 1400), booleans({2, 3}, 1401), -1.5});
    t.add(name, "float, int value", {f32({4}, 1402), booleans({4}, 1403), 7});
    t.add(name, "mask broadcast", {f32({2, 3}, 1404), booleans({3}, 1405), 0.0});
    t.add(name, "int64", {i64({5}, 1406), booleans({5}, 1407), 100});
    t.add(name, "bool, bool value", {booleans({4}, 1408), booleans({4}, 1409), true});
    t.add(name, "float16", {f16({4}, 1410), booleans({4}, 1411), 0.5});
    t.add(name, "empty", {f32({0, 2}, 1412), booleans({2}, 1413), 1.0});
  }
  t.add("aten::masked_fill.Scalar", "int64, float value truncates",
        {i64({5}, 1414), booleans({5}, 1415), 2.7});
  t.add("aten::masked_fill.Scalar", "infinity",
        {f32({4}, 1416), booleans({4}, 1417), static_cast<double>(kInf)});
  for (const char* name : {"aten::masked_fill.Tensor", "aten::masked_fill_.Tensor"}) {
    t.add(name, "float, 0-D value", {f32({2, 3}, 1420), booleans({2, 3}, 1421), f32({}, 1422)});
    t.add(name, "mask broadcast, rank 3",
          {f32({2, 2, 3}, 1423), booleans({2, 1, 3}, 1424), f32({}, 1425)});
    t.add(name, "int64", {i64({5}, 1426), booleans({5}, 1427), i64({}, 1428)});
    t.add(name, "double value into float", {f32({4}, 1429), booleans({4}, 1430), f64({}, 1431)});
  }
  for (const char* name : {"aten::lerp.Scalar", "aten::lerp.Tensor"}) {
    const bool scalar = std::string(name) == "aten::lerp.Scalar";
    auto w = [&](double value, uint64_t seed, Ints shape) -> Arg {
      return scalar ? Arg(value) : Arg(f32(shape, seed, 0, 1));
    };
    t.add(name, "float", {f32({2, 3}, 1440), f32({2, 3}, 1441), w(0.25, 1442, {2, 3})});
    t.add(name, "weight above one half", {f32({4}, 1443), f32({4}, 1444), w(0.75, 1445, {4})});
    t.add(name, "broadcast", {f32({2, 3}, 1446), f32({3}, 1447), w(0.5, 1448, {2, 1})});
    t.add(name, "0-D", {f32({}, 1449), f32({}, 1450), w(1.5, 1451, {})});
  }
  t.add("aten::lerp.Scalar", "double, int weight", {f64({3}, 1452), f64({3}, 1453), 2});
  t.add("aten::lerp.Tensor", "double", {f64({3}, 1454), f64({3}, 1455), f64({3}, 1456)});
}

void add_product_samples(SampleTable& t) {
  for (const char* name : {"aten::addcmul", "aten::addcdiv"}) {
    const bool div = std::string(name) == "aten::addcdiv";
    auto t2 = [&](Ints shape, uint64_t seed) {
      return div ? nonzero_f32(shape, seed) : f32(shape, seed);
    };
    t.add(name, "float", {f32({2, 3}, 1500), f32({2, 3}, 1501), t2({2, 3}, 1502)});
    t.add(name, "value keyword", {f32({4}, 1503), f32({4}, 1504), t2({4}, 1505)}, {{"value", 0.5}});
    t.add(name, "int value keyword, broadcast",
          {f32({2, 3}, 1506), f32({3}, 1507), t2({2, 1}, 1508)}, {{"value", -2}});
    t.add(name, "double", {f64({3}, 1509), f64({3}, 1510), f64({3}, 1511, 0.5, 3)});
    t.add(name, "0-D self, empty", {f32({}, 1512), f32({0, 2}, 1513), t2({2}, 1514)});
  }
  t.add("aten::addcmul", "int64, value 3", {i64({4}, 1515), i64({4}, 1516), i64({4}, 1517)},
        {{"value", 3}});

  t.add("aten::addmm", "defaults", {f32({2, 3}, 1520), f32({2, 4}, 1521), f32({4, 3}, 1522)});
  t.add("aten::addmm", "self broadcast, beta and alpha",
        {f32({3}, 1523), f32({2, 4}, 1524), f32({4, 3}, 1525)}, {{"beta", 0.5}, {"alpha", 2}});
  t.add("aten::addmm", "beta 0 ignores NaN self",
        {floats({kNan, 1, 2, kNan}, {2, 2}), f32({2, 3}, 1526), f32({3, 2}, 1527)}, {{"beta", 0}});
  t.add("aten::addmm", "double", {f64({2, 2}, 1528), f64({2, 3}, 1529), f64({3, 2}, 1530)});
  t.add("aten::addmm", "int64", {i64({2, 2}, 1531), i64({2, 3}, 1532), i64({3, 2}, 1533)},
        {{"alpha", 2}});
  t.add("aten::addmm", "empty inner dimension",
        {f32({2, 3}, 1534), f32({2, 0}, 1535), f32({0, 3}, 1536)});
  t.add("aten::baddbmm", "defaults",
        {f32({2, 3, 4}, 1540), f32({2, 3, 5}, 1541), f32({2, 5, 4}, 1542)});
  t.add("aten::baddbmm", "self broadcast, beta and alpha",
        {f32({4}, 1543), f32({2, 3, 5}, 1544), f32({2, 5, 4}, 1545)},
        {{"beta", 2}, {"alpha", 0.5}});
  t.add("aten::baddbmm", "beta 0",
        {f32({1, 2, 2}, 1546), f32({1, 2, 3}, 1547), f32({1, 3, 2}, 1548)}, {{"beta", 0}});
  t.add("aten::baddbmm", "double",
        {f64({2, 2, 2}, 1549), f64({2, 2, 3}, 1550), f64({2, 3, 2}, 1551)});
  t.add("aten::addbmm", "defaults",
        {f32({3, 4}, 1552), f32({2, 3, 5}, 1553), f32({2, 5, 4}, 1554)});
  t.add("aten::addbmm", "self broadcast, beta and alpha",
        {f32({4}, 1555), f32({3, 3, 2}, 1556), f32({3, 2, 4}, 1557)},
        {{"beta", 0.5}, {"alpha", -1}});
  t.add("aten::addbmm", "beta 0", {f32({2, 2}, 1558), f32({2, 2, 3}, 1559), f32({2, 3, 2}, 1560)},
        {{"beta", 0}});
  t.add("aten::addbmm", "double", {f64({2, 2}, 1561), f64({3, 2, 2}, 1562), f64({3, 2, 2}, 1563)});
  t.add("aten::addmv", "defaults", {f32({3}, 1570), f32({3, 4}, 1571), f32({4}, 1572)});
  t.add("aten::addmv", "0-D self, beta and alpha",
        {f32({}, 1573), f32({2, 3}, 1574), f32({3}, 1575)}, {{"beta", 3}, {"alpha", 0.5}});
  t.add("aten::addmv", "beta 0", {f32({2}, 1576), f32({2, 2}, 1577), f32({2}, 1578)},
        {{"beta", 0}});
  t.add("aten::addmv", "double", {f64({2}, 1579), f64({2, 3}, 1580), f64({3}, 1581)});
  t.add("aten::addmv", "int64", {i64({2}, 1582), i64({2, 3}, 1583), i64({3}, 1584)});
  t.add("aten::addr", "defaults", {f32({3, 4}, 1585), f32({3}, 1586), f32({4}, 1587)});
  t.add("aten::addr", "self broadcast, beta and alpha",
        {f32({4}, 1588), f32({2}, 1589), f32({4}, 1590)}, {{"beta", 0.5}, {"alpha", 2}});
  t.add("aten::addr", "beta 0", {f32({2, 2}, 1591), f32({2}, 1592), f32({2}, 1593)}, {{"beta", 0}});
  t.add("aten::addr", "int64", {i64({2, 3}, 1594), i64({2}, 1595), i64({3}, 1596)}, {{"alpha", 3}});
  t.add("aten::addr", "double, empty", {f64({0, 3}, 1597), f64({0}, 1598), f64({3}, 1599)});
  t.add("aten::mm", "float", {f32({3, 4}, 1600), f32({4, 2}, 1601)});
  t.add("aten::mm", "double", {f64({2, 3}, 1602), f64({3, 3}, 1603)});
  t.add("aten::mm", "int64", {i64({2, 3}, 1604), i64({3, 2}, 1605)});
  t.add("aten::mm", "size-1 and empty", {f32({1, 0}, 1606), f32({0, 3}, 1607)});
  t.add("aten::dot", "float", {f32({5}, 1608), f32({5}, 1609)});
  t.add("aten::dot", "double", {f64({3}, 1610), f64({3}, 1611)});
  t.add("aten::dot", "int64", {i64({4}, 1612), i64({4}, 1613)});
  t.add("aten::dot", "empty", {f32({0}, 1614), f32({0}, 1615)});
  t.add("aten::mv", "float", {f32({3, 4}, 1616), f32({4}, 1617)});
  t.add("aten::mv", "double", {f64({2, 2}, 1618), f64({2}, 1619)});
  t.add("aten::mv", "int64", {i64({3, 2}, 1620), i64({2}, 1621)});
  t.add("aten::mv", "empty rows", {f32({0, 3}, 1622), f32({3}, 1623)});
  t.add("aten::outer", "float", {f32({3}, 1624), f32({4}, 1625)});
  t.add("aten::outer", "double", {f64({2}, 1626), f64({3}, 1627)});
  t.add("aten::outer", "int64", {i64({3}, 1628), i64({2}, 1629)});
  t.add("aten::outer", "empty", {f32({0}, 1630), f32({2}, 1631)});
  t.add("aten::outer", "float16", {f16({2}, 1632), f16({3}, 1633)});
  t.add("aten::outer", "int64 with float promotes", {i64({3}, 1634), f32({2}, 1635)});
}

void add_closeness_samples(SampleTable& t) {
  // isclose / allclose: b is a near (same seed) or a different draw.
  t.add("aten::isclose", "defaults, some equal",
        {floats({1, 2, 3, 4}), floats({1, 2.00001f, 3.1f, 4})});
  t.add("aten::isclose", "rtol and atol keywords", {f32({2, 3}, 1650), f32({2, 3}, 1651)},
        {{"rtol", 0.5}, {"atol", 0.5}});
  t.add("aten::isclose", "infinities and NaN",
        {floats({kInf, -kInf, kInf, kNan, kNan}), floats({kInf, kInf, 1, kNan, 1})});
  t.add("aten::isclose", "equal_nan", {floats({kNan, kNan, 1}), floats({kNan, 1, 1})},
        {{"equal_nan", true}});
  t.add("aten::isclose", "int64, atol 1", {i64({6}, 1652), i64({6}, 1653)}, {{"atol", 1.0}});
  t.add("aten::isclose", "broadcast, double", {f64({2, 3}, 1654), f64({3}, 1654)});
  t.add("aten::isclose", "positional tolerances",
        {f32({4}, 1655), f32({4}, 1656), 0.1, 1.0, false});
  t.add("aten::isclose", "float16", {f16({4}, 1673), f16({4}, 1673)});
  t.add("aten::allclose", "same values", {f32({2, 3}, 1657), f32({2, 3}, 1657)});
  t.add("aten::allclose", "different values", {f32({2, 3}, 1658), f32({2, 3}, 1659)});
  t.add("aten::allclose", "wide atol", {f32({4}, 1660), f32({4}, 1661)}, {{"atol", 10.0}});
  t.add("aten::allclose", "NaN, with and without equal_nan",
        {floats({kNan, 1}), floats({kNan, 1})});
  t.add("aten::allclose", "equal_nan keyword", {floats({kNan, 1}), floats({kNan, 1})},
        {{"equal_nan", true}});
  t.add("aten::allclose", "double broadcast", {f64({2, 3}, 1662), f64({3}, 1662)});
  t.add("aten::equal", "same values", {f32({2, 3}, 1663), f32({2, 3}, 1663)});
  t.add("aten::equal", "different values", {f32({2, 3}, 1664), f32({2, 3}, 1665)});
  t.add("aten::equal", "different shapes of one rank", {f32({2, 3}, 1666), f32({3, 2}, 1666)});
  t.add("aten::equal", "different ranks", {f32({6}, 1667), f32({2, 3}, 1667)});
  t.add("aten::equal", "int64", {i64({4}, 1668), i64({4}, 1668)});
  t.add("aten::equal", "bool, empty", {booleans({0, 2}, 1669), booleans({0, 2}, 1670)});
  t.add("aten::equal", "0-D", {f32({}, 1671), f32({}, 1672)});
  t.add("aten::equal", "float16", {f16({3}, 1674), f16({3}, 1674)});
  t.add("aten::allclose", "float16", {f16({3}, 1675), f16({3}, 1676)}, {{"atol", 10.0}});
}

void add_alias_samples(SampleTable& t) {
  // PyTorch's aliases of the arithmetic family's operators.
  for (const char* name : {"aten::divide.Tensor", "aten::true_divide.Tensor"}) {
    t.add(name, "float", {f32({2, 3}, 1700), nonzero_f32({2, 3}, 1701)});
    t.add(name, "int64 divides as float", {i64({6}, 1702), nonzero_i64({6}, 1703)});
    t.add(name, "double broadcast", {f64({2, 3}, 1704), f64({3}, 1705, 0.5, 3)});
    t.add(name, "float16", {f16({4}, 1706), f16({4}, 1707, 0.5, 3)});
    t.add(name, "0-D and empty", {f32({}, 1708), nonzero_f32({0}, 1709)});
    t.add(name, "int64 with float promotes", {i64({3}, 1710), nonzero_f32({3}, 1711)});
  }
  for (const char* name : {"aten::divide.Scalar", "aten::true_divide.Scalar"}) {
    t.add(name, "float by int", {f32({2, 3}, 1712), 4});
    t.add(name, "int64 by int divides as float", {i64({5}, 1713), 2});
    t.add(name, "float by float", {f32({3}, 1714), -0.25});
    t.add(name, "double 0-D", {f64({}, 1715), 3});
  }
  for (const char* mode : {"floor", "trunc"}) {
    const std::string m = mode;
    t.add("aten::divide.Tensor_mode", "float " + m,
          {f32({2, 4}, 1716, -9, 9), nonzero_f32({2, 4}, 1717)}, {{"rounding_mode", mode}});
    t.add("aten::divide.Tensor_mode", "int64 " + m,
          {i64({8}, 1718, -20, 20), nonzero_i64({8}, 1719)}, {{"rounding_mode", mode}});
    t.add("aten::divide.Tensor_mode", "double broadcast " + m,
          {f64({2, 3}, 1720, -9, 9), f64({3}, 1721, 0.5, 3)}, {{"rounding_mode", mode}});
    t.add("aten::divide.Scalar_mode", "float by int " + m, {f32({2, 3}, 1722, -9, 9), 4},
          {{"rounding_mode", mode}});
    t.add("aten::divide.Scalar_mode", "float by negative float " + m, {f32({5}, 1723, -9, 9), -1.5},
          {{"rounding_mode", mode}});
    t.add("aten::divide.Scalar_mode", "int64 by negative int " + m, {i64({6}, 1724, -20, 20), -3},
          {{"rounding_mode", mode}});
  }
  t.add("aten::divide.Tensor_mode", "rounding_mode None", {f32({4}, 1725), nonzero_f32({4}, 1726)},
        {{"rounding_mode", Arg()}});
  t.add("aten::divide.Scalar_mode", "rounding_mode None", {f32({4}, 1727), 2},
        {{"rounding_mode", Arg()}});
  t.add("aten::subtract.Tensor", "float broadcast", {f32({2, 3}, 1730), f32({3}, 1731)});
  t.add("aten::subtract.Tensor", "alpha keyword", {f32({4}, 1732), f32({4}, 1733)}, {{"alpha", 2}});
  t.add("aten::subtract.Tensor", "int64, alpha 3", {i64({4}, 1734), i64({4}, 1735)},
        {{"alpha", 3}});
  t.add("aten::subtract.Tensor", "double 0-D", {f64({}, 1736), f64({3}, 1737)});
  t.add("aten::subtract.Tensor", "float16", {f16({3}, 1738), f16({3}, 1739)});
  t.add("aten::subtract.Tensor", "int64 with float promotes", {i64({3}, 1740), f32({3}, 1741)});
  t.add("aten::subtract.Scalar", "float tensor, int scalar", {f32({2, 3}, 1742), 2});
  t.add("aten::subtract.Scalar", "float scalar, alpha 2", {f32({4}, 1743), 1.5, 2});
  t.add("aten::subtract.Scalar", "int64", {i64({3}, 1744), 3});
  t.add("aten::multiply.Tensor", "float broadcast", {f32({2, 3}, 1745), f32({2, 1}, 1746)});
  t.add("aten::multiply.Tensor", "int64", {i64({4}, 1747), i64({4}, 1748)});
  t.add("aten::multiply.Tensor", "bool", {booleans({5}, 1749), booleans({5}, 1750)});
  t.add("aten::multiply.Tensor", "float16, empty", {f16({0, 2}, 1751), f16({2}, 1752)});
  t.add("aten::multiply.Tensor", "float with double promotes", {f32({3}, 1753), f64({3}, 1754)});
  t.add("aten::multiply.Scalar", "float by int", {f32({2, 3}, 1755), 3});
  t.add("aten::multiply.Scalar", "float by float", {f32({4}, 1756), -0.5});
  t.add("aten::multiply.Scalar", "int64 by int", {i64({4}, 1757), 2});
  t.add("aten::multiply.Scalar", "double 0-D", {f64({}, 1758), 1.5});
  t.add("aten::multiply.Scalar", "float16", {f16({3}, 1759), 2});
  t.add("aten::subtract.Scalar", "float16", {f16({3}, 1760), 0.5});
  t.add("aten::divide.Scalar", "float16", {f16({3}, 1761), 2});
  t.add("aten::true_divide.Scalar", "int64 by float", {i64({3}, 1762), 0.5});
  t.add("aten::divide.Tensor_mode", "float16 floor",
        {f16({4}, 1763, -9, 9), f16({4}, 1764, 0.5, 3)}, {{"rounding_mode", "floor"}});
  t.add("aten::divide.Scalar_mode", "float16 trunc", {f16({4}, 1765, -9, 9), 2},
        {{"rounding_mode", "trunc"}});
}

}  // namespace

void add_binary_samples(SampleTable& t) {
  add_comparison_samples(t);
  add_logical_and_bitwise_samples(t);
  add_elementwise_samples(t);
  add_selection_samples(t);
  add_product_samples(t);
  add_closeness_samples(t);
  add_alias_samples(t);
}

}  // namespace onnxscript::torch_lib::comparison
