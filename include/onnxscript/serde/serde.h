#pragma once
/// \file
/// Reading and writing ONNX models and tensors in the binary wire format (IR
/// version 11), with external data.
///
/// Loading then saving a model reproduces its ModelProto: every field the IR
/// models, the fields it keeps as bytes (training_info, configuration,
/// device_configurations), unknown fields, the way each tensor was encoded
/// (raw_data or typed fields), and whether fields that hold their default
/// value were written at all (`domain: ""` versus no domain).
///
/// How the IR keeps what it does not model: the `unknown_fields` member of
/// Model, Graph, Node, Attribute, Value, Function and TensorProtoInfo holds
/// the message's unknown fields, serialized. The reader also records there,
/// as protobuf fields with the message's own field numbers, which fields were
/// present with their default value (and, for attribute types, which were
/// absent). A file never contributes such entries itself: a known field number
/// among a file's unknown fields means a wrong wire type, which the reader
/// rejects. The writer re-applies them only where the IR leaves the field at
/// its default, so they never change what a model means. Unknown fields of
/// messages without an IR counterpart (TypeProto, OperatorSetIdProto,
/// StringStringEntryProto, TensorShapeProto, SparseTensorProto) are dropped.
///
/// Every error is an onnxscript::Error subclass (ParseError, ValidationError,
/// IoError) whose message names the file or source, the path to the object
/// (graph, node, attribute, tensor) and the problem.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "onnxscript/ir/model.h"

namespace onnxscript::serde {

/// The largest message protobuf can encode or decode: 2 GiB - 1 bytes.
inline constexpr size_t kMaxProtoBytes = 0x7fffffff;

/// The default of set_encoder_scratch_retention_bytes: 16 MiB.
inline constexpr size_t kDefaultEncoderScratchRetentionBytes = size_t{16} << 20;
/// The most working memory (name tables and lists, megabytes for a model of
/// a million nodes) that a thread keeps after writing a model, for the next
/// one it writes. Writing one large model after another is faster with more;
/// a service that writes one model wants 0. Applies to every thread; this
/// thread's kept memory above a lower limit is freed at once, another
/// thread's when it next writes a model.
void set_encoder_scratch_retention_bytes(size_t bytes);
/// The current limit.
size_t encoder_scratch_retention_bytes();
/// What this thread keeps now.
size_t encoder_scratch_retained_bytes();

/// How save_model lays out tensor data.
struct SaveOptions {
  /// When true, tensors (initializers, Constant and other tensor attributes,
  /// in every graph and function) of at least `external_data_threshold` bytes
  /// go to a side file next to the model. String tensors always stay inline.
  bool use_external_data = false;
  /// Size in bytes from which a tensor goes to the side file.
  size_t external_data_threshold = 1024;
  /// The side file's name, relative to the model's directory. Empty means
  /// "<model file name>.data".
  std::string external_data_file;
  /// Offsets of tensors in the side file are multiples of this (a power of
  /// two), so that mapped tensors are aligned for vector loads.
  size_t external_data_alignment = 64;
};

/// Reads a model from a file. External data is resolved relative to the
/// file's directory, must stay inside it, and is memory-mapped read-only:
/// tensors over external data share one read-only mapping per side file, so
/// writing through Tensor::data() into them faults. Throws ParseError,
/// ValidationError or IoError naming the file and the problem.
ir::Model load_model(const std::filesystem::path& path);

/// Reads a model from bytes. `base_dir` resolves external data (empty: none
/// allowed); `source_name` names the source in error messages.
ir::Model load_model_from_bytes(std::string_view bytes, const std::filesystem::path& base_dir = {},
                                std::string_view source_name = "<memory>");

/// Writes a model atomically: to temporary files in the destination
/// directory (the model, and the side file when there is one), flushed to
/// disk, then renamed into place, so a failed save leaves neither a partial
/// file nor a temporary one, and an existing destination untouched. The side
/// file is renamed just before the model; a failure between the two renames
/// (rare: both temporaries are complete by then) leaves the new side file
/// with the old model. Models whose protobuf encoding would exceed 2 GB
/// have external data turned on automatically. Throws IoError or
/// ValidationError naming the file.
void save_model(const ir::Model& model, const std::filesystem::path& path,
                const SaveOptions& options = {});

/// The lowest IR version that can hold everything the model uses: element
/// types, optional and sparse types, model-local functions, function attribute
/// defaults, overloads, metadata, multi-device configuration, and the IR
/// version its opset imports require. Exporters write this; load/save keeps
/// whatever version the model states.
int64_t required_ir_version(const ir::Model& model);

/// The model's wire bytes, with all tensor data inline. Throws Error when
/// the result would exceed protobuf's 2 GB limit.
std::string serialize_model(const ir::Model& model);

// ---- tensors (TensorProto), as in the test data of the ONNX backend tests ----

/// Decodes a TensorProto. The tensor keeps its proto facts (name, encoding)
/// in proto_info(). `base_dir` resolves external data (empty: none allowed).
/// Throws ParseError or ValidationError naming `source_name`.
ir::Tensor tensor_from_proto_bytes(std::string_view bytes,
                                   const std::filesystem::path& base_dir = {},
                                   std::string_view source_name = "<memory>");

/// Encodes a tensor as a TensorProto with its data inline, in the encoding
/// its proto_info() records (raw_data for new tensors, string_data for
/// strings). Throws ValidationError for an undefined tensor.
std::string tensor_to_proto_bytes(const ir::Tensor& tensor);

/// Reads a TensorProto file (input_0.pb and the like). External data is
/// resolved relative to the file's directory.
ir::Tensor load_tensor_pb(const std::filesystem::path& path);

/// Writes a tensor as a TensorProto file, atomically.
void save_tensor_pb(const ir::Tensor& tensor, const std::filesystem::path& path);

}  // namespace onnxscript::serde
