"""Readers that turn text into match logs: the canonical format and one module per foreign format.

>>> from twentynine.importers.canonical import read_stream
"""
