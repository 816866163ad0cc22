// torchlib's registry: every family of functions registers its overloads
// (lib/torch_lib/families.h).

#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

const Registry& torchlib_registry() {
  static const Registry registry = [] {
    Registry r;
    register_arithmetic(r);
    register_activations(r);
    register_reductions(r);
    register_linear_algebra(r);
    register_shapes(r);
    register_nn(r);
    register_unary(r);
    register_binary(r);
    register_more_activations(r);
    register_more_reductions(r);
    register_more_shapes(r);
    register_factories(r);
    register_more_nn(r);
    register_indexing(r);
    register_prims(r);
    register_upsample(r);
    register_losses(r);
    register_random(r);
    register_more_linear_algebra(r);
    register_rnn(r);
    register_counting(r);
    register_strided(r);
    register_quantize(r);
    register_embedding_bag(r);
    register_fft(r);
    return r;
  }();
  return registry;
}

}  // namespace onnxscript::torch_lib
