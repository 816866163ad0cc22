#pragma once
// The registration function of each family of torchlib functions: each
// ops/<family>.cc defines its functions and, at its end, registers them
// under their ATen names and schemas (as PyTorch 1.13 prints them).
// TorchScript's spellings (_convolution, in-place forms such as add_) map to
// the same functions: in-place operators have no meaning in ONNX's value
// semantics, and the exporter removes the mutation before dispatch.

#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::torch_lib {

void register_arithmetic(Registry& r);
void register_activations(Registry& r);
void register_reductions(Registry& r);
void register_linear_algebra(Registry& r);
void register_shapes(Registry& r);
void register_nn(Registry& r);
void register_unary(Registry& r);
void register_binary(Registry& r);
void register_more_activations(Registry& r);
void register_more_reductions(Registry& r);
void register_more_shapes(Registry& r);
void register_factories(Registry& r);
void register_more_nn(Registry& r);
void register_indexing(Registry& r);
void register_prims(Registry& r);
void register_upsample(Registry& r);
void register_losses(Registry& r);
void register_random(Registry& r);
void register_more_linear_algebra(Registry& r);
void register_rnn(Registry& r);
void register_counting(Registry& r);
void register_strided(Registry& r);
void register_quantize(Registry& r);
void register_embedding_bag(Registry& r);
void register_fft(Registry& r);

}  // namespace onnxscript::torch_lib
