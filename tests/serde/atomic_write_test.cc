// Saving is all or nothing: a failed save leaves no file, no temporary file,
// and an existing destination exactly as it was.

#include <gtest/gtest.h>

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

// x + w -> y, where w is a 4 KiB float initializer.
ir::Model small_model() {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", ir::Type::tensor(DataType::kFloat, ir::Shape{1024}));
  ir::Tensor wt(DataType::kFloat, {1024});
  for (int i = 0; i < 1024; ++i) wt.data<float>()[i] = static_cast<float>(i);
  ir::Value* w = g.add_initializer("w", wt);
  ir::Node* add = g.append_node("Add", {x, w}, 1);
  add->output(0)->set_name("y");
  g.outputs().push_back(add->output(0));
  return m;
}

TEST(AtomicWrite, SavesAndOverwritesWithoutLeavingTemporaries) {
  TempDir dir;
  save_model(small_model(), dir / "m.onnx");
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"m.onnx"});
  ir::Model changed = small_model();
  changed.producer_name = "second";
  save_model(changed, dir / "m.onnx");
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"m.onnx"});
  EXPECT_EQ(load_model(dir / "m.onnx").producer_name, "second");
  EXPECT_EQ(fs::status(dir / "m.onnx").permissions() & fs::perms::others_read,
            fs::status(dir.path()).permissions() & fs::perms::others_read)
      << "the file gets ordinary permissions, not a temporary's 0600";
}

TEST(AtomicWrite, NonexistentDirectoryIsAnIoErrorAndCreatesNothing) {
  TempDir dir;
  const fs::path target = dir / "missing" / "m.onnx";
  try {
    save_model(small_model(), target);
    ADD_FAILURE() << "no exception";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "missing"));
  EXPECT_TRUE(list_dir(dir.path()).empty());
}

TEST(AtomicWrite, FailureMidwayLeavesNoFileAndKeepsTheOldOne) {
  TempDir dir;
  const fs::path target = dir / "m.onnx";
  testing::write_bytes(target, "old contents");

  // The first initializer goes to the side file; the second cannot be
  // written (an undefined tensor), after the side file's temporary exists.
  ir::Model broken = small_model();
  broken.graph().add_initializer("broken", ir::Tensor());
  SaveOptions options;
  options.use_external_data = true;
  options.external_data_threshold = 1024;
  try {
    save_model(broken, target, options);
    ADD_FAILURE() << "no exception";
  } catch (const ValidationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(target.string()), std::string::npos) << what;
    EXPECT_NE(what.find("initializer 'broken'"), std::string::npos) << what;
  }
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"m.onnx"});
  EXPECT_EQ(testing::read_bytes(target), "old contents");

  // The same without external data.
  EXPECT_THROW(save_model(broken, target), ValidationError);
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"m.onnx"});
  EXPECT_EQ(testing::read_bytes(target), "old contents");
}

TEST(AtomicWrite, RenameFailureRemovesBothTemporaries) {
  TempDir dir;
  // The side file's destination is a non-empty directory: its rename fails
  // after both temporaries are complete.
  fs::create_directories(dir / "m.onnx.data" / "occupied");
  SaveOptions options;
  options.use_external_data = true;
  EXPECT_THROW(save_model(small_model(), dir / "m.onnx", options), IoError);
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"m.onnx.data"});
  EXPECT_EQ(list_dir(dir / "m.onnx.data"), std::vector<std::string>{"occupied"});
}

TEST(AtomicWrite, InvalidGraphsAreRejectedBeforeWriting) {
  TempDir dir;
  // A node reads a value that has no name: nothing could refer to it.
  ir::Model m = small_model();
  ir::Node* relu = m.graph().append_node("Relu", {m.graph().inputs()[0]}, 1);
  m.graph().append_node("Neg", {relu->output(0)}, 1)->output(0)->set_name("z");
  try {
    save_model(m, dir / "m.onnx");
    ADD_FAILURE() << "no exception";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("Neg"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("without a name"), std::string::npos) << e.what();
  }
  // Two values with one name.
  ir::Model dup = small_model();
  dup.graph().append_node("Relu", {dup.graph().inputs()[0]}, 1)->output(0)->set_name("y");
  EXPECT_THROW(save_model(dup, dir / "m.onnx"), ValidationError);
  // A value of another graph.
  ir::Model other = small_model();
  ir::Model foreign = small_model();
  other.graph().append_node("Relu", {foreign.graph().inputs()[0]}, 1)->output(0)->set_name("r");
  foreign.graph().inputs()[0]->set_name("elsewhere");
  EXPECT_THROW(save_model(other, dir / "m.onnx"), ValidationError);
  // An attribute whose value contradicts its type.
  ir::Model bad_attr = small_model();
  bad_attr.graph().first_node()->set_attribute(
      ir::Attribute("axis", ir::AttributeType::kInt, std::vector<float>{1.0f}));
  EXPECT_THROW(save_model(bad_attr, dir / "m.onnx"), ValidationError);
  EXPECT_TRUE(list_dir(dir.path()).empty());
}

TEST(AtomicWrite, TensorFilesAreAtomicToo) {
  TempDir dir;
  EXPECT_THROW(save_tensor_pb(ir::Tensor(), dir / "t.pb"), ValidationError);
  EXPECT_THROW(save_tensor_pb(ir::Tensor(DataType::kFloat, {1}), dir / "no" / "t.pb"), IoError);
  EXPECT_TRUE(list_dir(dir.path()).empty());
}

}  // namespace
}  // namespace onnxscript::serde
