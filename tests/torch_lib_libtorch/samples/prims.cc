// Samples of PyTorch's primitives (src/lib/torch_lib/ops/prims.cc). LibTorch
// has no prims:: schemas (Python registers them), so each sample takes its
// expected values from the aten:: operator that computes the same on the
// same arguments (SampleTable::reference). Also here: aten::var and
// aten::squeeze (registered in reduction_more.cc and shape_more.cc), the
// aten operators prims::var and prims::squeeze stand for.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 40000;
  return seed++;
}

}  // namespace

void add_prims_samples(SampleTable& t) {
  // Unary primitives: the aten operator of the same name.
  // ort_double: the ONNX operator ONNX Runtime 1.30 lacks a double kernel for.
  struct Unary {
    const char* name;
    double lo, hi;
    const char* ort_double = nullptr;
  };
  for (const Unary& u : std::initializer_list<Unary>{{"abs", -3, 3},
                                                     {"acos", -0.95, 0.95, "Acos"},
                                                     {"acosh", 1, 5, "Acosh"},
                                                     {"asin", -0.95, 0.95, "Asin"},
                                                     {"asinh", -3, 3, "Asinh"},
                                                     {"atan", -3, 3, "Atan"},
                                                     {"atanh", -0.95, 0.95, "Atanh"},
                                                     {"cos", -3, 3},
                                                     {"cosh", -3, 3, "Cosh"},
                                                     {"erf", -3, 3, "Erf"},
                                                     {"exp", -3, 3},
                                                     {"floor", -3, 3},
                                                     {"log", 0.05, 6},
                                                     {"neg", -3, 3},
                                                     {"round", -3, 3},
                                                     {"sin", -3, 3},
                                                     {"sinh", -3, 3, "Sinh"},
                                                     {"sqrt", 0.05, 6},
                                                     {"tan", -1.4, 1.4, "Tan"},
                                                     {"tanh", -3, 3}}) {
    const std::string prim = std::string("prims::") + u.name, aten = std::string("aten::") + u.name;
    t.add(prim, "rank 3", {f32({2, 3, 4}, next_seed(), u.lo, u.hi)});
    t.reference(aten);
    t.add(prim, "0-D", {f32({}, next_seed(), u.lo, u.hi)});
    t.reference(aten);
    t.add(prim, "empty", {f32({0, 2}, next_seed(), u.lo, u.hi)});
    t.reference(aten);
    t.add(prim, "double", {f64({5}, next_seed(), u.lo, u.hi)});
    t.reference(aten);
    if (u.ort_double) t.onnxruntime_lacks(std::string("no double ") + u.ort_double);
    // LibTorch 1.13 lacks float16 CPU kernels for the others.
    if (u.name == std::string("abs") || u.name == std::string("neg")) {
      t.add(prim, "float16", {f16({4}, next_seed(), u.lo, u.hi)});
      t.reference(aten);
    }
  }
  for (const char* name : {"abs", "neg", "floor", "round"}) {
    t.add(std::string("prims::") + name, "int64", {i64({6}, next_seed())});
    t.reference(std::string("aten::") + name);
  }

  // Binary primitives: operands of one shape and type (no alpha, no
  // promotion), as aten's Tensor overloads with alpha 1.
  for (const char* name : {"add", "sub", "mul", "div"}) {
    const std::string prim = std::string("prims::") + name;
    const std::string aten = std::string("aten::") + name + ".Tensor";
    t.add(prim, "float rank 2", {f32({2, 3}, next_seed()), nonzero_f32({2, 3}, next_seed())});
    t.reference(aten);
    t.add(prim, "rank 4", {f32({2, 1, 2, 3}, next_seed()), nonzero_f32({2, 1, 2, 3}, next_seed())});
    t.reference(aten);
    t.add(prim, "0-D", {f32({}, next_seed()), nonzero_f32({}, next_seed())});
    t.reference(aten);
    t.add(prim, "empty", {f32({0, 3}, next_seed()), f32({0, 3}, next_seed())});
    t.reference(aten);
    t.add(prim, "double", {f64({4}, next_seed()), f64({4}, next_seed(), 0.5, 3)});
    t.reference(aten);
    t.add(prim, "float16", {f16({4}, next_seed()), f16({4}, next_seed(), 0.5, 3)});
    t.reference(aten);
  }
  for (const char* name : {"add", "sub", "mul"}) {
    t.add(std::string("prims::") + name, "int64", {i64({5}, next_seed()), i64({5}, next_seed())});
    t.reference(std::string("aten::") + name + ".Tensor");
  }
  // prims.div truncates integers; on non-negative operands truncation is
  // floor division.
  t.add("prims::div", "int64 non-negative truncates",
        {i64({6}, next_seed(), 0, 30), i64({6}, next_seed(), 1, 7)});
  t.reference("aten::floor_divide");

  // Shapes.
  t.add("prims::reshape", "with -1", {f32({2, 3, 4}, next_seed()), Ints{4, -1}});
  t.reference("aten::reshape");
  t.add("prims::reshape", "to 0-D", {f32({1, 1}, next_seed()), Ints{}});
  t.reference("aten::reshape");
  t.add("prims::reshape", "int64 to rank 4", {i64({6}, next_seed()), Ints{1, 2, 3, 1}});
  t.reference("aten::reshape");
  t.add("prims::reshape", "empty", {f32({0, 3}, next_seed()), Ints{3, 0}});
  t.reference("aten::reshape");
  t.add("prims::transpose", "rank 3", {f32({2, 3, 4}, next_seed()), Ints{2, 0, 1}});
  t.reference("aten::permute");
  t.add("prims::transpose", "rank 2, bool", {booleans({2, 3}, next_seed()), Ints{1, 0}});
  t.reference("aten::permute");
  t.add("prims::transpose", "rank 4, int64", {i64({1, 2, 3, 2}, next_seed()), Ints{3, 1, 0, 2}});
  t.reference("aten::permute");
  t.add("prims::transpose", "0-D", {f32({}, next_seed()), Ints{}});
  t.reference("aten::permute");
  // LibTorch 1.13 squeezes one dim at a time (no squeeze.dims): a single
  // int, which prims' int[] takes as a list of one.
  t.add("prims::squeeze", "one dimension", {f32({2, 1, 3}, next_seed()), 1});
  t.reference("aten::squeeze.dim");
  t.add("prims::squeeze", "last dimension, int64", {i64({3, 1}, next_seed()), 1});
  t.reference("aten::squeeze.dim");
  t.add("prims::squeeze", "0 of a rank 1 tensor of one element", {f32({1}, next_seed()), 0});
  t.reference("aten::squeeze.dim");
  // broadcast_in_dim without new dimensions: a size-1 dim read with stride 0
  // and the others with their contiguous strides is what as_strided
  // computes when those strides are the broadcast_dimensions' values.
  t.add("prims::broadcast_in_dim", "[1, 3] to [2, 3]",
        {f32({1, 3}, next_seed()), Ints{2, 3}, Ints{0, 1}});
  t.reference("aten::as_strided");
  t.add("prims::broadcast_in_dim", "[1] to [5]", {f32({1}, next_seed()), Ints{5}, Ints{0}});
  t.reference("aten::as_strided");
  t.add("prims::broadcast_in_dim", "int64 [1] to [4]", {i64({1}, next_seed()), Ints{4}, Ints{0}});
  t.reference("aten::as_strided");

  // Element types and devices: aten::_to_copy takes them as keywords.
  struct Conversion {
    const char* label;
    Value input;
    int64_t dtype;
  };
  for (const Conversion& c : std::initializer_list<Conversion>{
           {"float to int64 truncates", f32({2, 3}, next_seed(), -9, 9), kLong},
           {"float to double", f32({4}, next_seed()), kDoubleCode},
           {"float to float16", f32({4}, next_seed()), kHalfCode},
           {"float to bool", Value(Tensor::from<float>({0, 1.5f, -2, 0}, {4})), kBoolCode},
           {"int64 to float", i64({5}, next_seed()), kFloatCode},
           {"bool to int64", booleans({2, 2}, next_seed()), kLong},
           {"int64 to int32, 0-D", i64({}, next_seed()), kInt32Code},
           {"double to float, empty", f64({0, 2}, next_seed()), kFloatCode},
       }) {
    t.add("prims::convert_element_type", c.label, {c.input}, {{"dtype", c.dtype}});
    t.reference("aten::_to_copy");
  }
  t.add("prims::device_put", "cpu", {f32({2, 3}, next_seed())}, {{"device", "cpu"}});
  t.reference("aten::_to_copy");
  t.add("prims::device_put", "int64 0-D", {i64({}, next_seed())}, {{"device", "cpu"}});
  t.reference("aten::_to_copy");

  // prims.var: dims and a keyword correction, as aten::var.correction.
  t.add("prims::var", "one dim, correction 1", {f32({3, 4}, next_seed()), Ints{1}},
        {{"correction", 1}});
  t.reference("aten::var.correction");
  t.add("prims::var", "all dims, correction 0", {f32({2, 3, 2}, next_seed()), Ints{0, 1, 2}},
        {{"correction", 0}});
  t.reference("aten::var.correction");
  t.add("prims::var", "negative dim, double", {f64({2, 5}, next_seed()), Ints{-1}},
        {{"correction", 1}});
  t.reference("aten::var.correction");
  t.add("prims::var", "dims None", {f32({4, 2}, next_seed()), Arg()}, {{"correction", 1}});
  t.reference("aten::var.correction");

  // aten::var, its three overloads.
  t.add("aten::var", "unbiased omitted", {f32({3, 4}, next_seed())});
  t.add("aten::var", "unbiased false", {f32({2, 3, 2}, next_seed()), false});
  t.add("aten::var", "unbiased keyword, double", {f64({7}, next_seed())}, {{"unbiased", true}});
  t.add("aten::var", "rank 4", {f32({2, 1, 3, 2}, next_seed())});
  t.add("aten::var", "0-D, biased", {f32({}, next_seed()), false});
  t.add("aten::var.dim", "one dim", {f32({3, 4}, next_seed()), Ints{1}});
  t.add("aten::var.dim", "negative dim, keepdim",
        {f32({2, 3, 4}, next_seed()), Ints{-1}, true, true});
  t.add("aten::var.dim", "two dims, biased", {f32({2, 3, 4}, next_seed()), Ints{0, 2}, false});
  t.add("aten::var.dim", "a single int for int[1]", {f32({4, 3}, next_seed()), 0});
  t.add("aten::var.dim", "dim None", {f32({3, 3}, next_seed()), Arg()});
  t.add("aten::var.dim", "keepdim keyword, double", {f64({2, 5}, next_seed()), Ints{1}},
        {{"keepdim", true}});
  t.add("aten::var.dim", "rank 4, size-1 dim", {f32({2, 1, 3, 2}, next_seed()), Ints{1, 3}});
  t.add("aten::var.correction", "correction None (1)", {f32({3, 4}, next_seed()), Ints{1}},
        {{"correction", Arg()}});
  t.add("aten::var.correction", "correction 0", {f32({3, 4}, next_seed()), Ints{0}},
        {{"correction", 0}});
  t.add("aten::var.correction", "correction 2, keepdim", {f32({2, 6}, next_seed()), Ints{-1}},
        {{"correction", 2}, {"keepdim", true}});
  t.add("aten::var.correction", "dim None", {f32({2, 3}, next_seed()), Arg()}, {{"correction", 1}});
  t.add("aten::var.correction", "double", {f64({4, 2}, next_seed()), Ints{0}}, {{"correction", 1}});

  // aten::squeeze, every size-1 dim or one.
  t.add("aten::squeeze", "every size-1 dim", {f32({1, 3, 1, 2}, next_seed())});
  t.add("aten::squeeze", "none to remove", {f32({2, 3}, next_seed())});
  t.add("aten::squeeze", "to 0-D", {f32({1, 1}, next_seed())});
  t.add("aten::squeeze", "0-D", {f32({}, next_seed())});
  t.add("aten::squeeze", "int64", {i64({1, 4}, next_seed())});
  t.add("aten::squeeze", "bool", {booleans({2, 1}, next_seed())});
  t.add("aten::squeeze", "empty keeps its 0-size dim", {f32({0, 1, 2}, next_seed())});
  t.add("aten::squeeze.dim", "size-1 dim", {f32({2, 1, 3}, next_seed()), 1});
  t.add("aten::squeeze.dim", "negative dim", {f32({2, 3, 1}, next_seed()), -1});
  t.add("aten::squeeze.dim", "a dim not of size 1 stays", {f32({2, 3}, next_seed()), 0});
  t.add("aten::squeeze.dim", "0-D, dim 0", {f32({}, next_seed()), 0});
  t.add("aten::squeeze.dim", "0-D, dim -1", {i64({}, next_seed()), -1});
  t.add("aten::squeeze.dim", "rank 4, double", {f64({1, 2, 1, 3}, next_seed()), 2});
  t.add("aten::squeeze.dim", "bool", {booleans({1, 3}, next_seed()), 0});
  t.add("aten::squeeze.dim", "empty", {f32({0, 1}, next_seed()), 1});
}

}  // namespace onnxscript::torch_lib::comparison
