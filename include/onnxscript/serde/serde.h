#pragma once
/// \file
/// Reading and writing ONNX models in the binary wire format (IR version 11),
/// with external data.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "onnxscript/ir/model.h"

namespace onnxscript::serde {

/// How save_model lays out tensor data.
struct SaveOptions {
  /// When true, initializers (and Constant tensors) of at least
  /// `external_data_threshold` bytes go to a side file next to the model.
  bool use_external_data = false;
  /// Size in bytes from which a tensor goes to the side file.
  size_t external_data_threshold = 1024;
  /// The side file's name, relative to the model's directory. Empty means
  /// "<model file name>.data".
  std::string external_data_file;
};

/// Reads a model from a file. External data is resolved relative to the
/// file's directory, and must stay inside it. Throws ParseError, ValidationError
/// or IoError naming the file and the problem.
ir::Model load_model(const std::filesystem::path& path);

/// Reads a model from bytes. `base_dir` resolves external data (empty: none
/// allowed); `source_name` names the source in error messages.
ir::Model load_model_from_bytes(std::string_view bytes, const std::filesystem::path& base_dir = {},
                                std::string_view source_name = "<memory>");

/// Writes a model atomically: to a temporary file in the same directory, then
/// renamed, so a failed save leaves no partial file. Models whose protobuf
/// encoding would exceed 2 GB must use external data; this is turned on
/// automatically for them.
void save_model(const ir::Model& model, const std::filesystem::path& path, const SaveOptions& options = {});

/// The lowest IR version that can hold everything the model uses (element
/// types, optional types, function attribute defaults, overloads, metadata...).
/// Exporters write this; load/save keeps whatever version the model states.
int64_t required_ir_version(const ir::Model& model);

/// The model's wire bytes, with all tensor data inline. Throws Error when
/// the result would exceed protobuf's 2 GB limit.
std::string serialize_model(const ir::Model& model);

}  // namespace onnxscript::serde
