#include "onnxscript/script/trace.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "onnxscript/script/op_call.h"

namespace onnxscript {

namespace {
thread_local TraceScope* current_trace = nullptr;
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
  if (version == last_version_ && domain == last_domain_) return;
  if (auto existing = opsets_.find(domain)) {
    if (*existing != version && domain.empty() && onnx_opset_provisional_) {
      // The default that overloads declared gives way to the explicit version.
      onnx_opset_provisional_ = false;
      opsets_.set(std::string(domain), version);
      if (parent_ && nesting_ == Nesting::kSubgraph) parent_->use_opset(domain, version);
    } else if (*existing != version) {
      throw ScriptError(
          fmt::format("opset conflict: domain '{}' is used at version {} and at version {}",
                      domain.empty() ? "ai.onnx" : domain, *existing, version));
    }
  } else {
    opsets_.set(std::string(domain), version);
    if (parent_ && nesting_ == Nesting::kSubgraph) parent_->use_opset(domain, version);
  }
  last_domain_ = domain;
  last_version_ = version;
}

void TraceScope::use_default_onnx_opset(int64_t version) {
  if (opsets_.find("")) return;
  // Inherited from an enclosing trace, the version is as settled as it is there.
  const bool inherited = parent_ && nesting_ == Nesting::kSubgraph && parent_->onnx_opset();
  opsets_.set("", version);
  onnx_opset_provisional_ = !inherited;
  if (parent_ && nesting_ == Nesting::kSubgraph) parent_->use_default_onnx_opset(version);
  last_domain_.clear();
  last_version_ = version;
}

std::optional<int64_t> TraceScope::onnx_opset() const {
  for (const TraceScope* s = this; s != nullptr;
       s = s->nesting_ == Nesting::kSubgraph ? s->parent_ : nullptr) {
    if (auto v = s->opsets_.find("")) return *v;
  }
  return std::nullopt;
}

std::string TraceScope::fresh_name(std::string_view hint) {
  // On the tracing hot path (one call per value): no format string, and the
  // number's digits are usually those of the last one plus one.
  const int64_t id = next_id_++;
  if (id == spelled_id_ + 1) {
    int i = spelled_length_ - 1;
    while (i >= 0 && spelled_digits_[i] == '9') spelled_digits_[i--] = '0';
    if (i >= 0) {
      ++spelled_digits_[i];
    } else {  // 99 -> 100
      std::memmove(spelled_digits_ + 1, spelled_digits_, spelled_length_++);
      spelled_digits_[0] = '1';
    }
  } else if (id != spelled_id_) {
    const auto end =
        std::to_chars(spelled_digits_, spelled_digits_ + sizeof spelled_digits_, id).ptr;
    spelled_length_ = static_cast<uint8_t>(end - spelled_digits_);
  }
  spelled_id_ = id;
  const std::string_view digits(spelled_digits_, spelled_length_);
  // Spelled into a buffer and copied once: short names fit std::string's
  // inline storage, so that is the only copy.
  char buffer[64];
  if (hint.size() + 1 + digits.size() > sizeof buffer) return fmt::format("{}_{}", hint, digits);
  char* p = buffer;
  if (hint.empty()) {
    *p++ = 't';
  } else {
    p = std::copy(hint.begin(), hint.end(), p);
    *p++ = '_';
  }
  p = std::copy(digits.begin(), digits.end(), p);
  return std::string(buffer, p);
}

}  // namespace onnxscript
