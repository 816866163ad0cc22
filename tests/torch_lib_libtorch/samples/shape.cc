// Samples of the shape family (src/lib/torch_lib/ops/shape.cc and
// shape_more.cc): views and copies, creation functions, windows, joining and
// splitting, sorting, and conversions. Ranks 0 to 4, negative dims, empty
// tensors and the element types each function takes.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

using Tensors = std::vector<Value>;

// Conversions, copies and the functions that return their input unchanged.
void add_copies(SampleTable& t) {
  t.add("aten::_to_copy", "float to double", {f32({2, 3}, 1000)}, {{"dtype", kDoubleCode}});
  t.add("aten::_to_copy", "float to int64 truncates", {f32({5}, 1001, -5, 5)}, {{"dtype", kLong}});
  t.add("aten::_to_copy", "int64 to float16", {i64({2, 2}, 1002)}, {{"dtype", kHalfCode}});
  t.add("aten::_to_copy", "float to bool", {f32({4}, 1003)}, {{"dtype", kBoolCode}});
  t.add("aten::_to_copy", "bool to float, 0-D", {booleans({}, 1004)}, {{"dtype", kFloatCode}});
  t.add("aten::_to_copy", "dtype omitted copies", {f16({3, 0}, 1005)});
  t.add("aten::_to_copy", "float16 to float", {f16({2, 3}, 1006)}, {{"dtype", kFloatCode}});

  for (const char* name : {"aten::alias", "aten::clone", "aten::detach", "aten::lift_fresh_copy",
                           "aten::resolve_conj", "aten::resolve_neg"}) {
    t.add(name, "float rank 3", {f32({2, 3, 4}, 1010)});
    t.add(name, "0-D int64", {i64({}, 1011)});
    t.add(name, "bool", {booleans({3, 1}, 1012)});
    t.add(name, "float16", {f16({4}, 1013)});
    t.add(name, "empty", {f32({0, 2}, 1014)});
  }
  t.add("aten::clone", "memory_format keyword", {f64({2, 2}, 1015)},
        {{"memory_format", "contiguous_format"}});
  t.add("aten::clone", "memory_format preserve", {f32({1, 2, 2, 2}, 1016)},
        {{"memory_format", "preserve_format"}});

  t.add("aten::copy", "same shape", {f32({2, 3}, 1020), f32({2, 3}, 1021)});
  t.add("aten::copy", "src broadcast", {f32({2, 3}, 1022), f32({3}, 1023)});
  t.add("aten::copy", "src int64 into float", {f32({4}, 1024), i64({4}, 1025)});
  t.add("aten::copy", "src float into int64", {i64({4}, 1026), f32({4}, 1027, -5, 5)});
  t.add("aten::copy", "non_blocking, float16", {f16({2}, 1028), f16({2}, 1029), true});
  t.add("aten::copy", "bool, 0-D src", {booleans({3}, 1030), booleans({}, 1031)});

  for (const char* name : {"aten::to.dtype", "aten::to.prim_dtype"}) {
    t.add(name, "float to int64", {f32({2, 3}, 1040, -5, 5), kLong});
    t.add(name, "int64 to double", {i64({4}, 1041), kDoubleCode});
    t.add(name, "float to float16", {f32({3}, 1042), kHalfCode});
    t.add(name, "int64 to bool", {i64({5}, 1043, -1, 1), kBoolCode});
    t.add(name, "same dtype, copy keyword", {f32({2}, 1044), kFloatCode}, {{"copy", true}});
    t.add(name, "0-D", {f64({}, 1045), kFloatCode});
  }
  t.add("aten::to.prim_dtype", "dtype None", {f32({2}, 1046), Arg()});
  t.add("aten::to.other", "float to other's int64", {f32({2, 3}, 1050, -5, 5), i64({1}, 1051)});
  t.add("aten::to.other", "int64 to other's float16", {i64({3}, 1052), f16({2, 2}, 1053)});
  t.add("aten::to.other", "bool to float", {booleans({4}, 1054), f32({}, 1055)});
  for (const char* name : {"aten::type_as"}) {
    t.add(name, "float as int64", {f32({2, 3}, 1056, -5, 5), i64({1}, 1057)});
    t.add(name, "int64 as double", {i64({3}, 1058), f64({2}, 1059)});
    t.add(name, "bool as float16", {booleans({4}, 1060), f16({}, 1061)});
    t.add(name, "same type", {f32({2}, 1062), f32({3}, 1063)});
  }
}

