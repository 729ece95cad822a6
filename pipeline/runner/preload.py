"""Imported by each LocalCluster worker as it starts (Dask's `preload`): the heavy libraries of
the stages and exporters, so that they load while the main process checks the stages, not in
the worker's first task."""

import pyarrow  # noqa: F401
import spacy.tokens  # noqa: F401
import torch  # noqa: F401
import udkanbun  # noqa: F401

import pipeline.export  # noqa: F401
import pipeline.runner.stages  # noqa: F401
