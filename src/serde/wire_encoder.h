#pragma once
// The fast path of serialize_model and save_model: ir::Model -> ModelProto
// bytes written directly, without building protobuf messages. See the
// comment at the top of wire_encoder.cc for how it relates to the general
// writer (model_writer.cc), which stays the reference.

#include <cstddef>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::serde::detail {

// Encodes `model` as ModelProto bytes into `*out` (replacing its contents)
// and returns true when the model is in the subset this encoder handles; the
// bytes are then identical to what write_model_proto followed by
// SerializeAsString() produces.
//
// Returns false, leaving `*out` empty, for anything else: residue the
// encoder does not understand, training_info, configuration,
// device_configurations, sparse tensors, external-data tensors, a size near
// or over protobuf's 2 GB limit, and every condition for which the general
// writer throws (unnamed or ambiguous values, attribute type mismatches,
// undefined tensors, ...). The caller then falls back to the general writer,
// which produces the bytes or the precise error.
//
// `bail_reason`, when not null, receives a short static description of why
// the encoder returned false (for tests and diagnostics), or null on success.
bool encode_model_fast(const ir::Model& model, std::string* out,
                       const char** bail_reason = nullptr);

// A byte string that belongs at offset `at` of an encoder's output but was
// not copied there: the output is the buffer's bytes before `at`, then
// `size` bytes from `data`, then the rest (the next splice's `at` counts in
// the buffer, without the spliced bytes).
struct Splice {
  size_t at;
  const char* data;
  size_t size;
};

// Like encode_model_fast, for writing a model to a file without a copy of
// its weights: raw_data of at least `min_splice` bytes is not copied into
// `*out` but listed in `*splices` (pointing into the model's tensors, which
// must outlive the writing). The pieces in order are the bytes
// encode_model_fast gives.
bool encode_model_fast_spliced(const ir::Model& model, size_t min_splice, std::string* out,
                               std::vector<Splice>* splices);

}  // namespace onnxscript::serde::detail
