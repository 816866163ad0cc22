#pragma once
// Loading a model at memory speed. libprotobuf copies every raw_data into a
// string of its own, and a copy into fresh memory costs a page fault per
// 4 KiB: for a model of 100 MB of weights that was most of the load. So the
// loader walks the framing of the file's bytes itself first (ModelProto.graph
// -> GraphProto.initializer -> TensorProto.raw_data), copies each large
// raw_data once into one 64-byte-aligned arena backed by huge pages, and hands
// protobuf a "skeleton": the same model with those raw_data fields left empty
// (their enclosing length prefixes re-encoded). The reader then gives each
// lifted initializer its part of the arena as storage.
//
// Anything the walk does not expect (a framing error, a second graph field, a
// raw_data given twice, groups) makes it give up, and the bytes are parsed by
// protobuf as they are: errors in corrupt files are reported by the same code
// as before, with the same messages.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/tensor.h"

namespace onnxscript::serde::detail {

// raw_data of at least this many bytes in an initializer of the main graph is
// lifted out of the bytes protobuf parses.
inline constexpr size_t kMinLiftedRawData = 4096;

// A model's bytes with the large raw_data payloads moved out.
struct SplitModel {
  // ModelProto bytes; lifted raw_data fields are present and empty.
  std::string skeleton;
  // One entry per initializer of the main graph, in file order: the storage
  // holding its raw_data when it was lifted, else null.
  std::vector<std::shared_ptr<ir::Storage>> initializer_raw_data;
};

// Splits the ModelProto in `bytes`. Returns false, leaving `out` alone, when
// there is nothing to lift or the framing is not what the walk expects (the
// caller then parses `bytes` as they are). Throws std::bad_alloc when the
// arena cannot be allocated.
bool split_model_bytes(std::string_view bytes, SplitModel* out);

}  // namespace onnxscript::serde::detail
