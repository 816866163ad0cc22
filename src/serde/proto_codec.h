#pragma once
// Conversions between the IR's leaf objects and their proto messages:
// tensors (dense and sparse), types, metadata. Model, graph and node
// conversions build on these (model_reader.cc, model_writer.cc).

#include <memory>
#include <string>
#include <string_view>

#include "onnxscript/ir/attribute.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/ir/type.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde/error_context.h"

namespace onnxscript::serde::detail {

// Read side: gives access to external data files named by TensorProtos.
class ExternalDataSource {
 public:
  virtual ~ExternalDataSource() = default;
  // Storage over the whole file `location` (relative to the model's
  // directory). Throws IoError when the path is not allowed or unreadable.
  virtual std::shared_ptr<ir::Storage> open(std::string_view location, const ErrorContext& ctx) = 0;
};

// Write side: decides where the element bytes of a tensor go.
class TensorDataSink {
 public:
  virtual ~TensorDataSink() = default;
  // Called for every tensor with fixed-width elements. Returns true when the
  // sink took care of the data (wrote it to a side file and filled
  // external_data, or deferred raw_data); false to let the encoder write it
  // inline, as typed fields when `typed` is true and as raw_data otherwise.
  virtual bool place(const ir::Tensor& tensor, bool typed, wire::TensorProto* proto,
                     const ErrorContext& ctx) = 0;
};

// Bytes that `numel` elements of `dtype` occupy in raw_data, or -1 when that
// does not fit in int64 (absurd dimensions).
int64_t raw_byte_size(ir::DataType dtype, int64_t numel);

// Decodes a TensorProto. raw_data is released from `proto` once copied, to
// keep peak memory low on big models. `external` may be null (no external
// data allowed). `lifted_raw_data`, when not null, holds the tensor's raw_data
// bytes that the loader moved out of the parsed bytes (raw_data_split.h); the
// proto's own raw_data is then present and empty.
ir::Tensor decode_tensor(wire::TensorProto& proto, ErrorContext& ctx, ExternalDataSource* external,
                         std::shared_ptr<ir::Storage> lifted_raw_data = nullptr);

// Decodes a SparseTensorProto.
ir::SparseTensor decode_sparse_tensor(wire::SparseTensorProto& proto, ErrorContext& ctx,
                                      ExternalDataSource* external);

// Encodes a tensor. `name` overrides the name kept in proto_info (an
// initializer is named by its value). `sink` may be null (all inline).
void encode_tensor(const ir::Tensor& tensor, wire::TensorProto* proto, ErrorContext& ctx,
                   TensorDataSink* sink, const std::string* name = nullptr);

// Encodes a sparse tensor; `name` overrides the values' name.
void encode_sparse_tensor(const ir::SparseTensor& tensor, wire::SparseTensorProto* proto,
                          ErrorContext& ctx, TensorDataSink* sink,
                          const std::string* name = nullptr);

// Decodes a TypeProto.
ir::Type decode_type(const wire::TypeProto& proto, const ErrorContext& ctx);

// Encodes a type.
void encode_type(const ir::Type& type, wire::TypeProto* proto);

// Encodes a shape into a TensorShapeProto of either generated family
// (wire:: here, onnx:: for libonnx interop): their accessors are the same.
template <typename ShapeProto>
void encode_shape(const ir::Shape& shape, ShapeProto* proto) {
  proto->mutable_dim()->Reserve(static_cast<int>(shape.size()));
  for (const ir::Dim& dim : shape) {
    auto* d = proto->add_dim();
    if (dim.is_static()) {
      d->set_dim_value(dim.value());
    } else if (dim.is_symbolic()) {
      d->set_dim_param(dim.symbol());
    }
    if (!dim.denotation.empty()) d->set_denotation(dim.denotation);
  }
}

// Reads metadata_props.
ir::MetadataProps decode_metadata(
    const google::protobuf::RepeatedPtrField<wire::StringStringEntryProto>& entries,
    const ErrorContext& ctx);

// Writes metadata_props (key and value always present, as onnx.helper writes them).
void encode_metadata(const ir::MetadataProps& props,
                     google::protobuf::RepeatedPtrField<wire::StringStringEntryProto>* entries);

}  // namespace onnxscript::serde::detail
