#pragma once
// Interned strings: one shared, immortal copy of each distinct operator type
// and domain. A node then holds two pointers instead of two std::string
// objects (48 bytes smaller), and building a node copies no characters: on a
// traced chain of a hundred thousand operators those copies were a tenth of
// the tracing time.
//
// Interned strings are never freed. Operator types and domains are few in
// any real program; a process that loads models with ever new operator names
// (a fuzzer, say) keeps each name it has seen, a few dozen bytes apiece.

#include <string>
#include <string_view>

namespace onnxscript::ir::detail {

/// The interned copy of `text`: equal texts give the same object, which
/// lives until the program ends. Thread-safe.
const std::string& intern(std::string_view text);

}  // namespace onnxscript::ir::detail
