// Loop: runs `body` while the trip count and the condition allow, threading
// loop-carried values through and stacking the scan outputs along a new
// first axis.
#include <limits>

#include <fmt/format.h>

#include "eval/util/stacking.h"
#include "onnxscript/eval/kernel.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::eval {
namespace {

// An empty scan output still needs an element type and a shape; take them
// from the body's declared output when it has one.
Tensor empty_scan_output(const ir::Value* declared) {
  DataType dtype = DataType::kFloat;
  std::vector<int64_t> shape{0};
  if (declared && declared->type() && declared->type()->is_tensor()) {
    const ir::Type& t = *declared->type();
    if (t.elem_type != DataType::kUndefined) dtype = t.elem_type;
    if (t.shape) {
      bool all_static = true;
      for (const ir::Dim& d : *t.shape) all_static = all_static && d.is_static();
      if (all_static)
        for (const ir::Dim& d : *t.shape) shape.push_back(d.value());
    }
  }
  return Tensor(dtype, shape);
}

void loop_kernel(KernelContext& ctx) {
  const auto& body = ctx.required_attribute("body").as_graph();
  if (!body) ctx.fail("body is empty");
  const size_t num_carried = ctx.num_inputs() > 2 ? ctx.num_inputs() - 2 : 0;
  const size_t body_outputs = body->outputs().size();
  if (body->inputs().size() != num_carried + 2)
    ctx.fail(fmt::format(
        "body takes {} inputs but the loop carries {} values (plus iteration and condition)",
        body->inputs().size(), num_carried));
  if (body_outputs < num_carried + 1)
    ctx.fail(fmt::format("body returns {} outputs, fewer than the condition and {} carried values",
                         body_outputs, num_carried));
  const size_t num_scan = body_outputs - 1 - num_carried;
  if (ctx.num_outputs() > num_carried + num_scan)
    ctx.fail(fmt::format("the node has {} outputs but the body makes {}", ctx.num_outputs(),
                         num_carried + num_scan));

  int64_t max_trips = std::numeric_limits<int64_t>::max();
  if (ctx.has_input(0)) {
    const Tensor& m = ctx.input_tensor(0);
    if (m.numel() != 1 || m.dtype() != DataType::kInt64)
      ctx.fail("M must be a one-element int64 tensor");
    max_trips = *m.data<int64_t>();
  }
  bool cond = true;
  const bool has_cond = ctx.has_input(1);
  if (has_cond) {
    const Tensor& c = ctx.input_tensor(1);
    if (c.numel() != 1 || c.dtype() != DataType::kBool)
      ctx.fail("cond must be a one-element bool tensor");
    cond = *c.data<bool>();
  }

  std::vector<RuntimeValue> body_inputs(num_carried + 2);
  for (size_t i = 0; i < num_carried; ++i) body_inputs[i + 2] = ctx.input(i + 2);
  std::vector<std::vector<Tensor>> scans(num_scan);
  for (int64_t iter = 0; iter < max_trips && cond; ++iter) {
    body_inputs[0] = Tensor::scalar<int64_t>(iter);
    body_inputs[1] = Tensor::scalar<bool>(cond);
    std::vector<RuntimeValue> out = ctx.run_graph(*body, body_inputs);
    if (has_cond) {
      if (!out[0].is_tensor() || out[0].tensor().numel() != 1 ||
          out[0].tensor().dtype() != DataType::kBool)
        ctx.fail(fmt::format("body must return a one-element bool condition, got {}",
                             out[0].describe()));
      cond = *out[0].tensor().data<bool>();
    }
    for (size_t i = 0; i < num_carried; ++i) body_inputs[i + 2] = std::move(out[i + 1]);
    for (size_t k = 0; k < num_scan; ++k) {
      RuntimeValue& v = out[1 + num_carried + k];
      if (!v.is_tensor())
        ctx.fail(fmt::format("scan output {} must be a tensor, got {}", k, v.describe()));
      scans[k].push_back(v.tensor());
    }
  }
  for (size_t i = 0; i < num_carried && i < ctx.num_outputs(); ++i)
    ctx.set_output(i, std::move(body_inputs[i + 2]));
  for (size_t k = 0; k < num_scan && num_carried + k < ctx.num_outputs(); ++k) {
    const ir::Value* declared = body->outputs()[1 + num_carried + k];
    ctx.set_output(num_carried + k,
                   scans[k].empty() ? empty_scan_output(declared) : stack(scans[k], 0, "Loop"));
  }
}

}  // namespace

void register_controlflow_loop(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 11, 13, 16, 19, 21, 23, 24, 25}) registry.add("", "Loop", v, loop_kernel);
}

}  // namespace onnxscript::eval