// Functions that only re-arrange or view the elements.
void add_views(SampleTable& t) {
  for (const char* name : {"aten::_unsafe_view", "aten::view_copy"}) {
    t.add(name, "with -1", {f32({2, 3, 4}, 1100), Ints{6, -1}});
    t.add(name, "to 0-D", {f32({1, 1}, 1101), Ints{}});
    t.add(name, "int64 to rank 4", {i64({6}, 1102), Ints{1, 2, 3, 1}});
    t.add(name, "empty", {f32({0, 3}, 1103), Ints{3, 0}});
    t.add(name, "bool", {booleans({2, 2}, 1104), Ints{4}});
    t.add(name, "float16", {f16({4}, 1105), Ints{2, -1}});
  }
  for (const char* name : {"aten::reshape_as", "aten::view_as"}) {
    t.add(name, "to rank 2", {f32({2, 3, 4}, 1110), f32({6, 4}, 1111)});
    t.add(name, "other of another type", {i64({6}, 1112), f16({3, 2}, 1113)});
    t.add(name, "to 0-D", {f32({1}, 1114), f32({}, 1115)});
    t.add(name, "bool, empty", {booleans({0, 2}, 1116), booleans({2, 0}, 1117)});
  }
  for (const char* name : {"aten::atleast_1d", "aten::atleast_2d", "aten::atleast_3d"}) {
    t.add(name, "0-D", {f32({}, 1120)});
    t.add(name, "rank 1", {i64({3}, 1121)});
    t.add(name, "rank 2", {f32({2, 3}, 1122)});
    t.add(name, "rank 3, float16", {f16({2, 1, 3}, 1123)});
    t.add(name, "rank 4, bool", {booleans({1, 2, 1, 2}, 1124)});
    t.add(name, "empty", {f32({0}, 1125)});
  }
  for (const char* name :
       {"aten::atleast_1d.Sequence", "aten::atleast_2d.Sequence", "aten::atleast_3d.Sequence"}) {
    t.add(name, "mixed ranks", {Tensors{f32({}, 1126), f32({3}, 1127), f32({2, 2}, 1128)}});
    t.add(name, "one tensor, int64", {Tensors{i64({2, 1, 2}, 1129)}});
    t.add(name, "bool and float16", {Tensors{booleans({2}, 1130), f16({1, 1, 1, 2}, 1131)}});
  }
  t.add("aten::broadcast_to", "new leading dims", {f32({3, 1}, 1140), Ints{2, 3, 4}});
  t.add("aten::broadcast_to", "-1 keeps a size", {f32({1, 4}, 1141), Ints{3, -1}});
  t.add("aten::broadcast_to", "0-D to rank 2, int64", {i64({}, 1142), Ints{2, 3}});
  t.add("aten::broadcast_to", "to an empty dim", {f32({1, 2}, 1143), Ints{0, 2}});
  t.add("aten::broadcast_to", "bool, float16", {booleans({2, 1}, 1144), Ints{2, 2}});
  t.add("aten::broadcast_to", "float16 same shape", {f16({2, 2}, 1145), Ints{2, 2}});
  t.add("aten::expand_as", "new leading dims", {f32({3, 1}, 1146), f32({2, 3, 4}, 1147)});
  t.add("aten::expand_as", "other of another type", {i64({1}, 1148), booleans({2, 2}, 1149)});
  t.add("aten::expand_as", "0-D, float16", {f16({}, 1150), f16({3}, 1151)});
  t.add("aten::expand_as", "empty", {f32({1, 2}, 1152), f32({0, 2}, 1153)});

  for (const char* name : {"aten::diagonal", "aten::diagonal_copy"}) {
    t.add(name, "defaults omitted", {f32({3, 4}, 1160)});
    t.add(name, "positive offset", {f32({3, 4}, 1161), 1});
    t.add(name, "negative offset", {f32({4, 3}, 1162), -2});
    t.add(name, "offset past the edge", {f32({2, 3}, 1163), 5});
    t.add(name, "rank 3, dims 1 and 2", {f32({2, 3, 4}, 1164), 0, 1, 2});
    t.add(name, "negative dims swapped", {i64({2, 3, 4}, 1165), 1, -1, 0});
    t.add(name, "rank 4, keywords", {f16({2, 3, 3, 2}, 1166)},
          {{"offset", -1}, {"dim1", 1}, {"dim2", 2}});
    t.add(name, "bool", {booleans({3, 3}, 1167)});
    t.add(name, "empty", {f32({0, 3}, 1168)});
  }

  t.add("aten::flip", "one dim", {f32({2, 3}, 1170), Ints{0}});
  t.add("aten::flip", "two dims, negative", {f32({2, 3, 4}, 1171), Ints{-1, 0}});
  t.add("aten::flip", "no dims", {f32({2, 3}, 1172), Ints{}});
  t.add("aten::flip", "int64 rank 4", {i64({2, 1, 3, 2}, 1173), Ints{1, 2, 3}});
  t.add("aten::flip", "bool", {booleans({5}, 1174), Ints{0}});
  t.add("aten::flip", "float16", {f16({3, 2}, 1175), Ints{1}});
  t.add("aten::flip", "empty", {f32({0, 3}, 1176), Ints{1}});
  t.add("aten::flip", "0-D", {f32({}, 1177), Ints{}});

  for (const char* name : {"aten::mT", "aten::mT.a", "aten::mH", "aten::mH.a"}) {
    t.add(name, "rank 2", {f32({2, 3}, 1180)});
    t.add(name, "rank 3", {i64({2, 3, 4}, 1181)});
    t.add(name, "rank 4, float16", {f16({2, 1, 3, 2}, 1182)});
    t.add(name, "bool", {booleans({1, 3}, 1183)});
    t.add(name, "empty", {f32({0, 3}, 1184)});
  }
  t.add("aten::t", "rank 2", {f32({2, 3}, 1185)});
  t.add("aten::t", "rank 1", {i64({4}, 1186)});
  t.add("aten::t", "0-D", {f32({}, 1187)});
  t.add("aten::t", "float16", {f16({3, 1}, 1188)});
  t.add("aten::t", "bool, empty", {booleans({0, 2}, 1189)});

  t.add("aten::narrow", "dim 0", {f32({5, 3}, 1190), 0, 1, 3});
  t.add("aten::narrow", "negative dim", {f32({2, 6}, 1191), -1, 2, 4});
  t.add("aten::narrow", "negative start", {i64({6}, 1192), 0, -3, 2});
  t.add("aten::narrow", "length 0", {f32({4, 2}, 1193), 0, 2, 0});
  t.add("aten::narrow", "bool rank 3", {booleans({2, 3, 4}, 1194), 1, 0, 2});
  t.add("aten::narrow", "float16", {f16({4}, 1195), 0, 1, 2});
  t.add("aten::narrow.Tensor", "0-D start", {f32({5, 3}, 1196), 0, i64({}, 1197, 1, 1), 3});
  t.add("aten::narrow.Tensor", "negative dim", {i64({2, 6}, 1198), -1, i64({}, 1199, 2, 2), 4});
  t.add("aten::narrow.Tensor", "float16", {f16({2, 5}, 1200), 1, i64({}, 1201, 0, 0), 2});

  t.add("aten::pixel_shuffle", "factor 2", {f32({1, 8, 2, 3}, 1210), 2});
  t.add("aten::pixel_shuffle", "factor 3, batch 2", {f32({2, 9, 2, 2}, 1211), 3});
  t.add("aten::pixel_shuffle", "factor 1, int64", {i64({1, 2, 2, 2}, 1212), 1});
  t.onnxruntime_lacks("no int64 DepthToSpace");
  t.add("aten::pixel_shuffle", "rank 3", {f32({4, 2, 2}, 1213), 2});
  t.add("aten::pixel_shuffle", "rank 5, float16", {f16({2, 1, 4, 1, 2}, 1214), 2});
  t.add("aten::pixel_unshuffle", "factor 2", {f32({1, 2, 4, 6}, 1215), 2});
  t.add("aten::pixel_unshuffle", "factor 3, batch 2", {f32({2, 1, 3, 6}, 1216), 3});
  t.add("aten::pixel_unshuffle", "factor 1, int64", {i64({1, 2, 2, 2}, 1217), 1});
  t.add("aten::pixel_unshuffle", "rank 3", {f32({1, 4, 4}, 1218), 2});
  t.add("aten::pixel_unshuffle", "rank 5, bool", {booleans({2, 1, 1, 2, 2}, 1219), 2});

  t.add("aten::repeat", "same rank", {f32({2, 3}, 1220), Ints{2, 1}});
  t.add("aten::repeat", "more repeats than dims", {f32({3}, 1221), Ints{2, 1, 2}});
  t.add("aten::repeat", "0-D", {i64({}, 1222), Ints{3}});
  t.add("aten::repeat", "a 0 repeat", {f32({2, 2}, 1223), Ints{0, 2}});
  t.add("aten::repeat", "bool, float16", {booleans({2}, 1224), Ints{2, 2}});
  t.add("aten::repeat", "float16", {f16({1, 2}, 1225), Ints{3, 1}});
  t.add("aten::tile", "same rank", {f32({2, 3}, 1226), Ints{2, 1}});
  t.add("aten::tile", "fewer dims than rank", {f32({2, 3}, 1227), Ints{2}});
  t.add("aten::tile", "more dims than rank", {i64({3}, 1228), Ints{2, 1, 2}});
  t.add("aten::tile", "0-D", {f32({}, 1229), Ints{3}});
  t.add("aten::tile", "bool", {booleans({2}, 1230), Ints{3}});
  t.add("aten::tile", "float16, empty", {f16({0, 2}, 1231), Ints{2, 2}});

  t.add("aten::roll", "flat, dims omitted", {f32({2, 3}, 1240), Ints{2}});
  t.add("aten::roll", "one dim", {f32({2, 5}, 1241), Ints{2}, Ints{1}});
  t.add("aten::roll", "negative shift and dim", {i64({3, 4}, 1242), Ints{-1}, Ints{-1}});
  t.add("aten::roll", "two dims", {f32({3, 4, 2}, 1243), Ints{1, 3}, Ints{0, 1}});
  t.add("aten::roll", "shift past the size", {f32({4}, 1244), Ints{9}, Ints{0}});
  t.add("aten::roll", "bool", {booleans({5}, 1245), Ints{1}, Ints{0}});
  t.add("aten::roll", "float16 single int", {f16({6}, 1246), 2});
  t.add("aten::roll", "empty", {f32({0, 3}, 1247), Ints{1}, Ints{1}});

  for (const char* name : {"aten::tril", "aten::triu"}) {
    t.add(name, "diagonal omitted", {f32({3, 4}, 1250)});
    t.add(name, "positive diagonal", {f32({4, 3}, 1251), 1});
    t.add(name, "negative diagonal", {f32({4, 4}, 1252), -2});
    t.add(name, "batched rank 3", {f32({2, 3, 3}, 1253), 0});
    t.add(name, "int64", {i64({3, 3}, 1254)});
    t.add(name, "bool", {booleans({3, 2}, 1255), -1});
    t.add(name, "float16 rank 4", {f16({2, 1, 2, 3}, 1256)});
    t.add(name, "empty", {f32({0, 3}, 1257)});
  }

  t.add("aten::unflatten.int", "middle dim", {f32({2, 6, 4}, 1260), 1, Ints{2, 3}});
  t.add("aten::unflatten.int", "negative dim, -1", {f32({2, 12}, 1261), -1, Ints{3, -1}});
  t.add("aten::unflatten.int", "int64 to size-1 dims", {i64({4}, 1262), 0, Ints{1, 4, 1}});
  t.add("aten::unflatten.int", "bool", {booleans({6}, 1263), 0, Ints{2, 3}});
  t.add("aten::unflatten.int", "float16", {f16({2, 4}, 1264), 1, Ints{2, 2}});

  t.add("aten::unfold", "rank 1", {f32({7}, 1270), 0, 2, 1});
  t.add("aten::unfold", "step larger than size", {f32({8}, 1271), 0, 2, 3});
  t.add("aten::unfold", "rank 2, dim 1", {f32({2, 6}, 1272), 1, 3, 2});
  t.add("aten::unfold", "negative dim, int64", {i64({3, 5}, 1273), -1, 2, 2});
  t.add("aten::unfold", "dim 0 of rank 3", {f32({5, 2, 2}, 1274), 0, 3, 1});
  t.add("aten::unfold", "0-D", {f32({}, 1275), 0, 1, 1});
  t.add("aten::unfold", "bool, float16", {booleans({4}, 1276), 0, 4, 1});
  t.add("aten::unfold", "float16", {f16({4, 2}, 1277), 0, 2, 2});

  t.add("aten::unsqueeze", "front", {f32({2, 3}, 1280), 0});
  t.add("aten::unsqueeze", "back, negative", {f32({2, 3}, 1281), -1});
  t.add("aten::unsqueeze", "middle", {i64({2, 3}, 1282), 1});
  t.add("aten::unsqueeze", "0-D", {f32({}, 1283), 0});
  t.add("aten::unsqueeze", "bool", {booleans({3}, 1284), -2});
  t.add("aten::unsqueeze", "float16 rank 3", {f16({2, 1, 2}, 1285), 3});
  t.add("aten::unsqueeze", "empty", {f32({0}, 1286), 1});
}

