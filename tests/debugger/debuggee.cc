// The program tests/debugger/check.cmake runs under gdb: it builds one value
// of each type the pretty printers print (tools/gdb/onnxscript_printers.py),
// and runs a script lambda traced and then eagerly. The comments `// line:`
// and `// stop:` mark the lines the check sets breakpoints on; the check
// finds them by their text, so lines may move.
#include <onnxscript/onnxscript.h>

#include <cstring>
#include <iostream>
#include <string>

using namespace onnxscript;
namespace op = onnxscript::opset17;

namespace {

// Where the check looks at the IR: the traced values of the lambda below.
ir::Value* g_relu_ir = nullptr;

const Function ScaledRelu = script("ScaledRelu", {"X"}, [](FLOAT<"N", 3> X) {
  Value half = 0.5;                          // line: a
  Value scaled = X * half;                   // line: b
  Value relu = op::Relu(scaled).named("R");  // line: c
  if (relu.is_traced()) g_relu_ir = relu.ir_value();
  Value out = relu + X;  // line: d stop: lambda
  return out;            // line: e
});

// Keeps `p` from being optimized away, so that gdb can print what it points at.
void keep(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

}  // namespace

int main() {
  Tensor t = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor longer = Tensor::arange<int64_t>(0, 12);
  Tensor halves(DataType::kFloat16, {3});
  halves.data<float16>()[0] = float16(1.5f);
  halves.data<float16>()[1] = float16(-2.0f);
  halves.data<float16>()[2] = float16(0.25f);
  Tensor brains(DataType::kBfloat16, {2});
  brains.data<bfloat16>()[0] = bfloat16(3.0f);
  brains.data<bfloat16>()[1] = bfloat16(-0.5f);
  Tensor flags = Tensor::from<bool>({true, false, true});
  Tensor words(DataType::kString, {2});
  words.data<std::string>()[0] = "hello";
  words.data<std::string>()[1] = "a string longer than forty characters, cut short";
  Tensor scalar = Tensor::scalar<double>(0.25);
  Tensor empty;
  eval::RuntimeValue rv_tensor = t;
  eval::RuntimeValue rv_sequence =
      eval::RuntimeValue::sequence(ir::Type::tensor(DataType::kInt64),
                                   {Tensor::from<int64_t>({7, 8}), Tensor::from<int64_t>({9})});
  eval::RuntimeValue rv_none;
  Value literal_float = 0.5;
  Value literal_int = 3;
  Value literal_bool = true;
  Value none;
  // Bytes that are no object: the printers must say so, not fail.
  alignas(Tensor) unsigned char junk[256];
  std::memset(junk, 0xAB, sizeof(junk));
  keep(&t), keep(&longer), keep(&halves), keep(&brains), keep(&flags), keep(&words);
  keep(&scalar), keep(&empty), keep(&rv_tensor), keep(&rv_sequence), keep(&rv_none);
  keep(&literal_float), keep(&literal_int), keep(&literal_bool), keep(&none), keep(junk);

  std::cout << ScaledRelu.to_text().size() << "\n";  // stop: main (traces the lambda)
  Tensor result = ScaledRelu(t);                     // runs the lambda eagerly
  keep(&result);
  std::cout << result << "\n";
  return 0;
}
