// External data both ways: writing side files at aligned offsets, mapping
// them back, refusing locations outside the model directory, and the
// automatic switch for models over protobuf's 2 GB limit.

#include <sys/mman.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>

#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde_test_util.h"

namespace onnxscript::serde {
namespace {

namespace fs = std::filesystem;
using ir::DataType;
using testing::list_dir;
using testing::TempDir;

ir::Tensor iota_float(int64_t n) {
  ir::Tensor t(DataType::kFloat, {n});
  for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = static_cast<float>(i) * 0.5f + 1;
  return t;
}

// x + big -> y; a small initializer; a 4-bit one; a Constant with a big tensor.
ir::Model model_with_weights() {
  ir::Model m;
  m.ir_version = 10;
  m.opset_imports.set("", 21);
  ir::Graph& g = m.graph();
  g.set_name("weights");
  ir::Value* x = g.add_input("x", ir::Type::tensor(DataType::kFloat, ir::Shape{600}));
  ir::Value* big = g.add_initializer("big", iota_float(600));  // 2400 bytes
  g.add_initializer("small", iota_float(4));                   // 16 bytes
  ir::Tensor packed(DataType::kInt4, {5001});                  // 2501 bytes
  for (size_t i = 0; i < packed.nbytes(); ++i)
    packed.data<uint8_t>()[i] = static_cast<uint8_t>(i * 7);
  g.add_initializer("packed", packed);
  ir::Node* add = g.append_node("Add", {x, big}, 1);
  add->output(0)->set_name("y");
  ir::Node* c = g.append_node("Constant", {}, 1);
  ir::Tensor ints(DataType::kInt64, {150});  // 1200 bytes
  for (int i = 0; i < 150; ++i) ints.data<int64_t>()[i] = i * i;
  c->set_attribute(ir::Attribute::make_tensor("value", ints));
  c->output(0)->set_name("c");
  g.outputs().push_back(add->output(0));
  g.outputs().push_back(c->output(0));
  return m;
}

const wire::TensorProto* find_initializer(const wire::ModelProto& p, const std::string& name) {
  for (const auto& t : p.graph().initializer())
    if (t.name() == name) return &t;
  return nullptr;
}

std::map<std::string, std::string> external_entries(const wire::TensorProto& t) {
  std::map<std::string, std::string> out;
  for (const auto& e : t.external_data()) out[e.key()] = e.value();
  return out;
}

// The file a pointer is mapped from, per /proc/self/maps ("" if anonymous).
std::string mapped_file_of(const void* p) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto addr = reinterpret_cast<uintptr_t>(p);
  while (std::getline(maps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2) continue;
    if (addr >= lo && addr < hi) {
      const size_t slash = line.find('/');
      return slash == std::string::npos ? "" : line.substr(slash);
    }
  }
  return "";
}

TEST(ExternalData, LargeTensorsGoToAnAlignedSideFileAndMapBack) {
  TempDir dir;
  const ir::Model m = model_with_weights();
  SaveOptions options;
  options.use_external_data = true;
  options.external_data_threshold = 1024;
  save_model(m, dir / "model.onnx", options);
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"model.onnx", "model.onnx.data"}));

  wire::ModelProto p;
  ASSERT_TRUE(p.ParseFromString(testing::read_bytes(dir / "model.onnx")));
  const wire::TensorProto* big = find_initializer(p, "big");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->data_location(), wire::TensorProto::EXTERNAL);
  EXPECT_FALSE(big->has_raw_data());
  auto entries = external_entries(*big);
  EXPECT_EQ(entries["location"], "model.onnx.data");
  EXPECT_EQ(entries["length"], "2400");
  EXPECT_EQ(std::stoull(entries["offset"]) % 64, 0u);
  const wire::TensorProto* packed = find_initializer(p, "packed");
  EXPECT_EQ(external_entries(*packed)["length"], "2501");
  EXPECT_EQ(std::stoull(external_entries(*packed)["offset"]) % 64, 0u);
  EXPECT_TRUE(find_initializer(p, "small")->has_raw_data());  // under the threshold
  const auto& constant = p.graph().node(1).attribute(0).t();
  EXPECT_EQ(constant.data_location(), wire::TensorProto::EXTERNAL);

  const ir::Model loaded = load_model(dir / "model.onnx");
  const ir::Graph& g = loaded.graph();
  ASSERT_EQ(g.initializers().size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(g.initializers()[i]->const_value()->same_contents(
        *m.graph().initializers()[i]->const_value()))
        << g.initializers()[i]->name();
  }
  const ir::Tensor& mapped = *g.initializers()[0]->const_value();
  EXPECT_EQ(mapped.proto_info()->encoding, ir::TensorEncoding::kExternal);
  EXPECT_EQ(fs::path(mapped_file_of(mapped.raw_data())).filename(), "model.onnx.data");
  const ir::Tensor& constant_value = g.last_node()->attribute("value")->as_tensor();
  EXPECT_TRUE(constant_value.same_contents(m.graph().last_node()->attribute("value")->as_tensor()));

  // Written inline again, the data comes back into raw_data.
  wire::ModelProto inline_proto;
  ASSERT_TRUE(inline_proto.ParseFromString(serialize_model(loaded)));
  EXPECT_TRUE(find_initializer(inline_proto, "big")->has_raw_data());
  EXPECT_EQ(find_initializer(inline_proto, "big")->external_data_size(), 0);
}