// Creation functions: from a size, like another tensor, ranges and windows.
void add_creation(SampleTable& t) {
  t.add("aten::arange", "int end", {5});
  t.add("aten::arange", "float end", {3.5});
  t.add("aten::arange", "dtype float", {4}, {{"dtype", kFloatCode}});
  t.add("aten::arange", "dtype double", {4}, {{"dtype", kDoubleCode}});
  t.add("aten::arange", "end 0 (empty)", {0});
  t.add("aten::arange.start", "ints", {2, 7});
  t.add("aten::arange.start", "negative start, float end", {-3, 1.5});
  t.add("aten::arange.start", "dtype float16", {0, 4}, {{"dtype", kHalfCode}});
  t.add("aten::arange.start_step", "ints, step 2", {1, 10, 2});
  t.add("aten::arange.start_step", "negative step", {5, -3, -2});
  t.add("aten::arange.start_step", "float step", {0, 1, 0.25});
  t.add("aten::arange.start_step", "step omitted", {-2, 2});
  t.add("aten::arange.start_step", "dtype long on floats", {0.5, 4.5, 1.0}, {{"dtype", kLong}});
  t.add("aten::arange.start_step", "dtype double", {0, 3, 0.5}, {{"dtype", kDoubleCode}});

  t.add("aten::linspace", "float", {0.0, 1.0, 5});
  t.add("aten::linspace", "ints give float", {-2, 6, 5});
  t.add("aten::linspace", "descending", {3.0, -1.0, 4});
  t.add("aten::linspace", "one step", {2.0, 5.0, 1});
  t.add("aten::linspace", "zero steps", {2.0, 5.0, 0});
  t.add("aten::linspace", "dtype double", {0.0, 1.0, 7}, {{"dtype", kDoubleCode}});
  t.add("aten::linspace", "dtype long", {0, 10, 4}, {{"dtype", kLong}});
  t.add("aten::linspace", "dtype float16", {-1.0, 1.0, 5}, {{"dtype", kHalfCode}});

  for (const char* name : {"aten::blackman_window", "aten::hann_window", "aten::hamming_window"}) {
    t.add(name, "length 8", {8});
    t.add(name, "length 1", {1});
    t.add(name, "length 0", {0});
    t.add(name, "dtype double", {5}, {{"dtype", kDoubleCode}});
  }
  for (const char* name : {"aten::blackman_window.periodic", "aten::hann_window.periodic",
                           "aten::hamming_window.periodic"}) {
    t.add(name, "periodic", {8, true});
    t.add(name, "symmetric", {7, false});
    t.add(name, "length 1", {1, false});
    t.add(name, "dtype double", {6, true}, {{"dtype", kDoubleCode}});
  }
  t.add("aten::hamming_window.periodic_alpha", "alpha 0.5 (Hann)", {8, true, 0.5});
  t.add("aten::hamming_window.periodic_alpha", "symmetric alpha 0.6", {7, false, 0.6});
  t.add("aten::hamming_window.periodic_alpha_beta", "alpha and beta", {8, true, 0.6, 0.3});
  t.add("aten::hamming_window.periodic_alpha_beta", "symmetric, double", {6, false, 0.5, 0.5},
        {{"dtype", kDoubleCode}});

  t.add("aten::full", "int fill gives int64", {Ints{2, 3}, 4});
  t.add("aten::full", "float fill", {Ints{3}, -1.5});
  t.add("aten::full", "bool fill", {Ints{2}, true});
  t.add("aten::full", "dtype keyword", {Ints{2, 2}, 2}, {{"dtype", kFloatCode}});
  t.add("aten::full", "float16, rank 4", {Ints{1, 2, 1, 2}, 0.5}, {{"dtype", kHalfCode}});
  t.add("aten::full", "0-D", {Ints{}, 7.0});
  t.add("aten::full", "empty", {Ints{0, 3}, 1.0});
  t.add("aten::ones", "float default", {Ints{2, 3}});
  t.add("aten::ones", "dtype long", {Ints{4}}, {{"dtype", kLong}});
  t.add("aten::ones", "dtype bool", {Ints{2, 2}}, {{"dtype", kBoolCode}});
  t.add("aten::ones", "dtype float16, 0-D", {Ints{}}, {{"dtype", kHalfCode}});
  t.add("aten::ones", "empty", {Ints{3, 0}});

  for (const char* name : {"aten::zeros_like", "aten::ones_like"}) {
    t.add(name, "float", {f32({2, 3}, 1300)});
    t.add(name, "int64 0-D", {i64({}, 1301)});
    t.add(name, "bool", {booleans({3}, 1302)});
    t.add(name, "float16", {f16({2, 1, 2, 1}, 1303)});
    t.add(name, "dtype keyword", {f32({2}, 1304)}, {{"dtype", kLong}});
    t.add(name, "empty", {f32({0, 2}, 1305)});
  }
  t.add("aten::full_like", "float by int", {f32({2, 3}, 1310), 3});
  t.add("aten::full_like", "int64 by int", {i64({4}, 1311), -2});
  t.add("aten::full_like", "float16 by float", {f16({2, 2}, 1312), 0.25});
  t.add("aten::full_like", "bool", {booleans({3}, 1313), true});
  t.add("aten::full_like", "dtype keyword", {i64({2}, 1314), 1.5}, {{"dtype", kDoubleCode}});
  t.add("aten::full_like", "empty, 0-D", {f32({}, 1315), 1});

  t.add("aten::new_zeros", "self's dtype", {f32({2}, 1320), Ints{2, 3}});
  t.add("aten::new_zeros", "int64 self", {i64({2}, 1321), Ints{4}});
  t.add("aten::new_zeros", "dtype keyword", {f32({2}, 1322), Ints{2, 2}}, {{"dtype", kBoolCode}});
  t.add("aten::new_zeros", "0-D, float16", {f16({2}, 1323), Ints{}});
  t.add("aten::new_ones", "self's dtype", {f32({2}, 1324), Ints{2, 3}});
  t.add("aten::new_ones", "int64 self", {i64({2}, 1325), Ints{4}});
  t.add("aten::new_ones", "dtype keyword", {f32({2}, 1326), Ints{3}}, {{"dtype", kDoubleCode}});
  t.add("aten::new_ones", "bool self, empty", {booleans({2}, 1327), Ints{0, 2}});
  t.add("aten::new_full", "float self, int fill", {f32({2}, 1328), Ints{2, 3}, 4});
  t.add("aten::new_full", "int64 self", {i64({2}, 1329), Ints{3}, -7});
  t.add("aten::new_full", "dtype keyword", {f32({2}, 1330), Ints{2}, 1}, {{"dtype", kLong}});
  t.add("aten::new_full", "float16 self", {f16({1}, 1331), Ints{1, 2}, 0.5});

  // Uninitialised memory: only the element type and shape are compared.
  t.add("aten::empty.memory_format", "float", {Ints{2, 3}});
  t.random();
  t.add("aten::empty.memory_format", "dtype long", {Ints{4}}, {{"dtype", kLong}});
  t.random();
  t.add("aten::empty.memory_format", "empty, bool", {Ints{0, 2}}, {{"dtype", kBoolCode}});
  t.random();
  t.add("aten::empty_like", "float", {f32({2, 3}, 1340)});
  t.random();
  t.add("aten::empty_like", "int64 dtype keyword", {f32({2}, 1341)}, {{"dtype", kLong}});
  t.random();
  t.add("aten::empty_like", "float16", {f16({1, 2, 2}, 1342)});
  t.random();
  t.add("aten::empty_strided", "float", {Ints{2, 3}, Ints{3, 1}});
  t.random();
  t.add("aten::empty_strided", "dtype double", {Ints{4}, Ints{1}}, {{"dtype", kDoubleCode}});
  t.random();
  t.add("aten::new_empty", "self's dtype", {i64({2}, 1343), Ints{3, 2}});
  t.random();
  t.add("aten::new_empty", "dtype keyword", {f32({2}, 1344), Ints{2}}, {{"dtype", kHalfCode}});
  t.random();
  t.add("aten::new_empty_strided", "self's dtype", {f32({2}, 1345), Ints{2, 2}, Ints{2, 1}});
  t.random();
  t.add("aten::new_empty_strided", "dtype keyword", {f32({2}, 1346), Ints{3}, Ints{1}},
        {{"dtype", kLong}});
  t.random();

  t.add("aten::scalar_tensor", "float", {2.5});
  t.add("aten::scalar_tensor", "int gives float", {3});
  t.add("aten::scalar_tensor", "dtype long", {-4}, {{"dtype", kLong}});
  t.add("aten::scalar_tensor", "dtype float16", {0.5}, {{"dtype", kHalfCode}});
  t.add("aten::scalar_tensor", "bool", {true}, {{"dtype", kBoolCode}});
  t.add("aten::tensor.float", "float", {1.25});
  t.add("aten::tensor.float", "dtype double", {-0.5}, {{"dtype", kDoubleCode}});
  t.add("aten::tensor.int", "int", {7});
  t.add("aten::tensor.int", "dtype float", {-3}, {{"dtype", kFloatCode}});
  t.add("aten::tensor.bool", "true", {true});
  t.add("aten::tensor.bool", "false, dtype long", {false}, {{"dtype", kLong}});

  t.add("aten::numel", "rank 3", {f32({2, 3, 4}, 1350)});
  t.add("aten::numel", "0-D", {i64({}, 1351)});
  t.add("aten::numel", "empty", {f32({3, 0}, 1352)});
  t.add("aten::sym_size.int", "dim 1", {f32({2, 3, 4}, 1353), 1});
  t.add("aten::sym_size.int", "empty dim", {booleans({0, 2}, 1355), 0});

  for (const char* name : {"aten::fill.Scalar", "aten::fill_.Scalar"}) {
    t.add(name, "float by int", {f32({2, 3}, 1360), 2});
    t.add(name, "int64 by int", {i64({4}, 1361), -5});
    t.add(name, "float16 by float", {f16({2}, 1362), 0.75});
    t.add(name, "bool", {booleans({3}, 1363), true});
    t.add(name, "0-D double", {f64({}, 1364), 1.5});
    t.add(name, "empty", {f32({0, 2}, 1365), 1});
  }
  for (const char* name : {"aten::fill.Tensor", "aten::fill_.Tensor"}) {
    t.add(name, "float by 0-D float", {f32({2, 3}, 1366), f32({}, 1367)});
    t.add(name, "int64 by 0-D int64", {i64({4}, 1368), i64({}, 1369)});
    t.add(name, "float by 0-D int64", {f32({3}, 1370), i64({}, 1371)});
    t.add(name, "float16", {f16({2, 2}, 1372), f16({}, 1373)});
    t.add(name, "bool", {booleans({3}, 1374), booleans({}, 1375)});
  }

  t.add("aten::one_hot", "num_classes given", {i64({4}, 1380, 0, 4), 5});
  t.add("aten::one_hot", "rank 2", {i64({2, 3}, 1381, 0, 2), 3});
  t.add("aten::one_hot", "0-D", {i64({}, 1382, 0, 3), 4});
  t.add("aten::one_hot", "num_classes keyword", {i64({3}, 1383, 0, 5)}, {{"num_classes", 6}});
  t.add("aten::one_hot", "num_classes omitted", {i64({5}, 1384, 0, 3)});
  t.add("aten::one_hot", "empty", {i64({0}, 1385, 0, 3), 3});
}

