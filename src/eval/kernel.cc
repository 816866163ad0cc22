#include "onnxscript/eval/kernel.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "onnxscript/eval/schema_versions.h"

namespace onnxscript::eval {

namespace {
const RuntimeValue kNoValue;

std::string_view canonical_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}
}  // namespace

// ---------------------------------------------------------------- KernelContext

const RuntimeValue& KernelContext::input(size_t i) const {
  if (i >= num_inputs_) return kNoValue;
  if (input_values_) return input_values_[i];
  const RuntimeValue* value = input_pointers_[i];
  return value ? *value : kNoValue;
}

const Tensor& KernelContext::input_tensor(size_t i) const {
  const RuntimeValue& v = input(i);
  if (!v.is_tensor()) {
    fail(fmt::format("input {} must be a tensor but is {}", i, v.describe()));
  }
  return v.tensor();
}

void KernelContext::set_output(size_t i, RuntimeValue value) {
  if (i >= outputs_.size())
    fail(fmt::format("kernel set output {} but the node has {}", i, outputs_.size()));
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
#define ONNXSCRIPT_ATTR_GETTER(ret, method, accessor, param)               \
  ret KernelContext::method(std::string_view name, param fallback) const { \
    const ir::Attribute* a = attribute(name);                              \
    if (!a) return ret(std::move(fallback));                               \
    try {                                                                  \
      return ret(a->accessor());                                           \
    } catch (const TypeError& e) {                                         \
      fail(e.what());                                                      \
    }                                                                      \
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
  throw KernelError(
      fmt::format("{}{}{}: {}", op_.domain, op_.domain.empty() ? "" : ".", op_.op_type, message));
}

// ---------------------------------------------------------------- KernelRegistry

void KernelRegistry::add(std::string_view domain, std::string_view op_type, int64_t since_version,
                         KernelFn fn) {
  domain = canonical_domain(domain);
  auto d = std::find_if(domains_.begin(), domains_.end(),
                        [&](const auto& entry) { return entry.first == domain; });
  if (d == domains_.end()) d = domains_.insert(domains_.end(), {std::string(domain), OpMap{}});
  auto [op, inserted] = d->second.try_emplace(std::string(op_type));
  if (inserted) op->second.schema = schema_versions(domain, op_type);
  const std::span<const int64_t> schema = op->second.schema;
  ONNXSCRIPT_CHECK(
      schema.empty() || std::binary_search(schema.begin(), schema.end(), since_version),
      "kernel {}.{}-{} registered at a version the operator's schema does not have", domain,
      op_type, since_version);
  auto& kernels = op->second.kernels;
  auto it = std::lower_bound(kernels.begin(), kernels.end(), since_version,
                             [](const auto& v, int64_t since) { return v.first < since; });
  ONNXSCRIPT_CHECK(it == kernels.end() || it->first != since_version,
                   "kernel {}.{}-{} registered twice", domain, op_type, since_version);
  kernels.insert(it, {since_version, fn});
}

KernelFn KernelRegistry::find(std::string_view domain, std::string_view op_type,
                              int64_t version) const {
  domain = canonical_domain(domain);
  for (const auto& [name, ops] : domains_) {
    if (name != domain) continue;
    auto op = ops.find(op_type);
    if (op == ops.end()) return nullptr;
    const auto& kernels = op->second.kernels;
    const std::span<const int64_t> schema = op->second.schema;
    if (schema.empty()) {
      // Unknown to the since-version table: the last kernel whose since_version <= version.
      for (auto v = kernels.rbegin(); v != kernels.rend(); ++v) {
        if (v->first <= version) return v->second;
      }
      return nullptr;
    }
    // The schema version the opset selects, then a kernel registered at exactly it.
    auto s = std::upper_bound(schema.begin(), schema.end(), version);
    if (s == schema.begin()) return nullptr;
    const int64_t since = *(s - 1);
    for (const auto& [v, fn] : kernels) {
      if (v == since) return fn;
    }
    return nullptr;
  }
  return nullptr;
}

std::vector<std::tuple<std::string, std::string, int64_t>> KernelRegistry::entries() const {
  std::vector<std::tuple<std::string, std::string, int64_t>> out;
  for (const auto& [domain, ops] : domains_) {
    for (const auto& [op_type, versions] : ops) {
      for (const auto& [since, fn] : versions.kernels) out.emplace_back(domain, op_type, since);
    }
  }
  std::sort(out.begin(), out.end());
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