TEST(ExternalData, SideFileNameAndAlignmentAreOptions) {
  TempDir dir;
  SaveOptions options;
  options.use_external_data = true;
  options.external_data_threshold = 100;
  options.external_data_file = "weights.bin";
  options.external_data_alignment = 16;
  save_model(model_with_weights(), dir / "m.onnx", options);
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"m.onnx", "weights.bin"}));
  wire::ModelProto p;
  ASSERT_TRUE(p.ParseFromString(testing::read_bytes(dir / "m.onnx")));
  bool unaligned_to_64 = false;
  for (const auto& t : p.graph().initializer()) {
    if (t.data_location() != wire::TensorProto::EXTERNAL) continue;
    const uint64_t offset = std::stoull(external_entries(t)["offset"]);
    EXPECT_EQ(offset % 16, 0u);
    unaligned_to_64 |= offset % 64 != 0;
  }
  EXPECT_TRUE(unaligned_to_64);  // 16 really is what was used
  EXPECT_TRUE(load_model(dir / "m.onnx")
                  .graph()
                  .initializers()[2]
                  ->const_value()
                  ->same_contents(*model_with_weights().graph().initializers()[2]->const_value()));

  options.external_data_alignment = 48;
  EXPECT_THROW(save_model(model_with_weights(), dir / "n.onnx", options), ValidationError);
  options.external_data_alignment = 64;
  options.external_data_file = "../escape.bin";
  EXPECT_THROW(save_model(model_with_weights(), dir / "n.onnx", options), IoError);
}

