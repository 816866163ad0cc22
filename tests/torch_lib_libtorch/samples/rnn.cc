// Samples of aten::lstm.input and aten::gru.input (src/lib/torch_lib/ops/rnn.cc):
// one layer, two bidirectional layers, batch_first, and no biases. The outputs chain
// sigmoids and tanhs over the sequence, each step's matrix products summed
// in another order than LibTorch's, so they compare at 1e-4 rather than
// float32's 1e-5.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 60000;
  return seed++;
}

// A weight in [-0.5, 0.5), about PyTorch's initial 1 / sqrt(hidden) range.
Value weight(Ints shape) { return f32(std::move(shape), next_seed(), -0.5, 0.5); }

// The flat parameter list of an LSTM (gates 4) or a GRU (gates 3): per
// layer and direction w_ih, w_hh and, with biases, b_ih and b_hh.
std::vector<Value> rnn_params(int64_t gates, int64_t input_size, int64_t hidden, int64_t layers,
                              int64_t dirs, bool biases) {
  std::vector<Value> params;
  for (int64_t layer = 0; layer < layers; ++layer) {
    const int64_t in = layer == 0 ? input_size : hidden * dirs;
    for (int64_t d = 0; d < dirs; ++d) {
      params.push_back(weight({gates * hidden, in}));
      params.push_back(weight({gates * hidden, hidden}));
      if (biases) {
        params.push_back(weight({gates * hidden}));
        params.push_back(weight({gates * hidden}));
      }
    }
  }
  return params;
}

}  // namespace

void add_rnn_samples(SampleTable& t) {
  const double tolerance = 1e-4;
  struct Lstm {
    const char* label;
    int64_t seq, batch, input_size, hidden, layers;
    bool bidirectional, batch_first, biases;
  };
  for (const Lstm& l : std::initializer_list<Lstm>{
           {"1 layer", 5, 2, 3, 4, 1, false, false, true},
           {"2 layers, bidirectional", 4, 3, 2, 3, 2, true, false, true},
           {"batch_first", 3, 2, 4, 2, 1, false, true, true},
           {"2 layers, batch_first, no biases", 4, 1, 3, 2, 2, false, true, false},
       }) {
    const int64_t dirs = l.bidirectional ? 2 : 1;
    const Value input = l.batch_first ? f32({l.batch, l.seq, l.input_size}, next_seed())
                                      : f32({l.seq, l.batch, l.input_size}, next_seed());
    const std::vector<Value> hx = {f32({l.layers * dirs, l.batch, l.hidden}, next_seed(), -1, 1),
                                   f32({l.layers * dirs, l.batch, l.hidden}, next_seed(), -1, 1)};
    t.add("aten::lstm.input", l.label,
          {input, hx, rnn_params(4, l.input_size, l.hidden, l.layers, dirs, l.biases), l.biases,
           l.layers, 0.0, false, l.bidirectional, l.batch_first},
          {}, tolerance);
    const Value gru_input = l.batch_first ? f32({l.batch, l.seq, l.input_size}, next_seed())
                                          : f32({l.seq, l.batch, l.input_size}, next_seed());
    t.add("aten::gru.input", l.label,
          {gru_input, f32({l.layers * dirs, l.batch, l.hidden}, next_seed(), -1, 1),
           rnn_params(3, l.input_size, l.hidden, l.layers, dirs, l.biases), l.biases, l.layers, 0.0,
           false, l.bidirectional, l.batch_first},
          {}, tolerance);
  }
}

}  // namespace onnxscript::torch_lib::comparison
