"""QuantFusionPass: Fuses grouped matmul, swiglu and mx quant into one op."""
from __future__ import annotations


class QuantFusionPass:
    """Fuses grouped matmul, swiglu and mx quant into one op."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("QuantFusionPass is configured through cfg")
