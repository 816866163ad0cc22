"""The peer for bench/build_chain.cc: onnx.helper builds the same chain (Add,
Mul, Relu, Tanh repeating; a 16-element initializer on each Add and Mul) and
serializes it. Run with /usr/bin/python3 (Debian's python3-onnx).
Prints "onnx_helper <operator nodes per second>"."""
import sys
import time

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def build(nodes):
    w = np.array([0.01 * (i + 1) for i in range(16)], dtype=np.float32)
    graph_nodes, initializers = [], []
    prev = "X"
    ops = ["Add", "Mul", "Relu", "Tanh"]
    for i in range(nodes):
        op = ops[i % 4]
        out = f"t{i}"
        if op in ("Add", "Mul"):
            name = f"w{i}"
            initializers.append(numpy_helper.from_array(w, name))
            graph_nodes.append(helper.make_node(op, [prev, name], [out]))
        else:
            graph_nodes.append(helper.make_node(op, [prev], [out]))
        prev = out
    graph = helper.make_graph(
        graph_nodes, "chain",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [16])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [16])],
        initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return len(model.SerializeToString())


def main():
    nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        build(nodes)
        best = min(best, time.perf_counter() - start)
    print(f"onnx_helper {nodes / best:.0f}")


if __name__ == "__main__":
    main()
