#!/usr/bin/env python3
"""Makes the models of bench/models.sh: torchvision CNNs, a vision transformer
(ViT-S/16) and a TransformerEncoder, exported by torch.onnx.export (torch 1.13, opset 17)
with random weights, each with one random input as a .npy file.

usage: /usr/bin/python3 bench/models.py DIR [NAME...]
Writes DIR/<name>.onnx, DIR/<name>.input.npy and DIR/models.txt (one name a
line). A model whose files exist is not made again.
"""
import os
import sys

import numpy as np
import torch


def encoder():
    # Four layers of the encoder export_speed uses, on a 128-token sequence:
    # enough work per operator that the figure is the kernels', not the calls'.
    layer = torch.nn.TransformerEncoderLayer(256, 4, batch_first=True)
    return torch.nn.TransformerEncoder(layer, 4).train(False), (1, 128, 256)


def vit_s_16():
    # ViT-S/16 (12 layers, 6 heads, width 384): vit_b_16's architecture at a
    # quarter of its work, so that the benchmark's rounds stay short.
    from torchvision.models.vision_transformer import VisionTransformer
    model = VisionTransformer(image_size=224, patch_size=16, num_layers=12, num_heads=6,
                              hidden_dim=384, mlp_dim=1536).eval()
    # torchvision starts the classifier head at zero, which would make every
    # output 0 and the comparison with the peer empty.
    torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    return model, (1, 3, 224, 224)


def models(names):
    import torchvision
    for name in ['resnet18', 'resnet50', 'mobilenet_v2']:
        if name in names:
            yield name, lambda n=name: (getattr(torchvision.models, n)(weights=None).eval(),
                                        (1, 3, 224, 224))
    if 'vit_s_16' in names:
        yield 'vit_s_16', vit_s_16
    if 'transformer_encoder_4' in names:
        yield 'transformer_encoder_4', encoder


ALL = ['resnet18', 'resnet50', 'mobilenet_v2', 'vit_s_16', 'transformer_encoder_4']


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ('-h', '--help'):
        sys.exit(__doc__)
    out = sys.argv[1]
    names = sys.argv[2:] or ALL
    os.makedirs(out, exist_ok=True)
    for name, make in models(names):
        path = os.path.join(out, name + '.onnx')
        npy = os.path.join(out, name + '.input.npy')
        if os.path.exists(path) and os.path.exists(npy):
            continue
        torch.manual_seed(0)
        module, shape = make()
        x = torch.randn(*shape)
        # Not under no_grad: torch 1.13 would take the fused attention fast
        # path, which its exporter cannot export.
        torch.onnx.export(module, (x,), path + '.tmp', opset_version=17,
                          input_names=['input'], output_names=['output'])
        os.replace(path + '.tmp', path)
        np.save(npy, x.numpy().astype(np.float32))
    with open(os.path.join(out, 'models.txt'), 'w') as listing:
        for name in names:
            listing.write(name + '\n')


if __name__ == '__main__':
    main()
