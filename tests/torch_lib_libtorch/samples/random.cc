// Samples of the random operators (src/lib/torch_lib/ops/random.cc). Their
// draws come from ONNX's random operators, not PyTorch's generator, so a
// random sample compares element types and shapes only (SampleTable::random);
// where a distribution has a single outcome (bernoulli with probabilities 0
// and 1, multinomial of a one-hot distribution) the values are compared too.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 50000;
  return seed++;
}

}  // namespace

void add_random_samples(SampleTable& t) {
  // rand and randn: a size and the dtype keyword.
  for (const char* name : {"aten::rand", "aten::randn"}) {
    t.add(name, "rank 2, dtype omitted", {Ints{2, 3}});
    t.random();
    t.add(name, "0-D", {Ints{}});
    t.random();
    t.add(name, "rank 4", {Ints{2, 1, 3, 2}});
    t.random();
    t.add(name, "empty", {Ints{0, 4}});
    t.random();
    t.add(name, "dtype double", {Ints{5}}, {{"dtype", kDoubleCode}});
    t.random();
    t.add(name, "dtype float", {Ints{3}}, {{"dtype", kFloatCode}});
    t.random();
  }
  // rand_like and randn_like: self's shape and type, or dtype's.
  for (const char* name : {"aten::rand_like", "aten::randn_like"}) {
    t.add(name, "float rank 3", {f32({2, 3, 4}, next_seed())});
    t.random();
    t.add(name, "double", {f64({5}, next_seed())});
    t.random();
    t.add(name, "0-D", {f32({}, next_seed())});
    t.random();
    t.add(name, "empty", {f32({0, 2}, next_seed())});
    t.random();
    t.add(name, "dtype double keyword", {f32({2, 2}, next_seed())}, {{"dtype", kDoubleCode}});
    t.random();
    t.add(name, "int64 self, dtype float", {i64({3}, next_seed())}, {{"dtype", kFloatCode}});
    t.random();
  }
  // randint: [0, high) or [low, high), int64 unless dtype says otherwise.
  t.add("aten::randint", "rank 2", {10, Ints{2, 3}});
  t.random();
  t.add("aten::randint", "0-D", {5, Ints{}});
  t.random();
  t.add("aten::randint", "empty", {5, Ints{0, 2}});
  t.random();
  t.add("aten::randint", "dtype float", {7, Ints{4}}, {{"dtype", kFloatCode}});
  t.random();
  t.add("aten::randint", "dtype int32", {7, Ints{2, 2}}, {{"dtype", kInt32Code}});
  t.random();
  t.add("aten::randint", "high 1: all zeros", {1, Ints{2, 3}});
  t.add("aten::randint.low", "rank 2", {-5, 5, Ints{3, 2}});
  t.random();
  t.add("aten::randint.low", "rank 4", {0, 3, Ints{1, 2, 2, 2}});
  t.random();
  t.add("aten::randint.low", "dtype double", {2, 9, Ints{4}}, {{"dtype", kDoubleCode}});
  t.random();
  t.add("aten::randint.low", "a single value", {4, 5, Ints{3}});
  // randint_like: self's shape and type.
  t.add("aten::randint_like", "int64 self", {i64({2, 3}, next_seed()), 10});
  t.random();
  t.add("aten::randint_like", "float self", {f32({4}, next_seed()), 6});
  t.random();
  t.add("aten::randint_like", "0-D", {i64({}, next_seed()), 3});
  t.random();
  t.add("aten::randint_like", "dtype int32 keyword", {f32({2, 2}, next_seed()), 8},
        {{"dtype", kInt32Code}});
  t.random();
  t.add("aten::randint_like", "high 1: all zeros", {f32({2, 3}, next_seed()), 1});
  t.add("aten::randint_like.low_dtype", "int64 self", {i64({2, 3}, next_seed()), -4, 4});
  t.random();
  t.add("aten::randint_like.low_dtype", "double self, empty", {f64({0, 3}, next_seed()), 0, 4});
  t.random();
  t.add("aten::randint_like.low_dtype", "dtype float keyword", {i64({5}, next_seed()), 1, 9},
        {{"dtype", kFloatCode}});
  t.random();
  t.add("aten::randint_like.low_dtype", "a single value", {i64({4}, next_seed()), 7, 8});

  // bernoulli: self's probabilities; bernoulli.p: one probability.
  t.add("aten::bernoulli", "float probabilities", {f32({3, 4}, next_seed(), 0, 1)});
  t.random();
  t.add("aten::bernoulli", "double", {f64({5}, next_seed(), 0, 1)});
  t.random();
  t.add("aten::bernoulli", "0-D", {f32({}, next_seed(), 0, 1)});
  t.random();
  t.add("aten::bernoulli", "empty", {f32({0, 3}, next_seed(), 0, 1)});
  t.random();
  t.add("aten::bernoulli", "probabilities 0 and 1",
        {Value(Tensor::from<float>({0, 1, 1, 0, 1, 0}, {2, 3}))});
  t.add("aten::bernoulli", "double probabilities 0 and 1",
        {Value(Tensor::from<double>({1, 0, 1}, {3}))});
  t.add("aten::bernoulli.p", "p 0.3", {f32({2, 3}, next_seed()), 0.3});
  t.random();
  t.add("aten::bernoulli.p", "double, rank 4", {f64({1, 2, 2, 2}, next_seed()), 0.5});
  t.random();
  t.add("aten::bernoulli.p", "0-D", {f32({}, next_seed()), 0.5});
  t.random();
  t.add("aten::bernoulli.p", "empty", {f32({0}, next_seed()), 0.5});
  t.random();
  t.add("aten::bernoulli.p", "p 0: all zeros", {f32({2, 3}, next_seed()), 0.0});
  t.add("aten::bernoulli.p", "p 1: all ones", {f32({4}, next_seed()), 1.0});
  t.add("aten::bernoulli.p", "p 1, double, int p", {f64({3}, next_seed()), 1});

  // normal: each of mean and std a tensor or a float.
  t.add("aten::normal.Tensor_float", "std omitted", {f32({2, 3}, next_seed())});
  t.random();
  t.add("aten::normal.Tensor_float", "std 2, double", {f64({4}, next_seed()), 2.0});
  t.random();
  t.add("aten::normal.Tensor_float", "0-D", {f32({}, next_seed()), 0.5});
  t.random();
  t.add("aten::normal.Tensor_float", "std 0: the mean", {f32({2, 2}, next_seed()), 0.0});
  t.add("aten::normal.float_Tensor", "rank 2", {1.5, f32({2, 3}, next_seed(), 0.1, 2)});
  t.random();
  t.add("aten::normal.float_Tensor", "double, empty", {0.0, f64({0, 2}, next_seed(), 0.1, 2)});
  t.random();
  t.add("aten::normal.float_Tensor", "std 0: the mean", {-2.0, f32({3}, next_seed(), 0, 0)});
  t.add("aten::normal.Tensor_Tensor", "same shape",
        {f32({2, 3}, next_seed()), f32({2, 3}, next_seed(), 0.1, 2)});
  t.random();
  t.add("aten::normal.Tensor_Tensor", "rank 4",
        {f32({1, 2, 2, 2}, next_seed()), f32({1, 2, 2, 2}, next_seed(), 0.1, 2)});
  t.random();
  t.add("aten::normal.Tensor_Tensor", "std 0: the mean",
        {f32({4}, next_seed()), f32({4}, next_seed(), 0, 0)});
  t.add("aten::normal.float_float", "rank 2", {0.0, 1.0, Ints{2, 3}});
  t.random();
  t.add("aten::normal.float_float", "0-D", {2.0, 0.5, Ints{}});
  t.random();
  t.add("aten::normal.float_float", "empty", {0.0, 1.0, Ints{0, 3}});
  t.random();
  t.add("aten::normal.float_float", "dtype double keyword", {1.0, 2.0, Ints{4}},
        {{"dtype", kDoubleCode}});
  t.random();

  // normal_functional: draws of self's shape and type.
  t.add("aten::normal_functional", "defaults, rank 2", {f32({2, 3}, next_seed())});
  t.random();
  t.add("aten::normal_functional", "mean and std, double", {f64({4}, next_seed()), 1.0, 0.5});
  t.random();
  t.add("aten::normal_functional", "std keyword, 0-D", {f32({}, next_seed())}, {{"std", 2.0}});
  t.random();

  // multinomial: one draw without replacement, several with.
  t.add("aten::multinomial", "one draw, rank 1", {f32({5}, next_seed(), 0.1, 1), 1});
  t.random();
  t.add("aten::multinomial", "several with replacement, rank 2",
        {f32({3, 4}, next_seed(), 0.1, 1), 6, true});
  t.random();
  t.add("aten::multinomial", "replacement keyword, double", {f64({4}, next_seed(), 0.1, 1), 3},
        {{"replacement", true}});
  t.random();
  t.onnxruntime_lacks("no double Multinomial");
  t.add("aten::multinomial", "a one-hot distribution draws its one index",
        {Value(Tensor::from<float>({0, 0, 2, 0, 1, 0, 0, 0}, {2, 4})), 3, true});
}

}  // namespace onnxscript::torch_lib::comparison
