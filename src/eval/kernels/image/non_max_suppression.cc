// NonMaxSuppression: for every batch b and class c, greedily selects boxes
// of boxes[b] (spatial_dimension x 4) in order of decreasing scores[b, c]
// (ties: the lower box index first), skipping a box whose IoU with an
// already selected box of the same (b, c) exceeds iou_threshold, until
// max_output_boxes_per_class are selected. Boxes whose score is not above
// score_threshold (when given) are never selected. Output: int64
// [num_selected, 3] rows [b, c, box], ordered by batch, then class, then
// selection order.
//   center_point_box 0: [y1, x1, y2, x2], any two opposite corners (the
//   corners may come in either order); 1: [x_center, y_center, width, height].
//   IoU = intersection / (area1 + area2 - intersection), taken as 0 when a
//   box has no area. max_output_boxes_per_class absent or 0 selects nothing;
//   iou_threshold defaults to 0 and must lie in [0, 1]. The comparisons
//   (score > threshold, IoU > threshold suppresses) are strict, as in the
//   ONNX reference implementation and ONNX Runtime.
// Versions: 11 only changed the documentation of the box format.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

struct Box {
  float y_min, x_min, y_max, x_max;
};

Box make_box(const float* b, bool center_point) {
  if (center_point) {
    const float xc = b[0], yc = b[1], w = b[2], h = b[3];
    return {yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2};
  }
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

// True when IoU(a, b) > threshold.
bool overlaps_too_much(const Box& a, const Box& b, float threshold) {
  const float area_a = (a.y_max - a.y_min) * (a.x_max - a.x_min);
  const float area_b = (b.y_max - b.y_min) * (b.x_max - b.x_min);
  if (!(area_a > 0) || !(area_b > 0)) return false;  // IoU taken as 0
  const float inter_h = std::max(0.0f, std::min(a.y_max, b.y_max) - std::max(a.y_min, b.y_min));
  const float inter_w = std::max(0.0f, std::min(a.x_max, b.x_max) - std::max(a.x_min, b.x_min));
  const float inter = inter_h * inter_w;
  if (inter <= 0) return false;
  const float iou = inter / (area_a + area_b - inter);
  return iou > threshold;
}

// A one-element optional input, or `fallback` when omitted or empty.
template <typename T>
T optional_scalar(const KernelContext& ctx, size_t i, DataType dtype, const char* what,
                  T fallback) {
  if (!ctx.has_input(i)) return fallback;
  const Tensor& t = ctx.input_tensor(i);
  if (t.dtype() != dtype)
    ctx.fail(fmt::format("{} must be {}, not {}", what, ir::data_type_name(dtype),
                         ir::data_type_name(t.dtype())));
  if (t.numel() == 0) return fallback;
  if (t.numel() != 1) ctx.fail(fmt::format("{} must have one element, not {}", what, t.numel()));
  return t.data<T>()[0];
}

void non_max_suppression(KernelContext& ctx) {
  const Tensor& boxes_t = ctx.input_tensor(0);
  const Tensor& scores_t = ctx.input_tensor(1);
  if (boxes_t.dtype() != DataType::kFloat || scores_t.dtype() != DataType::kFloat)
    ctx.fail("boxes and scores must be float");
  if (boxes_t.rank() != 3 || boxes_t.shape()[2] != 4)
    ctx.fail(fmt::format("boxes must be [num_batches, spatial_dimension, 4], not {}",
                         shape_string(boxes_t.shape())));
  if (scores_t.rank() != 3 || scores_t.shape()[0] != boxes_t.shape()[0] ||
      scores_t.shape()[2] != boxes_t.shape()[1])
    ctx.fail(
        fmt::format("scores must be [num_batches, num_classes, spatial_dimension] matching "
                    "boxes {}, not {}",
                    shape_string(boxes_t.shape()), shape_string(scores_t.shape())));
  const int64_t center = ctx.attr_int("center_point_box", 0);
  if (center != 0 && center != 1)
    ctx.fail(fmt::format("center_point_box must be 0 or 1, not {}", center));
  const int64_t max_per_class = std::max<int64_t>(
      0, optional_scalar<int64_t>(ctx, 2, DataType::kInt64, "max_output_boxes_per_class", 0));
  const float iou_threshold =
      optional_scalar<float>(ctx, 3, DataType::kFloat, "iou_threshold", 0.0f);
  if (!(iou_threshold >= 0.0f && iou_threshold <= 1.0f))
    ctx.fail(fmt::format("iou_threshold must be in [0, 1], not {}", iou_threshold));
  const bool has_score_threshold = ctx.has_input(4) && ctx.input_tensor(4).numel() > 0;
  const float score_threshold =
      optional_scalar<float>(ctx, 4, DataType::kFloat, "score_threshold", 0.0f);

  const int64_t n_batch = boxes_t.shape()[0], n_boxes = boxes_t.shape()[1];
  const int64_t n_classes = scores_t.shape()[1];
  const float* boxes = boxes_t.data<float>();
  const float* scores = scores_t.data<float>();
  std::vector<int64_t> selected_rows;  // flattened [b, c, box] triples
  std::vector<Box> batch_boxes(n_boxes);
  std::vector<int64_t> order, chosen;
  for (int64_t b = 0; b < n_batch && max_per_class > 0; ++b) {
    for (int64_t i = 0; i < n_boxes; ++i)
      batch_boxes[i] = make_box(boxes + (b * n_boxes + i) * 4, center == 1);
    for (int64_t c = 0; c < n_classes; ++c) {
      const float* s = scores + (b * n_classes + c) * n_boxes;
      order.clear();
      for (int64_t i = 0; i < n_boxes; ++i)
        if (!has_score_threshold || s[i] > score_threshold) order.push_back(i);
      // Decreasing score, lower index first on ties (stable sort keeps it);
      // NaN scores sort last, which keeps the ordering strict and weak.
      auto key = [&](int64_t i) {
        return std::isnan(s[i]) ? -std::numeric_limits<float>::infinity() : s[i];
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b2) { return key(a) > key(b2); });
      chosen.clear();
      for (int64_t i : order) {
        if (static_cast<int64_t>(chosen.size()) >= max_per_class) break;
        bool keep = true;
        for (int64_t k : chosen)
          if (overlaps_too_much(batch_boxes[i], batch_boxes[k], iou_threshold)) {
            keep = false;
            break;
          }
        if (!keep) continue;
        chosen.push_back(i);
        selected_rows.insert(selected_rows.end(), {b, c, i});
      }
    }
  }
  const int64_t n_selected = static_cast<int64_t>(selected_rows.size() / 3);
  Tensor out(DataType::kInt64, {n_selected, 3});
  std::copy(selected_rows.begin(), selected_rows.end(), out.data<int64_t>());
  ctx.set_output(0, out);
}

}  // namespace

void register_image_non_max_suppression(KernelRegistry& registry) {
  for (int64_t v : {10, 11}) registry.add("", "NonMaxSuppression", v, non_max_suppression);
}

}  // namespace onnxscript::eval
