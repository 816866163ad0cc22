#!/usr/bin/env python3
"""The peer of bench/export_speed: makes the benchmark's TorchScript models
and times torch.onnx.export (torch 1.13, the TorchScript-based exporter) on
each, loaded from the same .pt file the C++ exporter reads.

usage: /usr/bin/python3 bench/export_speed.py make DIR   # writes DIR/<name>.pt and DIR/models.txt
       /usr/bin/python3 bench/export_speed.py time DIR   # prints "<name> <seconds> <onnx nodes>"
"""
import os
import sys
import time

import torch


def encoder(layers):
    layer = torch.nn.TransformerEncoderLayer(256, 4, batch_first=True)
    return torch.nn.TransformerEncoder(layer, layers).train(False), (1, 10, 256)


def models():
    import torchvision
    for name in ['resnet18', 'resnet50', 'mobilenet_v2', 'densenet121']:
        yield name, getattr(torchvision.models, name)(weights=None).eval(), (1, 3, 224, 224)
    yield 'vit_b_16', torchvision.models.vit_b_16(weights=None).eval(), (1, 3, 224, 224)
    for layers in [2, 8, 16, 32]:
        m, shape = encoder(layers)
        yield f'transformer_encoder_{layers}', m, shape


def make(out):
    torch.manual_seed(0)
    with open(os.path.join(out, 'models.txt'), 'w') as listing:
        for name, module, shape in models():
            torch.jit.trace(module, torch.randn(*shape), check_trace=False).save(
                os.path.join(out, name + '.pt'))
            listing.write(f"{name} {'x'.join(map(str, shape))}\n")


def time_exports(out):
    import onnx
    # The exporter's start-up (its imports, first-call set-up) is paid by a
    # one-node export, printed apart, as the C++ side does.
    start = time.perf_counter()
    torch.onnx.export(torch.jit.script(torch.nn.ReLU()), (torch.rand(2),),
                      os.path.join(out, 'tiny.torch.onnx'), opset_version=17)
    print(f'# torch.onnx.export start-up (first export, one node): '
          f'{time.perf_counter() - start:.3f} s', flush=True)
    for line in open(os.path.join(out, 'models.txt')):
        name, shape = line.split()
        shape = [int(d) for d in shape.split('x')]
        module = torch.jit.load(os.path.join(out, name + '.pt'))
        x = torch.randn(*shape)
        path = os.path.join(out, name + '.torch.onnx')
        start = time.perf_counter()
        torch.onnx.export(module, (x,), path, opset_version=17)
        seconds = time.perf_counter() - start
        nodes = len(onnx.load(path, load_external_data=False).graph.node)
        print(f'{name} {seconds:.4f} {nodes}', flush=True)


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in ('make', 'time'):
        sys.exit(__doc__)
    (make if sys.argv[1] == 'make' else time_exports)(sys.argv[2])
