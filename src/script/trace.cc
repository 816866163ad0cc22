#include "onnxscript/script/trace.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include <fmt/format.h>

#include "onnxscript/script/op_call.h"

namespace onnxscript {

namespace {
thread_local TraceScope* current_trace = nullptr;
thread_local EagerScope* current_eager = nullptr;
thread_local TraceOptions current_options;
}  // namespace

const TraceOptions& trace_options() { return current_options; }

ScopedTraceOptions::ScopedTraceOptions(TraceOptions options) : previous_(current_options) {
  current_options = options;
}

ScopedTraceOptions::~ScopedTraceOptions() { current_options = previous_; }

TraceScope::TraceScope(ir::Graph& graph, ir::OpsetImports& opsets, Nesting nesting)
    : graph_(graph), opsets_(opsets), parent_(current_trace), nesting_(nesting) {
  if (parent_ && nesting_ == Nesting::kSubgraph) next_id_ = parent_->next_id_;
  current_trace = this;
}

TraceScope::~TraceScope() {
  if (parent_ && nesting_ == Nesting::kSubgraph) parent_->next_id_ = next_id_;
  current_trace = parent_;
}

TraceScope* TraceScope::current() { return current_trace; }

void TraceScope::use_opset(std::string_view domain, int64_t version) {
  if (auto existing = opsets_.find(domain)) {
    if (*existing != version) {
      throw ScriptError(
          fmt::format("opset conflict: domain '{}' is used at version {} and at version {}",
                      domain.empty() ? "ai.onnx" : domain, *existing, version));
    }
    return;
  }
  opsets_.set(std::string(domain), version);
  if (parent_ && nesting_ == Nesting::kSubgraph) parent_->use_opset(domain, version);
}

std::string TraceScope::fresh_name(std::string_view hint) {
  // On the tracing hot path (one call per value): no format string parsing.
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, next_id_++).ptr;
  std::string name;
  name.reserve(hint.size() + 1 + static_cast<size_t>(end - digits));
  if (hint.empty()) {
    name += 't';
  } else {
    name += hint;
    name += '_';
  }
  name.append(digits, end);
  return name;
}

struct EagerScope::Arena {
  // Blocks that never reallocate keep element addresses stable as the arena
  // grows; each is twice the last (up to a cap), so a long eager chain costs
  // few allocations.
  std::vector<std::vector<eval::RuntimeValue>> blocks;

  const eval::RuntimeValue* push(eval::RuntimeValue value) {
    if (blocks.empty() || blocks.back().size() == blocks.back().capacity()) {
      constexpr size_t kFirstBlock = 16, kLargestBlock = 4096;
      const size_t size =
          blocks.empty() ? kFirstBlock : std::min(2 * blocks.back().capacity(), kLargestBlock);
      blocks.emplace_back().reserve(size);
    }
    blocks.back().push_back(std::move(value));
    return &blocks.back().back();
  }
};

EagerScope::EagerScope() : arena_(new Arena), parent_(current_eager) { current_eager = this; }

EagerScope::~EagerScope() {
  current_eager = parent_;
  delete arena_;
}

const eval::RuntimeValue* EagerScope::hold(eval::RuntimeValue value) {
  // Values created outside any explicit scope live as long as the thread.
  thread_local Arena thread_arena;
  Arena* arena = current_eager ? current_eager->arena_ : &thread_arena;
  return arena->push(std::move(value));
}

}  // namespace onnxscript