// A model whose initializer W (float[4]) lives in an external file.
wire::ModelProto external_model(const std::string& location, const std::string& offset = "0",
                                const std::string& length = "16") {
  wire::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  auto* w = g->add_initializer();
  w->set_name("W");
  w->set_data_type(1);
  w->add_dims(4);
  w->set_data_location(wire::TensorProto::EXTERNAL);
  auto add = [&](const char* k, const std::string& v) {
    auto* e = w->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  if (!offset.empty()) add("offset", offset);
  if (!length.empty()) add("length", length);
  auto* n = g->add_node();
  n->set_op_type("Identity");
  n->add_input("W");
  n->add_output("Y");
  g->add_output()->set_name("Y");
  return m;
}

// Saves `m` as dir/model.onnx with a 64-byte data file dir/data.bin.
fs::path write_external(const TempDir& dir, const wire::ModelProto& m) {
  std::string data(64, '\0');
  for (int i = 0; i < 64; ++i) data[i] = static_cast<char>(i);
  testing::write_bytes(dir / "data.bin", data);
  testing::write_bytes(dir / "model.onnx", m.SerializeAsString());
  return dir / "model.onnx";
}

template <typename E>
void expect_load_error(const fs::path& model, std::vector<std::string> fragments) {
  try {
    load_model(model);
    ADD_FAILURE() << "no exception";
  } catch (const E& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(model.string()), std::string::npos) << what;
    EXPECT_NE(what.find("tensor 'W'"), std::string::npos) << what;
    for (const auto& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

TEST(ExternalData, ReadsOffsetsWithinTheFile) {
  TempDir dir;
  const ir::Model m = load_model(write_external(dir, external_model("data.bin", "16", "16")));
  const ir::Tensor& w = *m.graph().initializers()[0]->const_value();
  EXPECT_EQ(w.data<uint8_t>()[0], 16);
  EXPECT_EQ(w.data<uint8_t>()[15], 31);
  // Offset and length may be omitted.
  const ir::Model m2 = load_model(write_external(dir, external_model("data.bin", "", "")));
  EXPECT_EQ(m2.graph().initializers()[0]->const_value()->data<uint8_t>()[3], 3);
  // Subdirectories of the model directory are fine, so are symlinks that stay inside.
  fs::create_directory(dir / "sub");
  fs::copy_file(dir / "data.bin", dir / "sub" / "d.bin");
  fs::create_symlink("sub/d.bin", dir / "link.bin");
  EXPECT_NO_THROW(load_model(write_external(dir, external_model("sub/d.bin"))));
  EXPECT_NO_THROW(load_model(write_external(dir, external_model("link.bin"))));
}

TEST(ExternalData, RejectsLocationsOutsideTheModelDirectory) {
  TempDir outside;
  testing::write_bytes(outside / "secret.bin", std::string(64, 'x'));
  TempDir dir;
  expect_load_error<IoError>(write_external(dir, external_model((outside / "secret.bin").string())),
                             {"absolute path"});
  expect_load_error<IoError>(write_external(dir, external_model("../secret.bin")), {"'..'"});
  expect_load_error<IoError>(write_external(dir, external_model("sub/../../secret.bin")), {"'..'"});
  fs::create_symlink(outside / "secret.bin", dir / "escape.bin");
  expect_load_error<IoError>(write_external(dir, external_model("escape.bin")),
                             {"outside the model directory"});
  fs::create_directory_symlink(outside.path(), dir / "elsewhere");
  expect_load_error<IoError>(write_external(dir, external_model("elsewhere/secret.bin")),
                             {"outside the model directory"});
}

TEST(ExternalData, RejectsBadRangesAndMissingFiles) {
  TempDir dir;
  expect_load_error<ValidationError>(write_external(dir, external_model("data.bin", "56", "16")),
                                     {"outside 'data.bin'", "64 bytes"});
  expect_load_error<ValidationError>(write_external(dir, external_model("data.bin", "0", "12")),
                                     {"length 12"});
  expect_load_error<ValidationError>(write_external(dir, external_model("data.bin", "-4")),
                                     {"offset '-4'"});
  expect_load_error<IoError>(write_external(dir, external_model("missing.bin")), {"missing.bin"});
  expect_load_error<ValidationError>(write_external(dir, external_model("")), {"no location"});
  fs::create_directory(dir / "adir");
  expect_load_error<IoError>(write_external(dir, external_model("adir")), {"adir"});

  // Bytes without a directory have nowhere to find the data.
  EXPECT_THROW(load_model_from_bytes(external_model("data.bin").SerializeAsString()), IoError);
}

TEST(ExternalData, ModelsOverTwoGigabytesMoveTheirTensorsOutAutomatically) {
  // 2 GiB + 4 KiB of float zeros without using the memory: an anonymous
  // mapping that is only read maps the shared zero page.
  const int64_t n = (int64_t{1} << 29) + 1024;
  const size_t bytes = static_cast<size_t>(n) * 4;
  void* mem = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  std::shared_ptr<void> owner(mem, [bytes](void* p) { ::munmap(p, bytes); });
  ir::Tensor huge(DataType::kFloat, {n}, ir::borrow_storage(mem, bytes, owner));

  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* w = g.add_initializer("huge", huge);
  g.add_initializer("small", iota_float(8));
  ir::Node* id = g.append_node("Identity", {w}, 1);
  id->output(0)->set_name("y");
  g.outputs().push_back(id->output(0));

  try {
    serialize_model(m);
    ADD_FAILURE() << "serialize_model accepted a model over 2 GB";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("2 GB"), std::string::npos) << e.what();
  }

  TempDir dir;
  save_model(m, dir / "huge.onnx");  // default options: inline, unless too big
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"huge.onnx", "huge.onnx.data"}));
  EXPECT_LT(fs::file_size(dir / "huge.onnx"), 4096u);
  EXPECT_EQ(fs::file_size(dir / "huge.onnx.data"), bytes);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "huge.onnx.data").c_str(), &st), 0);
  EXPECT_LT(st.st_blocks * 512, 1 << 20) << "zero pages should be holes";

  wire::ModelProto p;
  ASSERT_TRUE(p.ParseFromString(testing::read_bytes(dir / "huge.onnx")));
  EXPECT_EQ(find_initializer(p, "huge")->data_location(), wire::TensorProto::EXTERNAL);
  EXPECT_TRUE(find_initializer(p, "small")->has_raw_data());  // 32 bytes stay inline

  const ir::Model loaded = load_model(dir / "huge.onnx");
  const ir::Tensor& back = *loaded.graph().initializers()[0]->const_value();
  EXPECT_EQ(back.shape(), std::vector<int64_t>{n});
  EXPECT_EQ(back.data<float>()[n - 1], 0.0f);
  EXPECT_TRUE(loaded.graph().initializers()[1]->const_value()->same_contents(iota_float(8)));
}

}  // namespace
}  // namespace onnxscript::serde
