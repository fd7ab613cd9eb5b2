"""pegbind: Python bindings generated from raw C headers read with PEG grammars.

The pipeline, one direction: preprocess -> parse -> model -> passes -> emit -> build.
"""
__version__ = "0.1.0"
