// The floor under bench/build_chain.cc: the same chain (Add, Mul, Relu, Tanh
// repeating; a 16-element initializer on each Add and Mul) recorded into
// plain arrays and written out as ModelProto bytes by hand, with nothing
// else. No IR object per node, no use lists, no types beyond what the chain
// needs, no checks, no name clash detection, no source locations. It is not
// product code and nothing links it: it measures how fast anything that
// traces and serializes this chain could go on this machine, so that a
// throughput target can be judged against what the hardware allows, in the
// same run as the library and onnx.helper (bench/build_chain.sh).
//
// What it still does, because any builder must:
// - record each operator call as it is made, not knowing the chain's length;
// - give every value a handle with its element type and shape;
// - keep every weight, sharing its bytes (a reference count, as ir::Tensor);
// - spell each value's name and write every field of a valid model: the
//   output passes `onnxscript check` (a CTest case, bench.floor_model_checks).
//
// Usage: build_chain_floor [NODES] [OUT.onnx]
// Prints "floor <operator nodes per second>" (the best of three builds) and,
// on stderr, where the time went. With OUT.onnx it also writes the last
// model there.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// A weight: shared bytes plus the one dimension the chain needs.
struct Weight {
  std::shared_ptr<const std::vector<float>> data;
  int64_t length = 0;
};

// A value is named by a prefix letter and a number: X (the graph input),
// t<i> (the output of node i) and w<i> (the weight of node i), the names
// bench/build_chain_onnx_helper.py gives.
struct ValueRecord {
  char prefix;
  uint32_t number;
  int32_t elem_type;  // TensorProto.DataType
  int64_t length;     // the one dimension
};

constexpr uint32_t kNoValue = ~0u;

struct NodeRecord {
  uint8_t op;  // index into kOpTypes
  uint32_t input;
  uint32_t weight;  // kNoValue for Relu and Tanh
  uint32_t output;
};

constexpr std::string_view kOpTypes[] = {"Add", "Mul", "Relu", "Tanh"};

// Everything the trace records.
struct Recording {
  std::vector<ValueRecord> values;
  std::vector<NodeRecord> nodes;
  std::vector<uint32_t> initializers;  // values, in order
  std::vector<Weight> weights;         // parallel to initializers
  uint32_t graph_input = kNoValue, graph_output = kNoValue;

  uint32_t add_value(char prefix, uint32_t number, int64_t length) {
    values.push_back({prefix, number, /*FLOAT*/ 1, length});
    return static_cast<uint32_t>(values.size() - 1);
  }
  uint32_t add_weight(const Weight& w, uint32_t node) {
    const uint32_t v = add_value('w', node, w.length);
    initializers.push_back(v);
    weights.push_back(w);
    return v;
  }
  // An elementwise node: its output has the input's type.
  uint32_t add_node(uint8_t op, uint32_t input, uint32_t weight) {
    const auto node = static_cast<uint32_t>(nodes.size());
    const uint32_t out = add_value('t', node, values[input].length);
    nodes.push_back({op, input, weight, out});
    return out;
  }
};

Recording trace(const Weight& w, int64_t count) {
  Recording r;
  r.graph_input = r.add_value('X', kNoValue, w.length);
  uint32_t y = r.graph_input;
  for (int64_t i = 0; i < count; ++i) {
    const auto node = static_cast<uint32_t>(i);
    const auto op = static_cast<uint8_t>(i % 4);
    y = r.add_node(op, y, op < 2 ? r.add_weight(w, node) : kNoValue);
  }
  r.graph_output = y;
  return r;
}

// --- protobuf wire format -------------------------------------------------

constexpr uint8_t tag(int field, int wire_type) {
  return static_cast<uint8_t>(field << 3 | wire_type);
}
constexpr int kVarint = 0, kLen = 2;

size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, ++n;
  return n;
}

char* put_varint(char* p, uint64_t v) {
  while (v >= 0x80) *p++ = static_cast<char>(v | 0x80), v >>= 7;
  *p++ = static_cast<char>(v);
  return p;
}

size_t decimal_digits(uint32_t v) {
  size_t n = 1;
  for (; v >= 100; v /= 100) n += 2;
  return n + (v >= 10);
}

size_t name_size(const ValueRecord& v) {
  return v.number == kNoValue ? 1 : 1 + decimal_digits(v.number);
}

// A length-delimited name field: tag, length, prefix, digits.
char* put_name(char* p, uint8_t field_tag, const ValueRecord& v) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  const size_t size = name_size(v);
  *p++ = static_cast<char>(field_tag);
  p = put_varint(p, size);
  *p = v.prefix;
  if (v.number == kNoValue) return p + 1;
  char* digit = p + size;
  uint32_t n = v.number;
  for (; n >= 100; n /= 100) std::memcpy(digit -= 2, kPairs + 2 * (n % 100), 2);
  if (n >= 10) {
    std::memcpy(digit - 2, kPairs + 2 * n, 2);
  } else {
    digit[-1] = static_cast<char>('0' + n);
  }
  return p + size;
}

