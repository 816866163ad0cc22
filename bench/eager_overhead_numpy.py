# numpy's per-operation time on one-element arrays, for the same cases as
# eager_overhead.cc. Run with /usr/bin/python3 (Debian's numpy).
import time

import numpy as np


def best_ns_per_op(ops, body):
    best = float("inf")
    for _ in range(15):
        start = time.perf_counter_ns()
        body()
        best = min(best, (time.perf_counter_ns() - start) / ops)
    return best


x = np.array([0.5], dtype=np.float32)
y = np.array([1.5], dtype=np.float32)
N = 100000


def add():
    for _ in range(N):
        np.add(x, y)


def mul():
    for _ in range(N):
        np.multiply(x, y)


def relu():
    for _ in range(N):
        np.maximum(x, 0)


def chain():
    for _ in range(20):
        v = x
        for i in range(1000):
            r = i % 3
            v = np.add(v, y) if r == 0 else np.multiply(v, y) if r == 1 else np.maximum(v, 0)


print("Add %.1f" % best_ns_per_op(N, add))
print("Mul %.1f" % best_ns_per_op(N, mul))
print("Relu %.1f" % best_ns_per_op(N, relu))
with np.errstate(over="ignore"):  # the chain grows past float32's range, as ours does
    chain_ns = best_ns_per_op(20000, chain)
print("Chain1000 %.1f" % chain_ns)
print("ScriptChain1000 %.1f" % chain_ns)  # the same numpy chain, beside our eDSL chain