// Joining, splitting, sorting and selecting.
void add_joins(SampleTable& t) {
  for (const char* name : {"aten::concat", "aten::concatenate"}) {
    t.add(name, "dim 0", {Tensors{f32({2, 3}, 1400), f32({1, 3}, 1401)}, 0});
    t.add(name, "negative dim", {Tensors{f32({2, 3}, 1402), f32({2, 1}, 1403)}, -1});
    t.add(name, "dim omitted, int64", {Tensors{i64({2}, 1404), i64({3}, 1405)}});
    t.add(name, "bool", {Tensors{booleans({2, 2}, 1406), booleans({2, 2}, 1407)}, 1});
    t.add(name, "float16 rank 4", {Tensors{f16({1, 2, 1, 2}, 1408), f16({1, 2, 2, 2}, 1409)}, 2});
    t.add(name, "one empty", {Tensors{f32({0, 3}, 1410), f32({2, 3}, 1411)}, 0});
  }
  t.add("aten::stack", "dim 0", {Tensors{f32({2, 3}, 1420), f32({2, 3}, 1421)}, 0});
  t.add("aten::stack", "last dim, negative", {Tensors{f32({2, 3}, 1422), f32({2, 3}, 1423)}, -1});
  t.add("aten::stack", "0-D tensors", {Tensors{i64({}, 1424), i64({}, 1425), i64({}, 1426)}});
  t.add("aten::stack", "one tensor, middle dim", {Tensors{f32({2, 3}, 1427)}, 1});
  t.add("aten::stack", "bool", {Tensors{booleans({3}, 1428), booleans({3}, 1429)}, 1});
  t.add("aten::stack", "float16 rank 3", {Tensors{f16({1, 2, 2}, 1430), f16({1, 2, 2}, 1431)}, 2});
  t.add("aten::stack", "empty", {Tensors{f32({0, 2}, 1432), f32({0, 2}, 1433)}});

  for (const char* name : {"aten::split.Tensor", "aten::unsafe_split.Tensor"}) {
    t.add(name, "even", {f32({6, 2}, 1440), 2});
    t.add(name, "uneven, negative dim", {f32({2, 5}, 1441), 2, -1});
    t.add(name, "size larger than the dim", {i64({3}, 1442), 5});
    t.add(name, "bool", {booleans({4, 2}, 1443), 1, 1});
    t.add(name, "float16 rank 4", {f16({1, 2, 4, 1}, 1444), 3, 2});
  }
  for (const char* name : {"aten::split", "aten::split.sizes", "aten::split_with_sizes"}) {
    t.add(name, "two sizes", {f32({5, 2}, 1450), Ints{2, 3}});
    t.add(name, "negative dim", {f32({2, 6}, 1451), Ints{1, 2, 3}, -1});
    t.add(name, "a 0 size, int64", {i64({4}, 1452), Ints{0, 4}});
    t.add(name, "one piece", {booleans({3, 2}, 1453), Ints{3}});
    t.add(name, "float16", {f16({2, 4}, 1454), Ints{1, 3}, 1});
  }
  t.add("aten::unbind.int", "dim omitted", {f32({3, 2}, 1460)});
  t.add("aten::unbind.int", "negative dim", {f32({2, 3, 2}, 1461), -1});
  t.add("aten::unbind.int", "rank 1 to 0-D, int64", {i64({3}, 1462), 0});
  t.add("aten::unbind.int", "bool", {booleans({2, 2}, 1463), 1});
  t.add("aten::unbind.int", "float16", {f16({1, 3}, 1464), 0});

  t.add("aten::gather", "dim 0", {f32({3, 4}, 1470), 0, i64({2, 4}, 1471, 0, 2)});
  t.add("aten::gather", "dim 1, smaller index", {f32({3, 4}, 1472), 1, i64({2, 2}, 1473, 0, 3)});
  t.add("aten::gather", "negative dim, rank 3",
        {i64({2, 3, 4}, 1474), -1, i64({2, 3, 2}, 1475, 0, 3)});
  t.add("aten::gather", "rank 1", {f32({5}, 1476), 0, i64({7}, 1477, 0, 4)});
  t.add("aten::gather", "sparse_grad keyword", {f32({2, 2}, 1478), 1, i64({2, 2}, 1479, 0, 1)},
        {{"sparse_grad", false}});
  t.add("aten::gather", "bool", {booleans({3, 3}, 1480), 0, i64({1, 3}, 1481, 0, 2)});
  t.add("aten::gather", "float16", {f16({4}, 1482), 0, i64({2}, 1483, 0, 3)});
  t.add("aten::gather", "empty index", {f32({3, 2}, 1484), 0, i64({0, 2}, 1485, 0, 2)});
  t.add("aten::gather", "0-D", {f32({}, 1486), 0, i64({}, 1487, 0, 0)});

  t.add("aten::index_select", "dim 0", {f32({4, 3}, 1490), 0, i64({2}, 1491, 0, 3)});
  t.add("aten::index_select", "negative dim, repeats",
        {f32({2, 5}, 1492), -1, i64({6}, 1493, 0, 4)});
  t.add("aten::index_select", "int64 rank 3", {i64({2, 3, 4}, 1494), 1, i64({2}, 1495, 0, 2)});
  t.add("aten::index_select", "bool", {booleans({4}, 1496), 0, i64({3}, 1497, 0, 3)});
  t.add("aten::index_select", "float16", {f16({3, 2}, 1498), 1, i64({1}, 1499, 0, 1)});
  t.add("aten::index_select", "empty index", {f32({3, 2}, 1500), 0, i64({0}, 1501, 0, 2)});
  t.add("aten::index_select", "0-D index", {f32({3, 2}, 1502), 0, i64({}, 1503, 0, 2)});

  t.add("aten::sort", "defaults omitted", {f32({3, 4}, 1510)});
  t.add("aten::sort", "dim 0", {f32({4, 3}, 1511), 0});
  t.add("aten::sort", "descending", {f32({2, 5}, 1512), -1, true});
  t.add("aten::sort", "int64 distinct", {i64({5}, 1513, -100, 100), 0, false});
  t.add("aten::sort", "double rank 3", {f64({2, 3, 2}, 1514), 1});
  t.add("aten::sort", "float16", {f16({6}, 1515)});
  t.add("aten::sort", "descending keyword", {f32({4}, 1516)}, {{"descending", true}});
  t.add("aten::sort", "empty", {f32({0}, 1517)});
  t.add("aten::topk", "k 2 of last dim", {f32({3, 5}, 1520), 2});
  t.add("aten::topk", "smallest, dim 0", {f32({5, 2}, 1521), 3, 0, false});
  t.add("aten::topk", "k equal to the size", {f32({4}, 1522), 4});
  t.add("aten::topk", "int64", {i64({6}, 1523, -100, 100), 2});
  t.add("aten::topk", "negative dim, rank 3", {f64({2, 4, 3}, 1524), 1, -2});
  t.add("aten::topk", "keywords", {f32({5}, 1526), 2}, {{"largest", false}, {"sorted", true}});
  t.add("aten::topk", "k 0", {f32({3}, 1527), 0});

  t.add("aten::nonzero", "float rank 2", {f32({3, 4}, 1530, -1, 1)});
  t.add("aten::nonzero", "int64 with zeros", {i64({6}, 1531, -1, 1)});
  t.add("aten::nonzero", "bool rank 3", {booleans({2, 3, 2}, 1532)});
  t.add("aten::nonzero", "0-D", {i64({}, 1533, 1, 1)});
  t.add("aten::nonzero", "all zero", {i64({2, 2}, 1534, 0, 0)});
  t.add("aten::nonzero", "empty", {f32({0, 3}, 1535)});
  t.add("aten::nonzero", "float16", {f16({5}, 1536, -1, 1)});

  // A small range so that values repeat.
  for (const char* name : {"aten::_unique", "aten::_unique2"}) {
    t.add(name, "defaults omitted", {i64({8}, 1540, 0, 3)});
    t.add(name, "return_inverse", {i64({2, 4}, 1541, 0, 3), true, true});
    t.add(name, "float", {f32({6}, 1542, 0, 2), true, true});
    t.add(name, "bool", {booleans({5}, 1543), true, false});
    t.onnxruntime_lacks("no bool Unique");
    t.add(name, "empty", {f32({0}, 1544), true, true});
  }
  t.add("aten::_unique2", "return_counts", {i64({7}, 1545, 0, 2), true, true, true});
  t.add("aten::_unique2", "counts only, rank 3", {i64({2, 2, 2}, 1546, 0, 3), true, false, true});
  t.add("aten::unique_dim", "dim 0", {i64({4, 2}, 1550, 0, 1), 0});
  t.add("aten::unique_dim", "dim 1, all outputs", {i64({2, 5}, 1551, 0, 1), 1, true, true, true});
  t.add("aten::unique_dim", "negative dim", {i64({3, 3}, 1552, 0, 1), -1, true, true});
  t.add("aten::unique_dim", "rank 1, float", {f32({6}, 1553, 0, 2), 0, true, false, true});
  t.add("aten::unique_dim", "bool", {booleans({4, 2}, 1554), 0});
  t.onnxruntime_lacks("no bool Unique");

  t.add("aten::repeat_interleave.self_int", "flat, dim omitted", {f32({2, 3}, 1560), 2});
  t.add("aten::repeat_interleave.self_int", "dim 1", {f32({2, 3}, 1561), 3, 1});
  t.add("aten::repeat_interleave.self_int", "negative dim", {i64({2, 3}, 1562), 2, -2});
  t.add("aten::repeat_interleave.self_int", "0 repeats", {f32({3}, 1563), 0, 0});
  t.add("aten::repeat_interleave.self_int", "output_size keyword", {f32({3}, 1564), 2, 0},
        {{"output_size", 6}});
  t.add("aten::repeat_interleave.self_int", "bool", {booleans({2}, 1565), 2});
  t.add("aten::repeat_interleave.self_int", "float16 0-D", {f16({}, 1566), 3});
}