size_t name_field_size(const ValueRecord& v) {
  const size_t size = name_size(v);
  return 1 + varint_size(size) + size;
}

// ModelProto, GraphProto, NodeProto, TensorProto, ValueInfoProto fields.
constexpr int kModelIrVersion = 1, kModelGraph = 7, kModelOpsetImport = 8;
constexpr int kOpsetVersion = 2;
constexpr int kGraphNode = 1, kGraphName = 2, kGraphInitializer = 5, kGraphInput = 11,
              kGraphOutput = 12;
constexpr int kNodeInput = 1, kNodeOutput = 2, kNodeOpType = 4;
constexpr int kTensorDims = 1, kTensorDataType = 2, kTensorName = 8, kTensorRawData = 9;
constexpr int kValueInfoName = 1, kValueInfoType = 2, kTypeTensor = 1, kTensorTypeElemType = 1,
              kTensorTypeShape = 2, kShapeDim = 1, kDimValue = 1;

size_t node_body_size(const Recording& r, const NodeRecord& n) {
  size_t size = name_field_size(r.values[n.input]) + name_field_size(r.values[n.output]) + 2 +
                kOpTypes[n.op].size();
  if (n.weight != kNoValue) size += name_field_size(r.values[n.weight]);
  return size;
}

size_t initializer_body_size(const ValueRecord& v, const Weight& w) {
  const size_t raw = w.data->size() * sizeof(float);
  return 1 + varint_size(static_cast<uint64_t>(w.length)) + 2 + name_field_size(v) + 1 +
         varint_size(raw) + raw;
}

// The TypeProto of a vector of `length` elements of `elem_type`, as a field.
char* put_vector_type(char* p, int32_t elem_type, int64_t length) {
  const size_t dim = 1 + varint_size(static_cast<uint64_t>(length));
  const size_t shape = 1 + varint_size(dim) + dim;
  const size_t tensor = 2 + 1 + varint_size(shape) + shape;
  *p++ = static_cast<char>(tag(kValueInfoType, kLen));
  p = put_varint(p, 1 + varint_size(tensor) + tensor);
  *p++ = static_cast<char>(tag(kTypeTensor, kLen));
  p = put_varint(p, tensor);
  *p++ = static_cast<char>(tag(kTensorTypeElemType, kVarint));
  *p++ = static_cast<char>(elem_type);  // one byte: the element types are below 128
  *p++ = static_cast<char>(tag(kTensorTypeShape, kLen));
  p = put_varint(p, shape);
  *p++ = static_cast<char>(tag(kShapeDim, kLen));
  p = put_varint(p, dim);
  *p++ = static_cast<char>(tag(kDimValue, kVarint));
  return put_varint(p, static_cast<uint64_t>(length));
}

char* put_value_info(char* p, int field, const ValueRecord& v) {
  char scratch[64];
  char* end =
      put_vector_type(put_name(scratch, tag(kValueInfoName, kLen), v), v.elem_type, v.length);
  *p++ = static_cast<char>(tag(field, kLen));
  p = put_varint(p, static_cast<size_t>(end - scratch));
  std::memcpy(p, scratch, static_cast<size_t>(end - scratch));
  return p + (end - scratch);
}

// The serialized model, in a buffer that was never zeroed.
struct Bytes {
  std::unique_ptr<char[]> buffer;
  const char* data = nullptr;
  size_t size = 0;
};

