#pragma once
// External data: tensor bytes kept in side files next to the model.
//
// Reading maps each side file once, read-only and shared, and hands out
// tensors that point into the mapping, so opening a multi-gigabyte model costs
// page-table entries, not copies. Every location must name a regular file
// inside the model's directory: absolute paths, ".." components and symlinks
// that lead elsewhere are refused, because a model file is untrusted input
// and must not make us read arbitrary files.
//
// Writing appends tensors to one side file at aligned offsets. Runs of zero
// bytes become holes, so zero-initialised weights take no disk space.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "onnxscript/support/file_io.h"
#include "serde/proto_codec.h"

namespace onnxscript::serde::detail {

// Rejects locations that are empty, absolute, or contain "..". Throws IoError.
void check_relative_location(std::string_view location, const ErrorContext& ctx);

// Maps side files relative to a model directory.
class ExternalDataReader final : public ExternalDataSource {
 public:
  explicit ExternalDataReader(std::filesystem::path base_dir) : base_dir_(std::move(base_dir)) {}
  std::shared_ptr<ir::Storage> open(std::string_view location, const ErrorContext& ctx) override;

 private:
  std::filesystem::path base_dir_;
  std::filesystem::path canonical_base_;  // resolved on first use
  std::unordered_map<std::string, std::shared_ptr<ir::Storage>> files_;
};

// Sends tensors of at least `threshold` bytes to a side file. The file is
// created on the first such tensor, as a temporary published by publish().
class ExternalDataWriter final : public TensorDataSink {
 public:
  // `path` is the side file; `location` is how TensorProtos name it.
  ExternalDataWriter(std::filesystem::path path, std::string location, size_t threshold,
                     size_t alignment)
      : path_(std::move(path)),
        location_(std::move(location)),
        threshold_(threshold),
        alignment_(alignment) {}

  bool place(const ir::Tensor& tensor, bool typed, wire::TensorProto* proto,
             const ErrorContext& ctx) override;

  // True once a tensor went to the side file.
  bool used() const { return file_ != nullptr; }
  // Flushes the side file (see AtomicFile::finish).
  void finish() {
    if (file_) file_->finish();
  }
  // Renames the side file into place (see AtomicFile::publish).
  void publish() {
    if (file_) file_->publish();
  }

 private:
  std::filesystem::path path_;
  std::string location_;
  size_t threshold_;
  size_t alignment_;
  std::unique_ptr<AtomicFile> file_;
};

}  // namespace onnxscript::serde::detail
