#include "onnxscript/script/indexing.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"

namespace onnxscript {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// What is known of a value's shape: its rank and the static dimensions.
struct ShapeInfo {
  std::optional<int64_t> rank;
  std::optional<ir::Shape> shape;  // when the rank is known
};

ShapeInfo shape_of(const Value& v) {
  ShapeInfo info;
  if (v.is_traced()) {
    const auto& type = v.ir_value()->type();
    if (type && type->is_tensor() && type->shape) {
      info.shape = *type->shape;
      info.rank = static_cast<int64_t>(type->shape->size());
    }
  } else if (v.is_concrete() && v.concrete().is_tensor()) {
    ir::Shape shape;
    for (int64_t d : v.tensor().shape()) shape.emplace_back(d);
    info.rank = static_cast<int64_t>(shape.size());
    info.shape = std::move(shape);
  } else if (v.is_literal()) {
    info.rank = 0;
    info.shape = ir::Shape{};
  }
  return info;
}

// One index after the Ellipsis has been placed.
struct Item {
  Index::Kind kind;
  int64_t integer = 0;
  int64_t start = 0, end = 0, step = 1;  // kSlice (defaults resolved)
  bool full = false;                     // kSlice: the whole axis
  Value value;                           // kValue
  ShapeInfo value_shape;                 // kValue
  int64_t axis = 0;                      // input axis; negative when counted from the end
  std::optional<int64_t> out_dims;       // number of output dims this item produces
};

// The number of elements `start:end:step` selects from `dim`, clamped as ONNX Slice does.
int64_t slice_length(int64_t dim, int64_t b, int64_t e, int64_t s) {
  if (b < 0) b += dim;
  if (e < 0) e += dim;
  if (s > 0) {
    b = std::clamp<int64_t>(b, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    return e > b ? (e - b + s - 1) / s : 0;
  }
  b = std::clamp<int64_t>(b, 0, dim - 1);
  e = std::clamp<int64_t>(e, -1, dim - 1);
  return b > e ? (b - e + (-s) - 1) / (-s) : 0;
}

Value int64s(const std::vector<int64_t>& v) {
  return Value(Tensor::from_span<int64_t>(std::span<const int64_t>(v.data(), v.size())));
}

class Subscript {
 public:
  Subscript(Value x, std::span<const Index> indices, std::source_location location)
      : x_(x),
        indices_(indices),
        location_(indices.empty() ? location : indices.front().location()) {}

  Value run() {
    check_subject();
    place_items();
    check_advanced();
    Value y = x_;
    y = apply_slice_and_squeeze(y);
    y = apply_gathers(y);
    y = apply_unsqueeze(y);
    set_result_type(y);
    return y;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw ScriptError(
        fmt::format("indexing {}: {} (at {})", x_.describe(), message, detail::where(location_)));
  }

  Value apply(std::string_view op, std::vector<Value> inputs,
              std::vector<ir::Attribute> attributes = {}) {
    const detail::OpSignature* sig = signature(op);
    return detail::call_op(*sig, version_, inputs, std::move(attributes), 1, location_)[0];
  }

  const detail::OpSignature* signature(std::string_view op) {
    const detail::OpSignature* sig = detail::find_signature("", op, version_);
    if (!sig) fail(fmt::format("operator {} does not exist in opset {}", op, version_));
    return sig;
  }

  void check_subject() {
    if (x_.is_none() || x_.is_literal()) fail("only tensors can be indexed");
    if (x_.is_concrete() && !x_.concrete().is_tensor()) fail("only tensors can be indexed");
    info_ = shape_of(x_);
    version_ = detail::default_opset_version();
    if (TraceScope* scope = TraceScope::current()) scope->use_default_onnx_opset(version_);
  }

  // Resolves slice defaults, places the Ellipsis and numbers the input axes.
  void place_items() {
    std::optional<size_t> ellipsis;
    int64_t consumed = 0;
    for (size_t i = 0; i < indices_.size(); ++i) {
      const Index& index = indices_[i];
      Item item{index.kind()};
      switch (index.kind()) {
        case Index::Kind::kInteger:
          item.integer = index.integer();
          item.out_dims = 0;
          ++consumed;
          break;
        case Index::Kind::kSlice: {
          const Slice& s = index.slice();
          item.step = s.step.value_or(1);
          if (item.step == 0) fail(fmt::format("index {} is a slice with step 0", i));
          item.start = s.start.value_or(item.step > 0 ? 0 : kMax);
          item.end = s.stop.value_or(item.step > 0 ? kMax : kMin);
          item.full = s.is_full();
          item.out_dims = 1;
          ++consumed;
          break;
        }
        case Index::Kind::kValue: {
          const Value v = index.value();
          if (v.kind() == Value::Kind::kIntLiteral) {
            item.kind = Index::Kind::kInteger;
            item.integer = v.literal_as_int();
            item.out_dims = 0;
          } else if (v.is_traced() || (v.is_concrete() && v.concrete().is_tensor())) {
            item.value = v;
            item.value_shape = shape_of(v);
            item.out_dims = item.value_shape.rank;
          } else {
            fail(fmt::format(
                "index {} is {}; an index must be an integer, a Slice, an integer tensor, "
                "Ellipsis or NewAxis",
                i, v.describe()));
          }
          ++consumed;
          break;
        }
        case Index::Kind::kEllipsis:
          if (ellipsis) fail("an index can only have a single Ellipsis");
          ellipsis = items_.size();
          break;
        case Index::Kind::kNewAxis:
          item.out_dims = 1;
          break;
      }
      items_.push_back(std::move(item));
    }
    if (!ellipsis) {
      ellipsis = items_.size();
      items_.push_back(Item{Index::Kind::kEllipsis});
    }
    if (info_.rank && consumed > *info_.rank) {
      fail(fmt::format("too many indices: {} for a value of rank {}", consumed, *info_.rank));
    }
    Item& dots = items_[*ellipsis];
    if (info_.rank) dots.out_dims = *info_.rank - consumed;
    // Axes before the Ellipsis count from the front; after it from the back
    // (made non-negative when the rank is known).
    int64_t axis = 0;
    for (size_t i = 0; i < *ellipsis; ++i) {
      if (consumes(items_[i])) items_[i].axis = axis++;
    }
    axis = 0;
    for (size_t i = items_.size(); i-- > *ellipsis + 1;) {
      if (consumes(items_[i])) items_[i].axis = --axis;
    }
    for (Item& item : items_) {
      if (!consumes(item)) continue;
      if (info_.rank && item.axis < 0) item.axis += *info_.rank;
      const ir::Dim* dim = static_dim(item.axis);
      if (item.kind == Index::Kind::kInteger && dim) {
        const int64_t size = dim->value();
        if (item.integer < -size || item.integer >= size) {
          fail(fmt::format("index {} is out of range for axis {} of size {}", item.integer,
                           item.axis, size));
        }
      }
    }
  }

  static bool consumes(const Item& item) {
    return item.kind == Index::Kind::kInteger || item.kind == Index::Kind::kSlice ||
           item.kind == Index::Kind::kValue;
  }

  // The dimension at input axis `axis` when it is static; null otherwise.
  const ir::Dim* static_dim(int64_t axis) const {
    if (!info_.shape || axis < 0 || axis >= static_cast<int64_t>(info_.shape->size()))
      return nullptr;
    const ir::Dim& d = (*info_.shape)[static_cast<size_t>(axis)];
    return d.is_static() ? &d : nullptr;
  }

  // Sequential Gathers equal numpy's advanced indexing only when at most one
  // tensor index is not a scalar and the integer indices sit next to it.
  void check_advanced() {
    std::vector<size_t> advanced;
    size_t non_scalar = 0;
    for (size_t i = 0; i < items_.size(); ++i) {
      const Item& item = items_[i];
      if (item.kind == Index::Kind::kValue) {
        advanced.push_back(i);
        if (item.value_shape.rank != 0) ++non_scalar;
      } else if (item.kind == Index::Kind::kInteger) {
        advanced.push_back(i);
      }
    }
    if (non_scalar == 0) return;
    if (non_scalar > 1) {
      fail(
          "several tensor indices that are not scalars (or of unknown rank) would broadcast "
          "together in numpy; "
          "index with one at a time, or use GatherND");
    }
    if (advanced.back() - advanced.front() + 1 != advanced.size()) {
      fail(
          "a tensor index and an integer index separated by a slice, Ellipsis or NewAxis: numpy "
          "would move the "
          "indexed dimensions to the front; index in two steps instead");
    }
  }

  Value apply_slice_and_squeeze(Value y) {
    std::vector<const Item*> ints, ranges;
    for (const Item& item : items_) {
      if (item.kind == Index::Kind::kInteger) ints.push_back(&item);
      if (item.kind == Index::Kind::kSlice && !item.full) ranges.push_back(&item);
    }
    if (ints.size() == 1 && ranges.empty()) {
      return apply("Gather", {y, Value(Tensor::scalar<int64_t>(ints[0]->integer))},
                   {ir::Attribute::make_int("axis", ints[0]->axis)});
    }
    if (ints.empty() && ranges.empty()) return y;
    std::vector<int64_t> starts, ends, axes, steps;
    bool unit_steps = true;
    for (const Item& item : items_) {
      if (item.kind == Index::Kind::kInteger) {
        starts.push_back(item.integer);
        ends.push_back(item.integer == -1 ? kMax : item.integer + 1);
        steps.push_back(1);
      } else if (item.kind == Index::Kind::kSlice && !item.full) {
        starts.push_back(item.start);
        ends.push_back(item.end);
        steps.push_back(item.step);
        unit_steps &= item.step == 1;
      } else {
        continue;
      }
      axes.push_back(item.axis);
    }
    if (signature("Slice")->since_version < 10) {
      if (!unit_steps)
        fail(fmt::format("slices with steps need opset 10 or later; this trace uses opset {}",
                         version_));
      y = apply("Slice", {y},
                {ir::Attribute::make_ints("starts", starts), ir::Attribute::make_ints("ends", ends),
                 ir::Attribute::make_ints("axes", axes)});
    } else if (unit_steps) {
      y = apply("Slice", {y, int64s(starts), int64s(ends), int64s(axes)});
    } else {
      y = apply("Slice", {y, int64s(starts), int64s(ends), int64s(axes), int64s(steps)});
    }
    if (ints.empty()) return y;
    std::vector<int64_t> squeeze;
    for (const Item* item : ints) squeeze.push_back(item->axis);
    return squeeze_like("Squeeze", y, squeeze);
  }

  Value squeeze_like(std::string_view op, Value y, const std::vector<int64_t>& axes) {
    if (signature(op)->since_version < 13)
      return apply(op, {y}, {ir::Attribute::make_ints("axes", axes)});
    return apply(op, {y, int64s(axes)});
  }

  // One Gather per tensor index. Integer axes are gone by now; axes counted
  // from the front are done right to left and those from the back left to
  // right, so that no Gather moves an axis still to be gathered.
  Value apply_gathers(Value y) {
    std::vector<std::pair<size_t, int64_t>> front, back;  // item, axis after the Squeeze
    for (size_t i = 0; i < items_.size(); ++i) {
      const Item& item = items_[i];
      if (item.kind != Index::Kind::kValue) continue;
      int64_t axis = item.axis;
      if (axis >= 0) {
        for (size_t j = 0; j < i; ++j) axis -= items_[j].kind == Index::Kind::kInteger ? 1 : 0;
        front.emplace_back(i, axis);
      } else {
        for (size_t j = i + 1; j < items_.size(); ++j)
          axis += items_[j].kind == Index::Kind::kInteger ? 1 : 0;
        back.emplace_back(i, axis);
      }
    }
    std::reverse(front.begin(), front.end());
    for (const auto* list : {&front, &back}) {
      for (const auto& [i, axis] : *list) {
        y = apply("Gather", {y, items_[i].value}, {ir::Attribute::make_int("axis", axis)});
      }
    }
    return y;
  }

  // One Unsqueeze placing every NewAxis, counted from the front when every
  // item before it has a known number of output dimensions, else from the back.
  Value apply_unsqueeze(Value y) {
    std::vector<int64_t> axes;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (items_[i].kind != Index::Kind::kNewAxis) continue;
      if (auto before = count_dims(0, i)) {
        axes.push_back(*before);
      } else if (auto after = count_dims(i + 1, items_.size())) {
        axes.push_back(-*after - 1);
      } else {
        fail(
            fmt::format("cannot place NewAxis (index {}): the rank of the indexed value is "
                        "unknown, and so is the "
                        "rank of a tensor index; give the input a shape (e.g. FLOAT<\"N\", \"M\">)",
                        i));
      }
    }
    if (axes.empty()) return y;
    return squeeze_like("Unsqueeze", y, axes);
  }

  // The output dimensions items [first, last) produce, when known.
  std::optional<int64_t> count_dims(size_t first, size_t last) const {
    int64_t n = 0;
    for (size_t i = first; i < last; ++i) {
      if (!items_[i].out_dims) return std::nullopt;
      n += *items_[i].out_dims;
    }
    return n;
  }

  // Traced results get the type numpy semantics give them when no inference
  // has typed them yet, so that a further subscript knows the rank.
  void set_result_type(const Value& y) {
    if (!y.is_traced() || y.ir_value() == x_.ir_value() || y.ir_value()->type() || !info_.shape)
      return;
    const auto dtype = x_.dtype();
    if (!dtype) return;
    ir::Shape shape;
    int64_t axis = 0;
    for (const Item& item : items_) {
      switch (item.kind) {
        case Index::Kind::kInteger:
          ++axis;
          break;
        case Index::Kind::kSlice: {
          const ir::Dim& d = (*info_.shape)[static_cast<size_t>(axis++)];
          if (item.full) {
            shape.push_back(d);
          } else if (d.is_static()) {
            shape.emplace_back(slice_length(d.value(), item.start, item.end, item.step));
          } else {
            shape.emplace_back();
          }
          break;
        }
        case Index::Kind::kValue:
          if (!item.value_shape.shape) return;
          for (const ir::Dim& d : *item.value_shape.shape) shape.push_back(d);
          ++axis;
          break;
        case Index::Kind::kEllipsis:
          for (int64_t k = 0; k < *item.out_dims; ++k)
            shape.push_back((*info_.shape)[static_cast<size_t>(axis++)]);
          break;
        case Index::Kind::kNewAxis:
          shape.emplace_back(int64_t{1});
          break;
      }
    }
    y.ir_value()->set_type(ir::Type::tensor(*dtype, std::move(shape)));
  }

  Value x_;
  std::span<const Index> indices_;
  std::source_location location_;
  ShapeInfo info_;
  int64_t version_ = 17;
  std::vector<Item> items_;
};

}  // namespace

Value subscript(Value x, std::span<const Index> indices, std::source_location location) {
  return Subscript(x, indices, location).run();
}

Value Value::operator[](const Index& index) const {
  return subscript(*this, std::span<const Index>(&index, 1), index.location());
}

Value Value::operator[](std::initializer_list<Index> indices) const {
  return subscript(*this, std::span<const Index>(indices.begin(), indices.size()),
                   std::source_location::current());
}

}  // namespace onnxscript
