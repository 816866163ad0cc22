#pragma once
// A memo of per-node type inference. Real graphs repeat the same few
// signatures over and over (every layer of a transformer, every link of a
// chain), and asking libonnx costs a microsecond or more per node: the node's
// types and attributes are converted to protos, the rule runs, and its result
// is converted back. The memo answers a repeated signature with a hash lookup.
//
// Soundness: a rule's result depends on the operator (and version), the
// number of outputs, the input types, the attributes, and the data of
// constant inputs that it asks for. The key holds all but the last; a result
// is stored only when the rule asked for no input data, so that what it
// computed depended on the key alone. Failures are never stored: the rule
// runs again and throws its own message.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/ir/graph.h"

namespace onnxscript::infer {

// The output types a rule gave; nullopt where it left an output untyped.
using InferredTypes = std::vector<std::optional<ir::Type>>;

// Builds into `key` the memo key of `node` at `opset_version`. Returns false
// for nodes the memo cannot describe (an attribute it cannot encode, such as
// a string tensor): those always run the rule.
bool inference_memo_key(const ir::Node& node, int64_t opset_version, std::string& key);

// The types stored under `key`, or null. The pointer stays valid until the
// next call to remember_inference on this thread.
const InferredTypes* recall_inference(const std::string& key);

// Stores `types` under `key`. The memo is per thread and bounded: when it is
// full it starts over, which costs a few misses and keeps memory flat.
void remember_inference(std::string key, InferredTypes types);

}  // namespace onnxscript::infer