// One pass over the recording. Each message's length is computed from its
// parts before it is written, so nothing moves; the model's few header
// fields are written last, backwards from where the graph begins.
Bytes serialize(const Recording& r) {
  constexpr size_t kHeaderRoom = 32, kValueInfoRoom = 64;
  size_t capacity = kHeaderRoom + 16 + 2 * kValueInfoRoom;
  // Upper bounds: a node body has at most three names of up to 11 bytes.
  capacity += r.nodes.size() * (2 + 3 * 13 + 6);
  for (const Weight& w : r.weights) capacity += 32 + w.data->size() * sizeof(float);
  Bytes out{std::make_unique_for_overwrite<char[]>(capacity)};
  char* const graph = out.buffer.get() + kHeaderRoom;
  char* p = graph;
  for (const NodeRecord& n : r.nodes) {
    *p++ = static_cast<char>(tag(kGraphNode, kLen));
    p = put_varint(p, node_body_size(r, n));
    p = put_name(p, tag(kNodeInput, kLen), r.values[n.input]);
    if (n.weight != kNoValue) p = put_name(p, tag(kNodeInput, kLen), r.values[n.weight]);
    p = put_name(p, tag(kNodeOutput, kLen), r.values[n.output]);
    const std::string_view op = kOpTypes[n.op];
    *p++ = static_cast<char>(tag(kNodeOpType, kLen));
    *p++ = static_cast<char>(op.size());
    std::memcpy(p, op.data(), op.size());
    p += op.size();
  }
  *p++ = static_cast<char>(tag(kGraphName, kLen));
  *p++ = 5;
  std::memcpy(p, "chain", 5);
  p += 5;
  for (size_t i = 0; i < r.initializers.size(); ++i) {
    const ValueRecord& v = r.values[r.initializers[i]];
    const Weight& w = r.weights[i];
    const size_t raw = w.data->size() * sizeof(float);
    *p++ = static_cast<char>(tag(kGraphInitializer, kLen));
    p = put_varint(p, initializer_body_size(v, w));
    *p++ = static_cast<char>(tag(kTensorDims, kVarint));
    p = put_varint(p, static_cast<uint64_t>(w.length));
    *p++ = static_cast<char>(tag(kTensorDataType, kVarint));
    *p++ = 1;  // FLOAT
    p = put_name(p, tag(kTensorName, kLen), v);
    *p++ = static_cast<char>(tag(kTensorRawData, kLen));
    p = put_varint(p, raw);
    std::memcpy(p, w.data->data(), raw);
    p += raw;
  }
  p = put_value_info(p, kGraphInput, r.values[r.graph_input]);
  p = put_value_info(p, kGraphOutput, r.values[r.graph_output]);
  if (static_cast<size_t>(p - out.buffer.get()) > capacity) std::abort();  // a bound is wrong

  // The header: ir_version 8, opset_import { version 17 }, the graph's tag
  // and length. Field order does not matter on the wire.
  const auto graph_size = static_cast<uint64_t>(p - graph);
  char header[kHeaderRoom];
  char* h = header;
  *h++ = static_cast<char>(tag(kModelIrVersion, kVarint));
  *h++ = 8;
  *h++ = static_cast<char>(tag(kModelOpsetImport, kLen));
  *h++ = 2;
  *h++ = static_cast<char>(tag(kOpsetVersion, kVarint));
  *h++ = 17;
  *h++ = static_cast<char>(tag(kModelGraph, kLen));
  h = put_varint(h, graph_size);
  const auto header_size = static_cast<size_t>(h - header);
  out.data = graph - header_size;
  std::memcpy(out.buffer.get() + kHeaderRoom - header_size, header, header_size);
  out.size = header_size + graph_size;
  return out;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (first == "--help" || first == "-h") {
    std::printf(
        "Usage: build_chain_floor [NODES] [OUT.onnx]\n"
        "The floor under build_chain: the same chain recorded into plain arrays and\n"
        "written as ONNX bytes by hand. Prints \"floor <nodes per second>\", the best\n"
        "of three builds; with OUT.onnx, also writes the model there.\n");
    return 0;
  }
  const int64_t count = argc > 1 ? std::atoll(argv[1]) : 100000;
  if (count <= 0 || count > 1'000'000'000 || argc > 3) {
    std::fprintf(stderr, "usage: build_chain_floor [NODES > 0] [OUT.onnx]\n");
    return 2;
  }
  std::vector<float> values(16);
  for (int i = 0; i < 16; ++i) values[i] = 0.01f * static_cast<float>(i + 1);
  const Weight weight{std::make_shared<const std::vector<float>>(std::move(values)), 16};

  double best = 1e300, best_trace = 0, best_serialize = 0, best_release = 0;
  std::string last;
  for (int rep = 0; rep < 3; ++rep) {  // best of 3, as build_chain
    auto start = Clock::now();
    auto recording = std::make_unique<Recording>(trace(weight, count));
    const double traced = seconds_since(start);
    start = Clock::now();
    Bytes bytes = serialize(*recording);
    const double serialized = seconds_since(start);
    if (rep == 2 && argc > 2) last.assign(bytes.data, bytes.size);
    start = Clock::now();
    recording.reset();
    bytes.buffer.reset();
    const double released = seconds_since(start);
    if (traced + serialized + released < best) {
      best = traced + serialized + released;
      best_trace = traced, best_serialize = serialized, best_release = released;
    }
  }
  if (argc > 2) {
    std::FILE* f = std::fopen(argv[2], "wb");
    bool written = f != nullptr && std::fwrite(last.data(), 1, last.size(), f) == last.size();
    if (f != nullptr && std::fclose(f) != 0) written = false;
    if (!written) {
      std::remove(argv[2]);  // no half-written model left behind
      std::fprintf(stderr, "build_chain_floor: cannot write %s\n", argv[2]);
      return 1;
    }
  }
  std::printf("floor %.0f\n", static_cast<double>(count) / best);
  const double per_node = 1e9 / static_cast<double>(count);
  std::fprintf(stderr, "floor: ns/node: trace %.0f, serialize %.0f, release %.0f\n",
               best_trace * per_node, best_serialize * per_node, best_release * per_node);
}
