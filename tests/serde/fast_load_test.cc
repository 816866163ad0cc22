// Loading weights at memory speed (raw_data_split.h): large raw_data is moved
// out of the bytes protobuf parses and copied once into an aligned arena.
// These tests check that what comes out is bit-exact whatever the payload's
// offset in the file, that corrupt and truncated files still fail with the
// parser's messages, that the cases the fast path leaves to protobuf still
// load, and how external data is mapped.

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

namespace fs = std::filesystem;
using ir::DataType;
using testing::TempDir;

// The byte at position i of test payload `seed`: a pattern that differs
// between payloads and is not periodic in 4 or 8, so that a shifted or mixed
// copy shows.
uint8_t pattern_byte(uint32_t seed, size_t i) {
  return static_cast<uint8_t>((i * 131 + seed * 17 + (i >> 8) * 7) & 0xff);
}

std::string pattern(uint32_t seed, size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(pattern_byte(seed, i));
  return s;
}

// True when the tensor's bytes are pattern(seed, nbytes).
::testing::AssertionResult HasPattern(const ir::Tensor& t, uint32_t seed) {
  const auto* p = static_cast<const uint8_t*>(t.raw_data());
  for (size_t i = 0; i < t.nbytes(); ++i) {
    if (p[i] != pattern_byte(seed, i)) {
      return ::testing::AssertionFailure()
             << "byte " << i << " of " << t.nbytes() << " is " << int{p[i]} << ", expected "
             << int{pattern_byte(seed, i)};
    }
  }
  return ::testing::AssertionSuccess();
}

bool aligned_to(const void* p, size_t n) { return reinterpret_cast<uintptr_t>(p) % n == 0; }

// Adds initializer `name` of `dtype` and `dims` with raw_data pattern(seed).
void add_raw_initializer(wire::GraphProto* g, const std::string& name, DataType dtype,
                         std::vector<int64_t> dims, size_t bytes, uint32_t seed) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(static_cast<int32_t>(dtype));
  for (int64_t d : dims) t->add_dims(d);
  t->set_raw_data(pattern(seed, bytes));
}

// A model whose graph Identity-returns each initializer; `sizes` are byte
// sizes of uint8 initializers w0, w1, ... (pattern seeds 0, 1, ...).
wire::ModelProto model_with_payloads(const std::vector<size_t>& sizes,
                                     const std::string& name_prefix = "w") {
  wire::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("fast_load_test");
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::string name = name_prefix + std::to_string(i);
    add_raw_initializer(g, name, DataType::kUint8, {static_cast<int64_t>(sizes[i])}, sizes[i],
                        static_cast<uint32_t>(i));
    auto* n = g->add_node();
    n->set_op_type("Identity");
    n->add_input(name);
    n->add_output("y" + std::to_string(i));
    g->add_output()->set_name("y" + std::to_string(i));
  }
  return m;
}

const ir::Tensor& initializer(const ir::Model& m, size_t i) {
  return *m.graph().initializers()[i]->const_value();
}

