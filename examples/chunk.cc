// torch.chunk as an ONNX function with attributes, and a model that returns a
// sequence of up to ten tensors.
// Usage: chunk [OUTPUT_DIR]   (writes ten_chunks_model.onnx there)
#include <onnxscript/onnxscript.h>

#include <filesystem>
#include <iostream>

using namespace onnxscript;
namespace op = onnxscript::opset18;

// `chunks` and `dim` are attributes of the function; `dim` defaults to 0.
// Using an attribute as a value gives a Constant that refers to the attribute.
// FLOAT<AnyRank> is a float tensor of unknown rank, as FLOAT[...] is in Python.
const Function aten_chunk =
    script("aten_chunk", {"self", "chunks", {"dim", 0}},
           [](FLOAT<AnyRank> self, Attr<int64_t> chunks, Attr<int64_t> dim) {
             Value neg_1 = op::Constant({.value_ints = {-1}});
             Value dim_size = op::Gather(op::Shape(self), dim, {.axis = 0});
             // Elements per chunk, rounded up.
             Value num_per_chunk = op::Div(dim_size, chunks);
             num_per_chunk =
                 op::Cast(op::Mod(dim_size, chunks) > 0, {.to = DataType::kInt64}) + num_per_chunk;
             Value num_chunk = op::Div(dim_size, num_per_chunk);
             // [n, n, ..., n], num_chunk times.
             Value list_split = op::Expand(num_per_chunk, op::Reshape(num_chunk, neg_1));
             Value remainder = op::Mod(dim_size, num_per_chunk);
             // Append the remainder where there is one: a data-dependent If whose
             // branches read list_split, remainder and neg_1 from the outer scope.
             list_split = If(
                 remainder > 0,
                 [&] {
                   return op::Concat({list_split, op::Reshape(remainder, neg_1)}, {.axis = 0});
                 },
                 [&] { return list_split; });
             return op::SplitToSequence(self, list_split, {.axis = dim});
           });

// The model's graph calls aten_chunk with chunks=10; aten_chunk comes along
// as a model-local function. The declared result is a sequence of float
// tensors.
const Function ten_chunks_model =
    script("ten_chunks_model", {"tensor"}, [](FLOAT<"M"> tensor) -> SEQUENCE<FLOAT<AnyRank>> {
      return aten_chunk(tensor, /*chunks=*/10);
    });

#ifndef ONNXSCRIPT_EXAMPLE_NO_MAIN  // tests/examples compiles the definitions above without main
int main(int argc, char** argv) try {
  const std::filesystem::path out_dir = argc > 1 ? argv[1] : ".";
  const std::filesystem::path path = out_dir / "ten_chunks_model.onnx";
  ten_chunks_model.save(path);
  std::cout << "wrote " << path.string() << "\n" << ten_chunks_model.to_text() << "\n";

  // Eagerly: 25 elements in chunks of 3 -> eight of 3 and one of 1.
  const Tensor x = Tensor::arange<float>(0, 25);
  const eval::RuntimeValue pieces = ten_chunks_model(x);
  for (const eval::RuntimeValue& piece : pieces.sequence().items)
    std::cout << piece.tensor() << "\n";
  // The exported model, run by the built-in evaluator, returns the same pieces.
  const eval::RuntimeValue planned = eval::Session::load(path).run({x}).at(0);
  const auto& eager_items = pieces.sequence().items;
  const auto& planned_items = planned.sequence().items;
  bool ok = eager_items.size() == 9 && planned_items.size() == 9;
  for (size_t i = 0; ok && i < eager_items.size(); ++i) {
    ok = eager_items[i].tensor().numel() == (i < 8 ? 3 : 1) &&
         eager_items[i].tensor().same_contents(planned_items[i].tensor());
  }
  std::cout << (ok ? "eager and session agree: eight pieces of 3, one of 1" : "MISMATCH") << "\n";
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "chunk: " << e.what() << "\n";
  return 1;
}
#endif
