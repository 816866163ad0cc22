// Samples of the first milestone's operators: those the TorchScript models
// of the exporter's tests use (arithmetic, activations, mean, matmul and
// linear, the shape functions, convolution, normalization, pooling).

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {

void add_core_samples(SampleTable& t) {
  // --- arithmetic -----------------------------------------------------------
  for (const char* name : {"aten::add.Tensor", "aten::sub.Tensor", "aten::rsub.Tensor"}) {
    t.add(name, "float same shape", {f32({2, 3}, 1), f32({2, 3}, 2)});
    t.add(name, "float rank 3 with rank 1 broadcast", {f32({2, 3, 4}, 3), f32({4}, 4)});
    t.add(name, "alpha int keyword", {f32({3}, 5), f32({3}, 6)}, {{"alpha", 2}});
    t.add(name, "alpha float keyword", {f32({2, 2}, 7), f32({2, 2}, 8)}, {{"alpha", 0.5}});
    t.add(name, "double", {f64({2, 3}, 9), f64({3}, 10)});
    t.add(name, "int64 alpha 3", {i64({4}, 11), i64({4}, 12)}, {{"alpha", 3}});
    t.add(name, "0-D and rank 1", {f32({}, 13), f32({3}, 14)});
  }
  t.add("aten::add.Tensor", "bool (logical or)", {booleans({6}, 300), booleans({6}, 301)});
  t.add("aten::add.Tensor", "int64 and float promote to float", {i64({3}, 302), f32({3}, 303)});
  t.add("aten::mul.Tensor", "float and double promote to double", {f32({3}, 304), f64({3}, 305)});
  t.add("aten::sub.Tensor", "int64 and double promote to double",
        {i64({2, 2}, 306), f64({2}, 307)});
  t.add("aten::rsub.Scalar", "int64 tensor, float scalar promote to float", {i64({3}, 308), 1.5});
  t.add("aten::div.Tensor", "float and double promote to double",
        {f32({3}, 309), f64({3}, 320, 0.5, 2)});
  t.add("aten::add_.Tensor", "in place keeps self's float with a double other",
        {f32({3}, 321), f64({3}, 322)});
  t.add("aten::mul.Scalar", "int64 tensor, float scalar promote to float", {i64({4}, 323), 0.5});
  for (const char* name : {"aten::add.Scalar", "aten::sub.Scalar", "aten::rsub.Scalar"}) {
    t.add(name, "float tensor, int scalar", {f32({2, 3}, 15), 2});
    t.add(name, "float tensor, float scalar, alpha 2", {f32({4}, 16), 1.5, 2});
    t.add(name, "int64 tensor, int scalar", {i64({2, 2}, 17), 3});
    t.add(name, "double tensor", {f64({3}, 18), 0.25});
  }
  t.add("aten::add_.Tensor", "float, alpha keyword", {f32({2, 3}, 19), f32({3}, 20)},
        {{"alpha", 2}});
  t.add("aten::add_.Tensor", "int64", {i64({3}, 21), i64({3}, 22)});
  t.add("aten::add_.Scalar", "float tensor, int scalar", {f32({2, 3}, 23), 4});
  t.add("aten::add_.Scalar", "alpha", {f32({3}, 24), 0.5, 3});
  t.add("aten::mul.Tensor", "float broadcast", {f32({2, 3}, 25), f32({2, 1}, 26)});
  t.add("aten::mul.Tensor", "int64", {i64({4}, 27), i64({4}, 28)});
  t.add("aten::mul.Tensor", "bool (logical and)", {booleans({6}, 29), booleans({6}, 30)});
  t.add("aten::mul.Tensor", "double", {f64({3, 2}, 31), f64({3, 2}, 32)});
  t.add("aten::mul.Scalar", "float by int", {f32({2, 3}, 33), 3});
  t.add("aten::mul.Scalar", "float by float", {f32({5}, 34), -0.5});
  t.add("aten::mul.Scalar", "int64 by int", {i64({4}, 35), 2});
  t.add("aten::mul_.Tensor", "float", {f32({2, 2}, 36), f32({2, 2}, 37)});
  t.add("aten::div.Tensor", "float", {f32({2, 3}, 38), nonzero_f32({2, 3}, 39)});
  t.add("aten::div.Tensor", "int64 divides as float", {i64({6}, 40), nonzero_i64({6}, 41)});
  t.add("aten::div.Tensor", "double broadcast", {f64({2, 3}, 42), f64({3}, 43, 0.5, 3)});
  t.add("aten::div.Scalar", "float by int", {f32({2, 3}, 44), 4});
  t.add("aten::div.Scalar", "int64 by int divides as float", {i64({5}, 45), 2});
  t.add("aten::div.Scalar", "float by float", {f32({3}, 46), 0.25});
  for (const char* mode : {"floor", "trunc"}) {
    t.add("aten::div.Tensor_mode", std::string("float ") + mode,
          {f32({2, 4}, 47, -9, 9), nonzero_f32({2, 4}, 48)}, {{"rounding_mode", mode}});
    t.add("aten::div.Tensor_mode", std::string("int64 ") + mode,
          {i64({8}, 49, -20, 20), nonzero_i64({8}, 50)}, {{"rounding_mode", mode}});
  }
  t.add("aten::div.Tensor_mode", "rounding_mode None (true division)",
        {f32({4}, 51), nonzero_f32({4}, 52)}, {{"rounding_mode", Arg()}});
  t.add("aten::floor_divide", "float", {f32({2, 3}, 53, -9, 9), nonzero_f32({2, 3}, 54)});
  t.add("aten::floor_divide", "int64 negative", {i64({8}, 55, -20, 20), nonzero_i64({8}, 56)});
  t.add("aten::floor_divide", "int64 broadcast", {i64({2, 4}, 57, -20, 20), nonzero_i64({4}, 58)});

  // --- activations ----------------------------------------------------------
  for (const char* name : {"aten::relu", "aten::relu_"}) {
    t.add(name, "float rank 3", {f32({2, 3, 4}, 60)});
    t.add(name, "double", {f64({5}, 61)});
    t.add(name, "int64", {i64({6}, 62)});
    t.add(name, "0-D", {f32({}, 63)});
  }
  t.add("aten::gelu", "default approximate omitted", {f32({2, 5}, 64)});
  t.add("aten::gelu", "approximate tanh keyword", {f32({2, 5}, 65)}, {{"approximate", "tanh"}});
  t.add("aten::gelu", "approximate none keyword, double", {f64({6}, 66)},
        {{"approximate", "none"}});
  t.onnxruntime_lacks("no double Erf");
  t.add("aten::hardsigmoid", "float", {f32({2, 6}, 67, -5, 5)});
  t.add("aten::hardsigmoid", "double", {f64({6}, 68, -5, 5)});
  for (const char* name : {"aten::hardswish", "aten::hardswish_"}) {
    t.add(name, "float", {f32({2, 6}, 69, -5, 5)});
    t.add(name, "double", {f64({6}, 70, -5, 5)});
  }
  for (const char* name : {"aten::hardtanh", "aten::hardtanh_"}) {
    t.add(name, "defaults omitted", {f32({2, 6}, 71)});
    t.add(name, "float bounds", {f32({8}, 72), -0.5, 0.25});
    t.add(name, "int bounds, double", {f64({8}, 73), -2, 1});
  }
  t.add("aten::softmax.int", "last dim, negative", {f32({2, 3, 4}, 74), -1});
  t.add("aten::softmax.int", "dim 0", {f32({3, 2}, 75), 0});
  t.add("aten::softmax.int", "dim 1 of rank 3", {f32({2, 3, 4}, 76), 1});
  t.add("aten::softmax.int", "dtype double", {f32({2, 4}, 77), 1, kDoubleCode});
  t.add("aten::softmax.int", "double input", {f64({5}, 78), 0});

  // --- reductions -----------------------------------------------------------
  t.add("aten::mean", "float rank 3", {f32({2, 3, 4}, 80)});
  t.add("aten::mean", "double", {f64({7}, 81)});
  t.add("aten::mean", "dtype keyword double", {f32({3, 3}, 82)}, {{"dtype", kDoubleCode}});
  t.add("aten::mean.dim", "one dim", {f32({2, 3, 4}, 83), Ints{1}});
  t.add("aten::mean.dim", "negative dim, keepdim", {f32({2, 3, 4}, 84), Ints{-1}, true});
  t.add("aten::mean.dim", "two dims", {f32({2, 3, 4}, 85), Ints{0, 2}});
  t.add("aten::mean.dim", "a single int for int[1]", {f32({2, 3}, 86), 1});
  t.add("aten::mean.dim", "double, keepdim keyword", {f64({3, 4}, 87), Ints{0}},
        {{"keepdim", true}});
  t.add("aten::mean.dim", "dtype keyword", {f32({2, 3}, 88), Ints{1}}, {{"dtype", kDoubleCode}});

  // --- linear algebra -------------------------------------------------------
  t.add("aten::matmul", "2-D @ 2-D", {f32({3, 4}, 90), f32({4, 5}, 91)});
  t.add("aten::matmul", "3-D @ 2-D", {f32({2, 3, 4}, 92), f32({4, 5}, 93)});
  t.add("aten::matmul", "1-D @ 2-D", {f32({4}, 94), f32({4, 2}, 95)});
  t.add("aten::matmul", "batched broadcast", {f32({2, 1, 3, 4}, 96), f32({3, 4, 2}, 97)});
  t.add("aten::matmul", "double", {f64({2, 3}, 98), f64({3, 2}, 99)});
  t.add("aten::bmm", "float", {f32({2, 3, 4}, 100), f32({2, 4, 5}, 101)});
  t.add("aten::bmm", "double", {f64({3, 2, 2}, 102), f64({3, 2, 3}, 103)});
  t.add("aten::linear", "rank 2 with bias", {f32({3, 4}, 104), f32({5, 4}, 105), f32({5}, 106)});
  t.add("aten::linear", "rank 3 with bias", {f32({2, 3, 4}, 107), f32({5, 4}, 108), f32({5}, 109)});
  t.add("aten::linear", "bias omitted", {f32({3, 4}, 110), f32({2, 4}, 111)});
  t.add("aten::linear", "bias None, double", {f64({2, 3}, 112), f64({4, 3}, 113), Arg()});

  // --- shapes ---------------------------------------------------------------
  t.add("aten::cat", "dim 0", {std::vector<Value>{f32({2, 3}, 120), f32({1, 3}, 121)}, 0});
  t.add("aten::cat", "negative dim",
        {std::vector<Value>{f32({2, 3}, 122), f32({2, 2}, 123), f32({2, 1}, 124)}, -1});
  t.add("aten::cat", "dim omitted, int64", {std::vector<Value>{i64({2}, 125), i64({3}, 126)}});
  t.add("aten::cat", "bool", {std::vector<Value>{booleans({2, 2}, 127), booleans({2, 2}, 128)}, 1});
  t.add("aten::chunk", "uneven", {f32({5}, 130), 2});
  t.add("aten::chunk", "dim 1", {f32({2, 6}, 131), 3, 1});
  t.add("aten::chunk", "fewer chunks than asked, negative dim", {f32({2, 6}, 132), 4, -1});
  t.add("aten::chunk", "int64 dim omitted", {i64({4, 2}, 133), 2});
  t.add("aten::contiguous", "float", {f32({2, 3}, 134)});
  t.add("aten::contiguous", "memory_format keyword", {i64({4}, 135)},
        {{"memory_format", "contiguous_format"}});
  // TorchScript passes a MemoryFormat as its code (0: contiguous_format).
  t.add("aten::contiguous", "memory_format as TorchScript's code", {f32({3}, 139)},
        {{"memory_format", 0}});
  t.add("aten::expand", "new leading dims", {f32({3, 1}, 136), Ints{2, 3, 4}});
  t.add("aten::expand", "-1 keeps a size", {f32({1, 4}, 137), Ints{3, -1}});
  t.add("aten::expand", "implicit keyword, bool", {booleans({2, 1}, 138), Ints{2, 5}},
        {{"implicit", true}});
  t.add("aten::flatten.using_ints", "defaults omitted", {f32({2, 3, 4}, 140)});
  t.add("aten::flatten.using_ints", "from 1 (Flatten)", {f32({2, 3, 4}, 141), 1});
  t.add("aten::flatten.using_ints", "middle range", {f32({2, 3, 4, 5}, 142), 1, 2});
  t.add("aten::flatten.using_ints", "negative dims", {f32({2, 3, 4, 5}, 143), -3, -2});
  t.add("aten::flatten.using_ints", "single dim", {f32({2, 3}, 144), 1, 1});
  t.add("aten::flatten.using_ints", "0-D", {f32({}, 145)});
  t.add("aten::flatten.using_ints", "end_dim keyword, int64", {i64({2, 3, 2}, 146)},
        {{"end_dim", 1}});
  t.add("aten::permute", "rank 3", {f32({2, 3, 4}, 150), Ints{2, 0, 1}});
  t.add("aten::permute", "negative dims", {f32({2, 3, 4}, 151), Ints{-1, 0, -2}});
  t.add("aten::permute", "int64", {i64({2, 3}, 152), Ints{1, 0}});
  for (const char* name : {"aten::reshape", "aten::view"}) {
    t.add(name, "with -1", {f32({2, 3, 4}, 153), Ints{6, -1}});
    t.add(name, "to rank 1", {f32({2, 3}, 154), Ints{-1}});
    t.add(name, "int64 to rank 3", {i64({6}, 155), Ints{1, 2, 3}});
  }
  t.add("aten::select.int", "middle dim", {f32({2, 3, 4}, 160), 1, 2});
  t.add("aten::select.int", "negative dim and index", {f32({2, 3, 4}, 161), -1, -1});
  t.add("aten::select.int", "rank 1, int64", {i64({5}, 162), 0, 3});
  t.add("aten::slice.Tensor", "defaults omitted", {f32({4, 3}, 163)});
  t.add("aten::slice.Tensor", "start and end", {f32({4, 5}, 164), 1, 1, 3});
  t.add("aten::slice.Tensor", "end None", {f32({4, 5}, 165), 0, 1});
  t.add("aten::slice.Tensor", "negative start, step 2", {f32({4, 6}, 166), -1, -5, Arg(), 2});
  t.add("aten::slice.Tensor", "end past the size", {f32({5}, 167), 0, 2, 100});
  t.add("aten::slice.Tensor", "keywords", {i64({3, 6}, 168)},
        {{"dim", 1}, {"start", 1}, {"step", 3}});
  t.add("aten::size.int", "dim 1", {f32({2, 3, 4}, 170), 1});
  t.add("aten::size.int", "negative dim", {f32({2, 3, 4}, 171), -1});
  t.add("aten::transpose.int", "rank 3", {f32({2, 3, 4}, 172), 0, 2});
  t.add("aten::transpose.int", "negative dims", {f32({2, 3, 4}, 173), -1, -2});
  t.add("aten::transpose.int", "rank 1", {i64({4}, 174), 0, 0});
  t.add("aten::Int.Tensor", "float truncates", {f32({}, 175, 1, 3)});
  t.add("aten::Int.Tensor", "negative float truncates", {f32({}, 176, -3, -1)});
  t.add("aten::Int.Tensor", "int64", {i64({}, 177)});
  t.add("aten::Int.Tensor", "one element of rank 2", {f32({1, 1}, 178, 1, 5)});
  t.add("aten::size", "rank 3", {f32({2, 3, 4}, 194)});
  t.add("aten::size", "0-D", {i64({}, 195)});
  t.add("aten::size", "empty", {booleans({0, 2}, 196)});
  t.add("aten::dim", "rank 3", {f32({2, 3, 4}, 191)});
  t.add("aten::dim", "0-D int64", {i64({}, 192)});
  t.add("aten::dim", "empty rank 2", {f32({0, 3}, 193)});
  t.add("aten::Bool.Tensor", "float", {f32({}, 179)});
  t.add("aten::Bool.Tensor", "zero is false", {f32({1}, 186, 0, 0)});
  t.add("aten::Bool.Tensor", "bool", {booleans({}, 187)});
  t.add("aten::Bool.Tensor", "int64", {i64({}, 188)});
  t.add("aten::Float.Tensor", "float", {f32({}, 189)});
  t.add("aten::Float.Tensor", "int64 of rank 1", {i64({1}, 190)});
  t.add("aten::embedding", "rank 2 indices", {f32({5, 3}, 180), i64({2, 4}, 181, 0, 4)});
  t.add("aten::embedding", "padding_idx keyword", {f32({6, 2}, 182), i64({3}, 183, 0, 5)},
        {{"padding_idx", 0}});
  t.add("aten::embedding", "double weight", {f64({4, 3}, 184), i64({5}, 185, 0, 3)});
  t.add("aten::zeros", "float default", {Ints{2, 3}});
  t.add("aten::zeros", "dtype long keyword", {Ints{4}}, {{"dtype", kLong}});
  t.add("aten::zeros", "dtype bool keyword", {Ints{2, 2}}, {{"dtype", kBoolCode}});
  t.add("aten::zeros", "dtype float keyword, 0-D", {Ints{}}, {{"dtype", kFloatCode}});

  // --- nn -------------------------------------------------------------------
  const double conv_tol = 1e-4;
  for (const char* name : {"aten::convolution", "aten::_convolution"}) {
    const bool underscore = std::string(name) == "aten::_convolution";
    auto conv = [&](std::string label, std::vector<Arg> args) {
      if (underscore) {
        for (bool flag : {false, false, true, true}) args.emplace_back(flag);
      }
      t.add(name, std::move(label), std::move(args), {}, conv_tol);
    };
    conv("2-D with bias, padding 1", {f32({1, 2, 5, 5}, 190), f32({3, 2, 3, 3}, 191), f32({3}, 192),
                                      Ints{1, 1}, Ints{1, 1}, Ints{1, 1}, false, Ints{0, 0}, 1});
    conv("2-D stride 2, no bias", {f32({2, 2, 6, 6}, 193), f32({4, 2, 3, 3}, 194), Arg(),
                                   Ints{2, 2}, Ints{0, 0}, Ints{1, 1}, false, Ints{0, 0}, 1});
    conv("2-D groups 2", {f32({1, 4, 5, 5}, 195), f32({4, 2, 3, 3}, 196), f32({4}, 197), Ints{1, 1},
                          Ints{1, 1}, Ints{1, 1}, false, Ints{0, 0}, 2});
    conv("1-D dilation 2", {f32({1, 2, 9}, 198), f32({3, 2, 3}, 199), f32({3}, 200), Ints{1},
                            Ints{0}, Ints{2}, false, Ints{0}, 1});
    conv("2-D transposed, stride 2, output_padding 1",
         {f32({1, 2, 4, 4}, 201), f32({2, 3, 3, 3}, 202), f32({3}, 203), Ints{2, 2}, Ints{1, 1},
          Ints{1, 1}, true, Ints{1, 1}, 1});
  }
  t.add("aten::conv2d", "defaults omitted", {f32({1, 2, 5, 5}, 204), f32({3, 2, 3, 3}, 205)}, {},
        conv_tol);
  t.add("aten::conv2d", "bias, stride, single-int padding",
        {f32({1, 2, 6, 6}, 206), f32({2, 2, 3, 3}, 207), f32({2}, 208), Ints{2, 2}, 1}, {},
        conv_tol);
  t.add("aten::conv2d", "keywords: dilation, groups",
        {f32({1, 4, 7, 7}, 209), f32({2, 2, 3, 3}, 210)}, {{"dilation", Ints{2, 2}}, {"groups", 2}},
        conv_tol);
  t.add("aten::conv2d", "double", {f64({1, 1, 4, 4}, 211), f64({1, 1, 2, 2}, 212)});
  t.onnxruntime_lacks("no double Conv");
  t.add("aten::batch_norm", "inference",
        {f32({2, 3, 4, 4}, 220), f32({3}, 221), f32({3}, 222), f32({3}, 223), f32({3}, 224, 0.5, 2),
         false, 0.1, 1e-5, true},
        {}, conv_tol);
  t.add("aten::batch_norm", "inference without weight and bias",
        {f32({2, 3, 2}, 225), Arg(), Arg(), f32({3}, 226), f32({3}, 227, 0.5, 2), false, 0.1, 1e-3,
         false},
        {}, conv_tol);
  t.add("aten::batch_norm", "training with running statistics",
        {f32({4, 2, 3, 3}, 228), f32({2}, 229), f32({2}, 230), f32({2}, 231), f32({2}, 232, 0.5, 2),
         true, 0.1, 1e-5, true},
        {}, conv_tol);
  t.add("aten::batch_norm", "training without running statistics",
        {f32({4, 3, 5}, 233), f32({3}, 234), f32({3}, 235), Arg(), Arg(), true, 0.1, 1e-5, true},
        {}, conv_tol);
  t.add("aten::layer_norm", "defaults omitted", {f32({2, 3, 4}, 240), Ints{4}}, {}, conv_tol);
  t.add("aten::layer_norm", "two dims, weight and bias, eps keyword",
        {f32({2, 3, 4}, 241), Ints{3, 4}, f32({3, 4}, 242), f32({3, 4}, 243)}, {{"eps", 1e-3}},
        conv_tol);
  t.add("aten::layer_norm", "weight only, double", {f64({3, 5}, 244), Ints{5}, f64({5}, 245)});
  t.add("aten::max_pool2d", "kernel 2, stride omitted", {f32({1, 2, 6, 6}, 250), Ints{2, 2}});
  t.add("aten::max_pool2d", "kernel 3 stride 2 padding 1",
        {f32({1, 2, 7, 7}, 251), Ints{3, 3}, Ints{2, 2}, Ints{1, 1}});
  t.add("aten::max_pool2d", "ceil_mode keyword", {f32({1, 1, 5, 5}, 252), Ints{2, 2}},
        {{"ceil_mode", true}});
  t.add("aten::max_pool2d", "dilation 2, single-int kernel",
        {f32({2, 1, 7, 7}, 253), 2, Ints{1, 1}, Ints{0, 0}, Ints{2, 2}});
  t.add("aten::avg_pool2d", "kernel 2, stride omitted", {f32({1, 2, 6, 6}, 254), Ints{2, 2}});
  t.add("aten::avg_pool2d", "padding, count_include_pad default",
        {f32({1, 2, 5, 5}, 255), Ints{3, 3}, Ints{2, 2}, Ints{1, 1}});
  t.add("aten::avg_pool2d", "count_include_pad keyword false",
        {f32({1, 2, 5, 5}, 256), Ints{3, 3}, Ints{2, 2}, Ints{1, 1}},
        {{"count_include_pad", false}});
  t.add("aten::avg_pool2d", "ceil_mode",
        {f32({1, 1, 5, 5}, 257), Ints{2, 2}, Ints{2, 2}, Ints{0, 0}, true});
  t.add("aten::adaptive_avg_pool2d", "1x1 (global)", {f32({2, 3, 5, 4}, 258), Ints{1, 1}});
  t.add("aten::adaptive_avg_pool2d", "divisible sizes", {f32({1, 2, 4, 6}, 259), Ints{2, 3}});
  t.add("aten::adaptive_avg_pool2d", "double, single int", {f64({1, 1, 4, 4}, 260), 2});
  t.onnxruntime_lacks("no double AveragePool");
  // The shape functions on bool tensors.
  t.add("aten::permute", "bool", {booleans({2, 3}, 310), Ints{1, 0}});
  t.add("aten::transpose.int", "bool", {booleans({2, 3}, 311), 0, 1});
  t.add("aten::select.int", "bool", {booleans({3, 2}, 312), 1, 0});
  t.add("aten::slice.Tensor", "bool", {booleans({6}, 313), 0, 1, 5, 2});
  t.add("aten::reshape", "bool", {booleans({2, 3}, 314), Ints{3, 2}});
  t.add("aten::view", "double", {f64({2, 3}, 315), Ints{3, -1}});
  t.add("aten::flatten.using_ints", "bool", {booleans({2, 2, 2}, 316), 1});
  t.add("aten::chunk", "bool", {booleans({4}, 317), 2});
  t.add("aten::cat", "double", {std::vector<Value>{f64({2}, 318), f64({1}, 319)}});
}

}  // namespace onnxscript::torch_lib::comparison