TEST(FastLoad, LargeInitializersRoundTripBitExact) {
  // Sizes on both sides of the 4 KiB threshold, odd sizes, and element types
  // of every width; each payload is checked against its pattern, not against
  // what was saved.
  TempDir dir;
  struct Spec {
    DataType dtype;
    std::vector<int64_t> dims;
    size_t bytes;
  };
  const std::vector<Spec> specs = {
      {DataType::kFloat, {1025}, 4100},         {DataType::kUint8, {4095}, 4095},
      {DataType::kUint8, {4096}, 4096},         {DataType::kDouble, {3, 1000}, 24000},
      {DataType::kInt8, {100003}, 100003},      {DataType::kFloat16, {2049}, 4098},
      {DataType::kFloat, {300, 1000}, 1200000}, {DataType::kInt64, {7}, 56},
      {DataType::kInt4, {9001}, 4501},
  };
  wire::ModelProto p;
  p.set_ir_version(10);
  p.add_opset_import()->set_version(21);
  auto* g = p.mutable_graph();
  g->set_name("g");
  for (size_t i = 0; i < specs.size(); ++i) {
    add_raw_initializer(g, "t" + std::to_string(i), specs[i].dtype, specs[i].dims, specs[i].bytes,
                        static_cast<uint32_t>(i));
    g->add_output()->set_name("t" + std::to_string(i));
  }
  const std::string bytes = p.SerializeAsString();
  testing::write_bytes(dir / "m.onnx", bytes);

  for (int from_file = 0; from_file < 2; ++from_file) {
    const ir::Model m =
        from_file ? load_model(dir / "m.onnx") : load_model_from_bytes(bytes, {}, "bytes");
    ASSERT_EQ(m.graph().initializers().size(), specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
      const ir::Tensor& t = initializer(m, i);
      SCOPED_TRACE(m.graph().initializers()[i]->name());
      EXPECT_EQ(t.dtype(), specs[i].dtype);
      EXPECT_EQ(std::vector<int64_t>(t.shape().begin(), t.shape().end()), specs[i].dims);
      EXPECT_EQ(t.nbytes(), specs[i].bytes);
      EXPECT_TRUE(HasPattern(t, static_cast<uint32_t>(i)));
      EXPECT_EQ(t.proto_info()->encoding, ir::TensorEncoding::kRawData);
      if (specs[i].bytes >= 4096) {
        EXPECT_TRUE(aligned_to(t.raw_data(), 64));
      }
    }
    // Written back, the file is the same bytes.
    EXPECT_EQ(serialize_model(m), bytes);
    save_model(m, dir / "again.onnx");
    EXPECT_EQ(testing::read_bytes(dir / "again.onnx"), bytes);
  }
}

TEST(FastLoad, PayloadsAtEveryOffsetInTheFile) {
  // Names of growing length shift the payloads; their file offsets cover
  // every residue modulo 4 (so most floats sit misaligned in the file), and
  // the loaded tensors are all 64-byte aligned and exact.
  wire::ModelProto p = model_with_payloads({});
  auto* g = p.mutable_graph();
  for (uint32_t i = 0; i < 16; ++i) {
    add_raw_initializer(g, std::string(i + 1, 'n') + std::to_string(i), DataType::kFloat,
                        {1024 + i}, 4 * (1024 + i), i);
  }
  const std::string bytes = p.SerializeAsString();
  std::vector<bool> residues(4, false);
  for (uint32_t i = 0; i < 16; ++i) {
    const std::string head = pattern(i, 4 * (1024 + i)).substr(0, 64);
    const size_t at = bytes.find(head);
    ASSERT_NE(at, std::string::npos);
    residues[at % 4] = true;
  }
  EXPECT_EQ(std::count(residues.begin(), residues.end(), true), 4);

  const ir::Model m = load_model_from_bytes(bytes, {}, "offsets");
  for (uint32_t i = 0; i < 16; ++i) {
    const ir::Tensor& t = initializer(m, i);
    EXPECT_TRUE(aligned_to(t.raw_data(), 64)) << i;
    EXPECT_TRUE(HasPattern(t, i)) << i;
    EXPECT_EQ(t.shape()[0], 1024 + i);
  }
}

TEST(FastLoad, PayloadsAcrossManyHugePagesAreExact) {
  // The arena is filled 2 MiB page by 2 MiB page (and may switch page sizes
  // part way, see raw_data_split.cc): payloads larger than a page, one of
  // exactly a page, and odd sizes across page boundaries.
  const std::vector<size_t> sizes = {3000001, size_t{2} << 20, 5000003, 4096, 1234567};
  const ir::Model m = load_model_from_bytes(model_with_payloads(sizes).SerializeAsString());
  for (size_t i = 0; i < sizes.size(); ++i) {
    const ir::Tensor& t = initializer(m, i);
    EXPECT_EQ(t.nbytes(), sizes[i]);
    EXPECT_TRUE(HasPattern(t, static_cast<uint32_t>(i))) << i;
    EXPECT_TRUE(aligned_to(t.raw_data(), 64)) << i;
  }
}

