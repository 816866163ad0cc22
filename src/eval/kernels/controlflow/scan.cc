// Scan: iterates `body` over slices of the scan inputs, threading state
// variables through, and stacks the per-iteration scan outputs.
//
// Scan-8 has a leading batch axis on every input and output and optional
// per-batch sequence lengths; Scan-9 and later drop the batch axis and add
// per-input axes and directions.
#include <algorithm>

#include <fmt/format.h>

#include "eval/util/stacking.h"
#include "onnxscript/eval/kernel.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::eval {
namespace {

struct ScanSpec {
  std::vector<int64_t> input_axes, input_directions, output_axes, output_directions;
};

// An empty scan output: zero iterations along `axis`, other dimensions from
// the body's declared output when it is fully static.
Tensor empty_scan_output(const KernelContext& ctx, const ir::Value* declared, int64_t axis) {
  DataType dtype = DataType::kFloat;
  std::vector<int64_t> shape;
  if (declared && declared->type() && declared->type()->is_tensor()) {
    const ir::Type& t = *declared->type();
    if (t.elem_type != DataType::kUndefined) dtype = t.elem_type;
    if (t.shape)
      for (const ir::Dim& d : *t.shape) shape.push_back(d.is_static() ? d.value() : 0);
  }
  if (axis < 0) axis += static_cast<int64_t>(shape.size()) + 1;
  if (axis < 0 || axis > static_cast<int64_t>(shape.size()))
    ctx.fail("scan output axis is out of range");
  shape.insert(shape.begin() + axis, 0);
  return Tensor(dtype, shape);
}

// Runs the body over `length` iterations (or fewer, see `length`). Returns
// the final states followed by the stacked scan outputs.
std::vector<RuntimeValue> run_scan(const KernelContext& ctx, const ir::Graph& body,
                                   std::vector<RuntimeValue> states,
                                   const std::vector<Tensor>& scan_inputs, int64_t length,
                                   const ScanSpec& spec) {
  const size_t n = states.size();
  const size_t m = scan_inputs.size();
  if (body.inputs().size() != n + m)
    ctx.fail(fmt::format("body takes {} inputs but the node gives {} states and {} scan inputs",
                         body.inputs().size(), n, m));
  if (body.outputs().size() < n) ctx.fail("body returns fewer outputs than there are states");
  const size_t k = body.outputs().size() - n;
  std::vector<std::vector<Tensor>> scans(k);
  std::vector<RuntimeValue> body_inputs(n + m);
  for (size_t i = 0; i < n; ++i) body_inputs[i] = std::move(states[i]);
  for (int64_t t = 0; t < length; ++t) {
    for (size_t j = 0; j < m; ++j) {
      const int64_t index = spec.input_directions[j] == 0 ? t : length - 1 - t;
      body_inputs[n + j] = take_slice(scan_inputs[j], spec.input_axes[j], index);
    }
    std::vector<RuntimeValue> out = ctx.run_graph(body, body_inputs);
    for (size_t i = 0; i < n; ++i) body_inputs[i] = std::move(out[i]);
    for (size_t q = 0; q < k; ++q) {
      if (!out[n + q].is_tensor()) ctx.fail(fmt::format("scan output {} must be a tensor", q));
      scans[q].push_back(out[n + q].tensor());
    }
  }
  std::vector<RuntimeValue> result(body_inputs.begin(), body_inputs.begin() + static_cast<long>(n));
  for (size_t q = 0; q < k; ++q) {
    if (spec.output_directions[q] != 0) std::reverse(scans[q].begin(), scans[q].end());
    int64_t axis = spec.output_axes[q];
    if (scans[q].empty()) {
      result.emplace_back(empty_scan_output(ctx, body.outputs()[n + q], axis));
      continue;
    }
    const int64_t rank = scans[q].front().rank();
    if (axis < -(rank + 1) || axis > rank)
      ctx.fail(fmt::format("scan_output_axes {} is out of range", axis));
    if (axis < 0) axis += rank + 1;
    result.emplace_back(stack(scans[q], axis, "Scan"));
  }
  return result;
}

std::vector<int64_t> per_input(const KernelContext& ctx, const char* name, size_t count) {
  std::vector<int64_t> v = ctx.attr_ints(name, std::vector<int64_t>(count, 0));
  if (v.size() != count)
    ctx.fail(fmt::format("{} has {} entries, expected {}", name, v.size(), count));
  return v;
}

void scan9(KernelContext& ctx) {
  const auto& body = ctx.required_attribute("body").as_graph();
  if (!body) ctx.fail("body is empty");
  const int64_t m = ctx.required_attribute("num_scan_inputs").as_int();
  if (m < 1 || static_cast<size_t>(m) > ctx.num_inputs())
    ctx.fail("num_scan_inputs does not fit the inputs");
  const size_t n = ctx.num_inputs() - static_cast<size_t>(m);
  const size_t k = ctx.num_outputs() >= n ? ctx.num_outputs() - n : 0;
  ScanSpec spec;
  spec.input_axes = per_input(ctx, "scan_input_axes", static_cast<size_t>(m));
  spec.input_directions = per_input(ctx, "scan_input_directions", static_cast<size_t>(m));
  spec.output_axes = per_input(ctx, "scan_output_axes", k);
  spec.output_directions = per_input(ctx, "scan_output_directions", k);
  std::vector<RuntimeValue> states;
  for (size_t i = 0; i < n; ++i) states.push_back(ctx.input(i));
  std::vector<Tensor> scan_inputs;
  int64_t length = -1;
  for (size_t j = 0; j < static_cast<size_t>(m); ++j) {
    const Tensor& t = ctx.input_tensor(n + j);
    int64_t axis = spec.input_axes[j];
    if (axis < -t.rank() || axis >= t.rank())
      ctx.fail(fmt::format("scan_input_axes {} is out of range for scan input {} of rank {}", axis,
                           j, t.rank()));
    if (axis < 0) axis += t.rank();
    spec.input_axes[j] = axis;
    if (length >= 0 && t.shape()[axis] != length)
      ctx.fail(
          fmt::format("scan inputs have different lengths ({} and {})", length, t.shape()[axis]));
    length = t.shape()[axis];
    scan_inputs.push_back(t);
  }
  std::vector<RuntimeValue> out =
      run_scan(ctx, *body, std::move(states), scan_inputs, length, spec);
  if (out.size() < ctx.num_outputs()) ctx.fail("body returns fewer outputs than the node has");
  for (size_t i = 0; i < ctx.num_outputs(); ++i) ctx.set_output(i, std::move(out[i]));
}

void scan8(KernelContext& ctx) {
  const auto& body = ctx.required_attribute("body").as_graph();
  if (!body) ctx.fail("body is empty");
  const int64_t m = ctx.required_attribute("num_scan_inputs").as_int();
  if (m < 1 || static_cast<size_t>(m) + 1 > ctx.num_inputs())
    ctx.fail("num_scan_inputs does not fit the inputs");
  const size_t n = ctx.num_inputs() - 1 - static_cast<size_t>(m);
  const size_t k = ctx.num_outputs() >= n ? ctx.num_outputs() - n : 0;
  ScanSpec spec;
  spec.input_axes.assign(static_cast<size_t>(m), 0);
  spec.input_directions = per_input(ctx, "directions", static_cast<size_t>(m));
  spec.output_axes.assign(k, 0);
  spec.output_directions.assign(k, 0);

  const Tensor& first = ctx.input_tensor(1 + n);
  if (first.rank() < 2) ctx.fail("scan inputs need a batch and a sequence axis");
  const int64_t batch = first.shape()[0];
  const int64_t max_len = first.shape()[1];
  std::vector<int64_t> lens(static_cast<size_t>(batch), max_len);
  if (ctx.has_input(0)) {
    const Tensor& sl = ctx.input_tensor(0);
    if (sl.dtype() != DataType::kInt32 || sl.numel() != batch)
      ctx.fail("sequence_lens must be int32 with one entry per batch");
    for (int64_t b = 0; b < batch; ++b) {
      lens[b] = sl.data<int32_t>()[b];
      if (lens[b] < 0 || lens[b] > max_len)
        ctx.fail(fmt::format("sequence_lens[{}] = {} is out of range", b, lens[b]));
    }
  }
  std::vector<std::vector<Tensor>> per_output(n + k);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<RuntimeValue> states;
    for (size_t i = 0; i < n; ++i) states.emplace_back(take_slice(ctx.input_tensor(1 + i), 0, b));
    std::vector<Tensor> scan_inputs;
    for (size_t j = 0; j < static_cast<size_t>(m); ++j) {
      const Tensor& t = ctx.input_tensor(1 + n + j);
      if (t.rank() < 2 || t.shape()[0] != batch || t.shape()[1] != max_len)
        ctx.fail("scan inputs must share the batch and sequence dimensions");
      // Only the first lens[b] steps of this batch entry take part.
      scan_inputs.push_back(narrow(take_slice(t, 0, b), 0, 0, lens[b]));
    }
    std::vector<RuntimeValue> out =
        run_scan(ctx, *body, std::move(states), scan_inputs, lens[b], spec);
    for (size_t i = 0; i < n + k && i < out.size(); ++i) {
      Tensor t = out[i].tensor();
      if (i >= n && lens[b] < max_len && t.rank() >= 1) {
        // Steps beyond the sequence length are zero-filled.
        std::vector<int64_t> pad_shape = t.shape().to_vector();
        pad_shape[0] = max_len - lens[b];
        const Tensor parts[2] = {t, Tensor(t.dtype(), pad_shape)};
        t = concatenate(parts, 0, "Scan");
      }
      per_output[i].push_back(std::move(t));
    }
  }
  for (size_t i = 0; i < ctx.num_outputs() && i < per_output.size(); ++i)
    ctx.set_output(i, stack(per_output[i], 0, "Scan"));
}

}  // namespace

void register_controlflow_scan(KernelRegistry& registry) {
  registry.add("", "Scan", 8, scan8);
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {9, 11, 16, 19, 21, 23, 24, 25}) registry.add("", "Scan", v, scan9);
}

}  // namespace onnxscript::eval
