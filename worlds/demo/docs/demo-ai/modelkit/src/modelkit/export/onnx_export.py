"""ONNX export.

Dynamic dimensions must be declared through ``dynamic_axes``; otherwise the exporter traces the
sample input and constant folding freezes its shape (batch=1) into the graph.
"""

import torch


def export_onnx(model, sample, path, dynamic_batch=True):
    axes = {"input_ids": {0: "batch", 1: "seq"}} if dynamic_batch else None
    # Constant folding would bake the traced batch size into reshape nodes.
    torch.onnx.export(model, sample, path, dynamic_axes=axes, do_constant_folding=not dynamic_batch)