TEST(FastLoad, WeightsAreWritableAndOutliveTheModel) {
  TempDir dir;
  const std::string bytes = model_with_payloads({8192, 100000}).SerializeAsString();
  testing::write_bytes(dir / "m.onnx", bytes);
  ir::Tensor kept;
  {
    ir::Model m = load_model(dir / "m.onnx");
    kept = initializer(m, 1);
    // Initializers are the user's to change in place.
    ir::Tensor w0 = initializer(m, 0);
    std::memset(w0.raw_data(), 0xAB, w0.nbytes());
    EXPECT_EQ(initializer(m, 0).data<uint8_t>()[8191], 0xAB);
  }
  // The model is gone; the tensor still holds its bytes (the arena lives on).
  EXPECT_TRUE(HasPattern(kept, 1));
  // Neither the file nor a second load saw the write.
  EXPECT_EQ(testing::read_bytes(dir / "m.onnx"), bytes);
  EXPECT_TRUE(HasPattern(initializer(load_model(dir / "m.onnx"), 0), 0));
}

// The message of the ParseError that loading the file `path` throws, or ""
// when it loads.
std::string load_error(const fs::path& path) {
  try {
    load_model(path);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(FastLoad, TruncatedFilesFailWithTheParsersMessage) {
  // The graph is the model's last field: any cut inside it leaves it short,
  // and the message says where (the same words as for any truncated file).
  TempDir dir;
  wire::ModelProto p = model_with_payloads({5000, 70000, 4096});
  p.clear_opset_import();  // field 8 would follow the graph
  const std::string bytes = p.SerializeAsString();
  const size_t graph_at = bytes.find('\x3a');  // ModelProto.graph's tag
  ASSERT_LT(graph_at, 40u);
  // The graph's bytes start after its tag and length (cuts inside the length
  // have a message of their own, tested in bad_input_test.cc).
  size_t graph_begin = graph_at + 1;
  while (static_cast<uint8_t>(bytes[graph_begin]) & 0x80) ++graph_begin;
  ++graph_begin;
  std::vector<size_t> cuts;
  for (size_t n = graph_begin; n < graph_begin + 200; ++n) cuts.push_back(n);
  for (uint32_t seed = 0; seed < 3; ++seed) {
    const size_t at = bytes.find(pattern(seed, 64));
    for (size_t d = 0; d < 8; ++d) cuts.insert(cuts.end(), {at - d, at + d, at + 4096 + d});
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 40; ++i) cuts.push_back(graph_begin + rng() % (bytes.size() - graph_begin));
  for (size_t n : cuts) {
    testing::write_bytes(dir / "cut.onnx", bytes.substr(0, n));
    const std::string what = load_error(dir / "cut.onnx");
    EXPECT_NE(what.find((dir / "cut.onnx").string()), std::string::npos) << n << ": " << what;
    EXPECT_NE(what.find("not a valid ModelProto: truncated: ModelProto.graph at byte"),
              std::string::npos)
        << n << ": " << what;
  }
}

TEST(FastLoad, CorruptFramingInsideATensorIsAParseError) {
  // raw_data's length prefix made larger than its tensor: the walk stops,
  // protobuf gets the bytes and says what is wrong.
  wire::ModelProto p = model_with_payloads({5000});
  std::string bytes = p.SerializeAsString();
  const size_t payload = bytes.find(pattern(0, 64));
  // 5000 = 0x88 0x27 as a varint, right before the payload.
  ASSERT_EQ(bytes.substr(payload - 2, 2), "\x88\x27");
  bytes[payload - 1] = '\x28';  // 5128
  try {
    load_model_from_bytes(bytes, {}, "corrupt.onnx");
    ADD_FAILURE() << "loaded";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("not a valid ModelProto: truncated: TensorProto.raw_data"),
              std::string::npos)
        << e.what();
  }
}

TEST(FastLoad, RandomCorruptionOfALargeModelNeverCrashes) {
  const std::string bytes = model_with_payloads({6000, 4096, 9000}).SerializeAsString();
  std::mt19937 rng(99);
  for (int iter = 0; iter < 300; ++iter) {
    std::string damaged = bytes;
    // Damage the framing more than the payloads: bytes near tags.
    for (int k = 0; k < 3; ++k) {
      const size_t at = rng() % 2 ? rng() % 200 : rng() % damaged.size();
      damaged[at] = static_cast<char>(rng());
    }
    try {
      load_model_from_bytes(damaged, {}, "fuzz");
    } catch (const Error&) {
    }
  }
}

TEST(FastLoad, RawDataOfTheWrongSizeNamesItsSize) {
  wire::ModelProto p = model_with_payloads({});
  add_raw_initializer(p.mutable_graph(), "W", DataType::kFloat, {2000}, 4100, 0);
  try {
    load_model_from_bytes(p.SerializeAsString(), {}, "size.onnx");
    ADD_FAILURE() << "loaded";
  } catch (const ValidationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tensor 'W'"), std::string::npos) << what;
    EXPECT_NE(what.find("raw_data has 4100 bytes, but float[2000] needs 8000"), std::string::npos)
        << what;
  }
}

TEST(FastLoad, RepeatedRawDataKeepsTheLastAsProtobufDoes) {
  // A second raw_data field in one tensor: protobuf's rule (the last wins)
  // applies, whichever way the file is read.
  wire::ModelProto p = model_with_payloads({});
  wire::TensorProto t;
  t.set_name("W");
  t.set_data_type(static_cast<int32_t>(DataType::kUint8));
  t.add_dims(5000);
  t.set_raw_data(pattern(1, 5000));
  std::string tensor_bytes = t.SerializeAsString();
  wire::TensorProto second;
  second.set_raw_data(pattern(2, 5000));
  tensor_bytes += second.SerializeAsString();
  wire::GraphProto g;
  g.set_name("g");
  std::string graph_bytes = g.SerializeAsString();
  // GraphProto.initializer (5), length-delimited.
  graph_bytes += '\x2a';
  size_t n = tensor_bytes.size();
  while (n >= 0x80) {
    graph_bytes += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  graph_bytes += static_cast<char>(n);
  graph_bytes += tensor_bytes;
  ASSERT_TRUE(p.mutable_graph()->ParseFromString(graph_bytes));
  EXPECT_EQ(p.graph().initializer(0).raw_data(), pattern(2, 5000));
  const ir::Model m = load_model_from_bytes(p.SerializeAsString(), {}, "twice");
  EXPECT_TRUE(HasPattern(initializer(m, 0), 2));
}

TEST(FastLoad, TwoGraphFieldsAreMergedAsProtobufDoes) {
  wire::ModelProto first = model_with_payloads({5000});
  wire::ModelProto second;
  add_raw_initializer(second.mutable_graph(), "v", DataType::kUint8, {6000}, 6000, 5);
  const ir::Model m =
      load_model_from_bytes(first.SerializeAsString() + second.SerializeAsString(), {}, "merged");
  ASSERT_EQ(m.graph().initializers().size(), 2u);
  EXPECT_TRUE(HasPattern(initializer(m, 0), 0));
  EXPECT_TRUE(HasPattern(initializer(m, 1), 5));
}

// Adds to `node` a then_branch graph with a large initializer `name`.
void add_branch_with_initializer(wire::NodeProto* node, const std::string& name, uint32_t seed) {
  auto* a = node->add_attribute();
  a->set_name("then_branch");
  a->set_type(wire::AttributeProto::GRAPH);
  auto* sub = a->mutable_g();
  sub->set_name("branch_" + name);
  add_raw_initializer(sub, name, DataType::kUint8, {8000}, 8000, seed);
  sub->add_output()->set_name(name);
}

TEST(FastLoad, SubgraphAndFunctionInitializersAreNotConfused) {
  // Only the main graph's initializers are lifted; those of a subgraph in a
  // function (read before the main graph) and in the main graph's nodes keep
  // their own bytes.
  wire::ModelProto p = model_with_payloads({4096, 12000});
  auto* f = p.add_functions();
  f->set_name("F");
  f->set_domain("local");
  f->add_output("fy");
  auto* fn = f->add_node();
  fn->set_op_type("If");
  fn->add_input("fc");
  fn->add_output("fy");
  add_branch_with_initializer(fn, "in_function", 7);
  f->add_input("fc");
  f->add_opset_import()->set_version(17);
  p.add_opset_import()->set_domain("local");
  p.mutable_opset_import(1)->set_version(1);
  auto* gn = p.mutable_graph()->add_node();
  gn->set_op_type("If");
  gn->add_input("w0");
  gn->add_output("z");
  add_branch_with_initializer(gn, "in_graph", 8);

  const ir::Model m = load_model_from_bytes(p.SerializeAsString(), {}, "nested");
  EXPECT_TRUE(HasPattern(initializer(m, 0), 0));
  EXPECT_TRUE(HasPattern(initializer(m, 1), 1));
  const ir::Graph& branch = *m.graph().last_node()->attribute("then_branch")->as_graph();
  EXPECT_TRUE(HasPattern(*branch.initializers()[0]->const_value(), 8));
  const ir::Graph& fbranch =
      *m.functions()[0]->body().first_node()->attribute("then_branch")->as_graph();
  EXPECT_TRUE(HasPattern(*fbranch.initializers()[0]->const_value(), 7));
  EXPECT_EQ(serialize_model(m), p.SerializeAsString());
}

// W (float[1024]) in dir/data.bin at `offset`, with pattern(3) there.
fs::path write_external_float(const TempDir& dir, size_t offset) {
  wire::ModelProto p = model_with_payloads({});
  auto* w = p.mutable_graph()->add_initializer();
  w->set_name("W");
  w->set_data_type(static_cast<int32_t>(DataType::kFloat));
  w->add_dims(1024);
  w->set_data_location(wire::TensorProto::EXTERNAL);
  auto* e = w->add_external_data();
  e->set_key("location");
  e->set_value("data.bin");
  e = w->add_external_data();
  e->set_key("offset");
  e->set_value(std::to_string(offset));
  testing::write_bytes(dir / "data.bin", std::string(offset, 'x') + pattern(3, 4096));
  testing::write_bytes(dir / "m.onnx", p.SerializeAsString());
  return dir / "m.onnx";
}

TEST(FastLoad, ExternalDataIsMappedWritableAndAlignedCopiedWhenNot) {
  for (size_t offset : {size_t{0}, size_t{64}, size_t{2}, size_t{4097}}) {
    SCOPED_TRACE(offset);
    TempDir dir;
    const fs::path path = write_external_float(dir, offset);
    const std::string file_bytes = testing::read_bytes(dir / "data.bin");
    ir::Model m = load_model(path);
    ir::Tensor w = initializer(m, 0);
    EXPECT_TRUE(aligned_to(w.raw_data(), alignof(float)));
    EXPECT_TRUE(HasPattern(w, 3));
    // Writing to the tensor changes neither the file nor another load.
    std::memset(w.raw_data(), 0, w.nbytes());
    EXPECT_EQ(initializer(m, 0).data<float>()[1023], 0.0f);
    EXPECT_EQ(testing::read_bytes(dir / "data.bin"), file_bytes);
    EXPECT_TRUE(HasPattern(initializer(load_model(path), 0), 3));
  }
}

}  // namespace
}  // namespace onnxscript::serde
