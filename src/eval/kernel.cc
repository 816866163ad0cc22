#include "onnxscript/eval/kernel.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace onnxscript::eval {

namespace {
const RuntimeValue kNoValue;

std::string_view canonical_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}
}  // namespace

// ---------------------------------------------------------------- KernelContext

const RuntimeValue& KernelContext::input(size_t i) const {
  return i < inputs_.size() ? inputs_[i] : kNoValue;
}

const Tensor& KernelContext::input_tensor(size_t i) const {
  const RuntimeValue& v = input(i);
  if (!v.is_tensor()) {
    fail(fmt::format("input {} must be a tensor but is {}", i, v.describe()));
  }
  return v.tensor();
}

void KernelContext::set_output(size_t i, RuntimeValue value) {
  if (i >= outputs_.size()) fail(fmt::format("kernel set output {} but the node has {}", i, outputs_.size()));
  outputs_[i] = std::move(value);
}

const ir::Attribute* KernelContext::attribute(std::string_view name) const {
  for (const ir::Attribute& a : attributes_)
    if (a.name == name) return &a;
  return nullptr;
}

const ir::Attribute& KernelContext::required_attribute(std::string_view name) const {
  const ir::Attribute* a = attribute(name);
  if (!a) fail(fmt::format("required attribute '{}' is missing", name));
  return *a;
}

// Attribute accessors turn an attribute of the wrong type into a KernelError
// that names the operator, rather than the bare TypeError of ir::Attribute.
#define ONNXSCRIPT_ATTR_GETTER(ret, method, accessor, param)          \
  ret KernelContext::method(std::string_view name, param fallback) const { \
    const ir::Attribute* a = attribute(name);                          \
    if (!a) return ret(std::move(fallback));                           \
    try {                                                              \
      return ret(a->accessor());                                       \
    } catch (const TypeError& e) {                                     \
      fail(e.what());                                                  \
    }                                                                  \
  }
ONNXSCRIPT_ATTR_GETTER(int64_t, attr_int, as_int, int64_t)
ONNXSCRIPT_ATTR_GETTER(float, attr_float, as_float, float)
ONNXSCRIPT_ATTR_GETTER(std::string, attr_string, as_string, std::string_view)
ONNXSCRIPT_ATTR_GETTER(std::vector<int64_t>, attr_ints, as_ints, std::vector<int64_t>)
ONNXSCRIPT_ATTR_GETTER(std::vector<float>, attr_floats, as_floats, std::vector<float>)
#undef ONNXSCRIPT_ATTR_GETTER

std::vector<RuntimeValue> KernelContext::run_graph(const ir::Graph& graph,
                                                   std::span<const RuntimeValue> inputs) const {
  if (!runner_) fail("cannot run a subgraph: no graph runner in this context");
  return runner_->run(graph, inputs);
}

void KernelContext::fail(const std::string& message) const {
  throw KernelError(fmt::format("{}{}{}: {}", op_.domain, op_.domain.empty() ? "" : ".", op_.op_type, message));
}

// ---------------------------------------------------------------- KernelRegistry

void KernelRegistry::add(std::string_view domain, std::string_view op_type, int64_t since_version,
                         KernelFn fn) {
  Entry e{std::string(canonical_domain(domain)), std::string(op_type), since_version, fn};
  auto key = [](const Entry& x) { return std::tie(x.domain, x.op_type, x.since_version); };
  auto it = std::lower_bound(entries_.begin(), entries_.end(), e,
                             [&](const Entry& a, const Entry& b) { return key(a) < key(b); });
  ONNXSCRIPT_CHECK(it == entries_.end() || key(*it) != key(e), "kernel {}.{}-{} registered twice",
                   e.domain, e.op_type, since_version);
  entries_.insert(it, std::move(e));
}

KernelFn KernelRegistry::find(std::string_view domain, std::string_view op_type, int64_t version) const {
  domain = canonical_domain(domain);
  // The last entry of this operator whose since_version <= version.
  auto after = [&](const Entry& e) {
    if (e.domain != domain) return std::string_view(e.domain) > domain;
    if (e.op_type != op_type) return std::string_view(e.op_type) > op_type;
    return e.since_version > version;
  };
  auto it = std::partition_point(entries_.begin(), entries_.end(), [&](const Entry& e) { return !after(e); });
  if (it == entries_.begin()) return nullptr;
  --it;
  if (it->domain != domain || it->op_type != op_type) return nullptr;
  return it->fn;
}

std::vector<std::tuple<std::string, std::string, int64_t>> KernelRegistry::entries() const {
  std::vector<std::tuple<std::string, std::string, int64_t>> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.emplace_back(e.domain, e.op_type, e.since_version);
  return out;
}

void register_builtin_kernels(KernelRegistry& registry);  // generated: kernel_table.cc

const KernelRegistry& KernelRegistry::builtin() {
  static const KernelRegistry registry = [] {
    KernelRegistry r;
    register_builtin_kernels(r);
    return r;
  }();
  return registry;
}

}  // namespace onnxscript::eval
