#include "infer/inference_memo.h"

#include <cstring>
#include <unordered_map>
#include <variant>

namespace onnxscript::infer {

namespace {

// The key is binary: fixed-width numbers and length-prefixed strings, so no
// two different signatures can spell the same key.
void put_int(std::string& key, int64_t v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  key.append(bytes, sizeof v);
}

void put_string(std::string& key, std::string_view s) {
  put_int(key, static_cast<int64_t>(s.size()));
  key.append(s);
}

void put_type(std::string& key, const ir::Type& type) {
  key += static_cast<char>(type.kind);
  put_int(key, static_cast<int64_t>(type.elem_type));
  if (type.shape) {
    put_int(key, static_cast<int64_t>(type.shape->size()));
    for (const ir::Dim& d : *type.shape) {
      if (d.is_static()) {
        key += 'v';
        put_int(key, d.value());
      } else if (d.is_symbolic()) {
        key += 's';
        put_string(key, d.symbol());
      } else {
        key += 'u';
      }
      put_string(key, d.denotation);
    }
  } else {
    put_int(key, -1);  // unknown rank
  }
  put_string(key, type.opaque_domain());
  put_string(key, type.opaque_name());
  put_string(key, type.denotation());
  if (type.element) {
    key += 'e';
    put_type(key, *type.element);
  } else {
    key += '-';
  }
}

bool put_tensor(std::string& key, const ir::Tensor& t) {
  // String elements are objects, not bytes; such attributes are rare.
  if (t.dtype() == ir::DataType::kString) return false;
  put_int(key, static_cast<int64_t>(t.dtype()));
  put_int(key, static_cast<int64_t>(t.shape().size()));
  for (int64_t d : t.shape()) put_int(key, d);
  put_string(key, std::string_view(static_cast<const char*>(t.raw_data()), t.nbytes()));
  return true;
}

bool put_attribute(std::string& key, const ir::Attribute& a) {
  put_string(key, a.name);
  put_int(key, static_cast<int64_t>(a.type));
  return std::visit(
      [&](const auto& v) -> bool {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, float>) {
          key.append(reinterpret_cast<const char*>(&v), sizeof v);
        } else if constexpr (std::is_same_v<V, int64_t>) {
          put_int(key, v);
        } else if constexpr (std::is_same_v<V, std::string>) {
          put_string(key, v);
        } else if constexpr (std::is_same_v<V, std::vector<float>>) {
          put_string(key, std::string_view(reinterpret_cast<const char*>(v.data()),
                                           v.size() * sizeof(float)));
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          put_string(key, std::string_view(reinterpret_cast<const char*>(v.data()),
                                           v.size() * sizeof(int64_t)));
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
          put_int(key, static_cast<int64_t>(v.size()));
          for (const std::string& s : v) put_string(key, s);
        } else if constexpr (std::is_same_v<V, ir::Tensor>) {
          return put_tensor(key, v);
        } else if constexpr (std::is_same_v<V, std::vector<ir::Tensor>>) {
          put_int(key, static_cast<int64_t>(v.size()));
          for (const ir::Tensor& t : v)
            if (!put_tensor(key, t)) return false;
        } else if constexpr (std::is_same_v<V, ir::Type>) {
          put_type(key, v);
        } else if constexpr (std::is_same_v<V, std::vector<ir::Type>>) {
          put_int(key, static_cast<int64_t>(v.size()));
          for (const ir::Type& t : v) put_type(key, t);
        } else {
          // Graphs, sparse tensors and empty payloads: the caller never
          // reaches the rule with these (see infer_node_outputs), and the
          // memo stays out of the way if it ever does.
          return false;
        }
        return true;
      },
      a.value);
}

// Large enough for every distinct signature of a big model; small enough
// that a pathological stream of distinct signatures cannot grow it without
// bound.
constexpr size_t kMaxEntries = 1 << 14;

std::unordered_map<std::string, InferredTypes>& memo() {
  thread_local std::unordered_map<std::string, InferredTypes> table;
  return table;
}

}  // namespace

bool inference_memo_key(const ir::Node& node, int64_t opset_version, std::string& key) {
  key.clear();
  put_string(key, node.domain());
  put_string(key, node.op_type());
  put_int(key, opset_version);
  put_int(key, static_cast<int64_t>(node.outputs().size()));
  put_int(key, static_cast<int64_t>(node.inputs().size()));
  for (const ir::Value* v : node.inputs()) {
    if (!v) {
      key += 'o';  // omitted
    } else if (!v->type()) {
      key += '?';
    } else {
      key += 't';
      put_type(key, *v->type());
    }
  }
  for (const ir::Attribute& a : node.attributes()) {
    if (a.is_reference() || !put_attribute(key, a)) return false;
  }
  return true;
}

const InferredTypes* recall_inference(const std::string& key) {
  auto& table = memo();
  auto it = table.find(key);
  return it == table.end() ? nullptr : &it->second;
}

void remember_inference(std::string key, InferredTypes types) {
  auto& table = memo();
  if (table.size() >= kMaxEntries) table.clear();
  table.insert_or_assign(std::move(key), std::move(types));
}

}  // namespace onnxscript::infer