// Arithmetic that torchlib files with the shapes: einsum, cross, softmax,
// constant padding.
void add_compute(SampleTable& t) {
  const double tol = 1e-4;  // sums of products accumulate rounding
  t.add("aten::einsum", "matmul", {"ij,jk->ik", Tensors{f32({2, 3}, 1600), f32({3, 4}, 1601)}}, {},
        tol);
  t.add("aten::einsum", "batched matmul",
        {"bij,bjk->bik", Tensors{f32({2, 2, 3}, 1602), f32({2, 3, 2}, 1603)}}, {}, tol);
  t.add("aten::einsum", "trace", {"ii", Tensors{f32({3, 3}, 1604)}}, {}, tol);
  t.add("aten::einsum", "transpose, implicit output", {"ij", Tensors{f32({2, 3}, 1605)}});
  t.add("aten::einsum", "sum of all", {"ij->", Tensors{f32({2, 3}, 1606)}}, {}, tol);
  t.add("aten::einsum", "outer product", {"i,j->ij", Tensors{f32({3}, 1607), f32({2}, 1608)}});
  t.add("aten::einsum", "ellipsis",
        {"...ij,...jk", Tensors{f32({2, 2, 3}, 1609), f32({2, 3, 2}, 1610)}}, {}, tol);
  t.add("aten::einsum", "ellipsis of different ranks broadcast",
        {"...ij,...jk", Tensors{f32({2, 2, 3}, 1615), f32({3, 2}, 1616)}}, {}, tol);
  t.known_failure(
      "ONNX's Einsum shape inference requires every ellipsis to stand for the same number of "
      "dimensions; torchlib passes the equation through unchanged");
  t.add("aten::einsum", "spaces, double",
        {"i j , j -> i", Tensors{f64({2, 3}, 1611), f64({3}, 1612)}});
  t.add("aten::einsum", "path keyword",
        {"ij,jk->ik", Tensors{f32({2, 2}, 1613), f32({2, 2}, 1614)}}, {{"path", Ints{0, 1}}}, tol);

  t.add("aten::linalg_cross", "rank 1", {f32({3}, 1620), f32({3}, 1621)});
  t.add("aten::linalg_cross", "rank 2 last dim", {f32({4, 3}, 1622), f32({4, 3}, 1623)});
  t.add("aten::linalg_cross", "dim keyword 0", {f32({3, 2}, 1624), f32({3, 2}, 1625)},
        {{"dim", 0}});
  t.add("aten::linalg_cross", "broadcast", {f32({2, 1, 3}, 1626), f32({1, 4, 3}, 1627)});
  t.add("aten::linalg_cross", "int64", {i64({2, 3}, 1628), i64({2, 3}, 1629)});
  t.add("aten::linalg_cross", "double, negative dim keyword",
        {f64({3, 2}, 1630), f64({3, 2}, 1631)}, {{"dim", -2}});
  t.add("aten::linalg_cross", "empty", {f32({0, 3}, 1632), f32({0, 3}, 1633)});

  t.add("aten::special_softmax", "last dim", {f32({2, 3, 4}, 1640), -1});
  t.add("aten::special_softmax", "dim 0", {f32({3, 2}, 1641), 0});
  t.add("aten::special_softmax", "dtype double", {f32({2, 4}, 1642), 1, kDoubleCode});
  t.add("aten::special_softmax", "double", {f64({5}, 1643), 0});
  t.add("aten::special_softmax", "0-D", {f32({}, 1644), 0});

  t.add("aten::constant_pad_nd", "last dim", {f32({2, 3}, 1650), Ints{1, 2}});
  t.add("aten::constant_pad_nd", "two dims, value", {f32({2, 3}, 1651), Ints{1, 0, 0, 2}, 1.5});
  t.add("aten::constant_pad_nd", "negative pads crop", {f32({3, 4}, 1652), Ints{-1, 1, -1, 0}});
  t.add("aten::constant_pad_nd", "int64 int value", {i64({2, 2}, 1653), Ints{1, 1}, 7});
  t.add("aten::constant_pad_nd", "rank 4, three dims",
        {f32({1, 2, 2, 2}, 1654), Ints{1, 1, 0, 1, 1, 0}});
  t.add("aten::constant_pad_nd", "float16", {f16({3}, 1655), Ints{2, 1}, -1.0});
  t.add("aten::constant_pad_nd", "bool", {booleans({2}, 1656), Ints{1, 1}});
  t.add("aten::constant_pad_nd", "empty dim", {f32({0, 2}, 1657), Ints{1, 1, 1, 1}});
  t.add("aten::constant_pad_nd", "no pads", {f32({2}, 1658), Ints{}});
}

}  // namespace

void add_shape_samples(SampleTable& t) {
  add_copies(t);
  add_views(t);
  add_creation(t);
  add_joins(t);
  add_compute(t);
}

}  // namespace onnxscript::torch_lib::comparison
