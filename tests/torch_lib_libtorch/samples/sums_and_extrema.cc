// Samples of ceil and of the sums, products and extrema (sum, prod, amax,
// amin and their prims), from the unary, reduction and prims families
// (src/lib/torch_lib/ops/unary.cc, reduction_more.cc, prims.cc).

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {

void add_sums_and_extrema_samples(SampleTable& t) {
  // --- unary: ceil ------------------------------------------------------------
  for (const char* name : {"aten::ceil", "aten::ceil_"}) {
    t.add(name, "float rank 2", {f32({2, 3}, 5000, -5, 5)});
    t.add(name, "0-D", {f32({}, 5001, -5, 5)});
    t.add(name, "double rank 4", {f64({1, 2, 2, 2}, 5002, -5, 5)});
    t.add(name, "empty", {f32({0, 3}, 5004)});
    t.add(name, "int64 unchanged", {i64({5}, 5005)});
  }
  t.add("prims::ceil", "float", {f32({2, 3}, 5010, -5, 5)});
  t.reference("aten::ceil");
  t.add("prims::ceil", "double 0-D", {f64({}, 5011, -5, 5)});
  t.reference("aten::ceil");

  // --- reductions -------------------------------------------------------------
  // Sums and products of a handful of elements: a little rounding.
  const double tol = 1e-4;
  for (const char* name : {"aten::amax", "aten::amin"}) {
    t.add(name, "all dims (dim omitted)", {f32({2, 3, 4}, 5020)});
    t.add(name, "one dim", {f32({3, 4}, 5021), Ints{1}});
    t.add(name, "negative dim, keepdim", {f32({2, 3, 4}, 5022), Ints{-1}, true});
    t.add(name, "two dims", {f32({2, 3, 4, 2}, 5023), Ints{0, 2}});
    t.add(name, "single int, keepdim keyword", {i64({3, 4}, 5024), 0}, {{"keepdim", true}});
    t.add(name, "double", {f64({5}, 5025), Ints{0}});
    t.add(name, "float16", {f16({2, 3}, 5026), Ints{1}});
    t.add(name, "bool", {booleans({2, 3}, 5027), Ints{1}});
    t.add(name, "0-D", {f32({}, 5028)});
    t.add(name, "empty dim kept out of the reduction", {f32({0, 3}, 5029), Ints{1}});
  }
  t.add("aten::sum", "float rank 3", {f32({2, 3, 4}, 5040)}, {}, tol);
  t.add("aten::sum", "int64", {i64({5}, 5041)});
  t.add("aten::sum", "bool counts as int64", {booleans({6}, 5042)});
  t.add("aten::sum", "0-D", {f32({}, 5043)});
  t.add("aten::sum", "empty", {f32({0, 2}, 5044)});
  t.add("aten::sum", "dtype keyword double", {f32({3, 3}, 5045)}, {{"dtype", kDoubleCode}});
  t.add("aten::sum", "float16", {f16({4}, 5046)}, {}, 1e-2);
  t.add("aten::sum.dim_IntList", "one dim", {f32({2, 3, 4}, 5050), Ints{1}}, {}, tol);
  t.add("aten::sum.dim_IntList", "negative dim, keepdim", {f32({2, 3, 4}, 5051), Ints{-1}, true},
        {}, tol);
  t.add("aten::sum.dim_IntList", "two dims", {f32({2, 3, 4}, 5052), Ints{0, 2}}, {}, tol);
  t.add("aten::sum.dim_IntList", "dim None sums all", {f32({3, 2}, 5053), Arg()}, {}, tol);
  t.add("aten::sum.dim_IntList", "empty list sums all", {f32({3, 2}, 5054), Ints{}}, {}, tol);
  t.add("aten::sum.dim_IntList", "int64, keepdim keyword", {i64({3, 4}, 5055), Ints{0}},
        {{"keepdim", true}});
  t.add("aten::sum.dim_IntList", "bool", {booleans({2, 5}, 5056), Ints{1}});
  t.add("aten::sum.dim_IntList", "dtype keyword", {i64({2, 3}, 5057), Ints{1}},
        {{"dtype", kFloatCode}});
  t.add("aten::sum.dim_IntList", "float16 rank 4", {f16({1, 2, 2, 3}, 5058), Ints{3}}, {}, 1e-2);
  t.add("aten::sum.dim_IntList", "empty dim reduced", {f32({0, 3}, 5059), Ints{0}});
  t.add("aten::sum.dim_IntList", "0-D over dim 0", {f32({}, 5049), Ints{0}});
  t.add("aten::prod", "float rank 2", {f32({2, 3}, 5060, 0.5, 1.5)}, {}, tol);
  t.add("aten::prod", "int64", {i64({5}, 5061, -3, 3)});
  t.add("aten::prod", "bool gives int64", {booleans({4}, 5062)});
  t.add("aten::prod", "0-D", {f32({}, 5063)});
  t.add("aten::prod", "empty is 1", {f32({0}, 5064)});
  t.add("aten::prod", "dtype keyword double", {f32({4}, 5065)}, {{"dtype", kDoubleCode}});
  t.add("aten::prod.dim_int", "dim 1", {f32({2, 3, 4}, 5070, 0.5, 1.5), 1}, {}, tol);
  t.add("aten::prod.dim_int", "negative dim, keepdim", {f32({2, 3}, 5071), -1, true}, {}, tol);
  t.add("aten::prod.dim_int", "int64", {i64({3, 4}, 5072, -3, 3), 0});
  t.add("aten::prod.dim_int", "bool", {booleans({2, 3}, 5073), 1});
  t.add("aten::prod.dim_int", "dtype keyword", {i64({2, 3}, 5074, -3, 3), 1},
        {{"dtype", kFloatCode}});
  t.add("aten::prod.dim_int", "0-D", {f32({}, 5076), 0});

  t.add("prims::sum", "one dim", {f32({2, 3, 4}, 5080), Ints{1}}, {}, tol);
  t.reference("aten::sum.dim_IntList");
  t.add("prims::sum", "two dims, int64", {i64({2, 3, 4}, 5081), Ints{0, 2}});
  t.reference("aten::sum.dim_IntList");
  t.add("prims::sum", "negative dim, double", {f64({3, 2}, 5082), Ints{-1}});
  t.reference("aten::sum.dim_IntList");
}

}  // namespace onnxscript::torch_lib::comparison
