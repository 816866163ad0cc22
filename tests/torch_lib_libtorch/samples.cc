// The sample table: several calls per registered qualified name, chosen to
// reach each function's branches (ranks, element types, negative dims,
// omitted defaults, keyword arguments). LibTorch computes the expected
// values; nothing in samples/ is an expected value. Each torchlib family's
// samples live in samples/<family>.cc.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {

const std::vector<Sample>& samples() {
  static const std::vector<Sample> table = [] {
    SampleTable t;
    add_core_samples(t);
    add_binary_samples(t);
    add_reduction_samples(t);
    add_linalg_samples(t);
    add_loss_samples(t);
    add_unary_samples(t);
    add_activation_samples(t);
    add_arithmetic_samples(t);
    add_prims_samples(t);
    add_random_samples(t);
    add_rnn_samples(t);
    add_shape_samples(t);
    add_indexing_samples(t);
    add_nn_samples(t);
    add_upsample_samples(t);
    add_sums_and_extrema_samples(t);
    add_counting_samples(t);
    add_strided_samples(t);
    add_quantize_samples(t);
    add_embedding_bag_samples(t);
    add_fft_samples(t);
    return t.take();
  }();
  return table;
}

}  // namespace onnxscript::torch_lib::comparison
