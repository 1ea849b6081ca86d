"""The demo: a competition's tables playing simulated strokes through the command path."""

from tableside.demo.runner import run_demo

__all__ = ["run_demo"]
