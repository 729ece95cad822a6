"""Fixtures shared by more than one test file."""

from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture
def v2_alone_ensemble(tmp_path):
    """An ensemble folder ("ens") whose only member is the shipped v2 (referred to, as
    models/segmenter-ensemble refers to its members) at v2's own thresholds, written by the
    ensemble's own save: it must mark every unit exactly as v2 does."""
    from pipeline import paths
    from pipeline.segment.bilstm import NeuralSegmenter
    from pipeline.segment.ensemble import EnsembleSegmenter

    folder = tmp_path / "ens"
    folder.mkdir()
    v2 = NeuralSegmenter.load(paths.SEGMENTER_MODEL)
    EnsembleSegmenter([v2], v2.threshold, final_threshold=v2.final_threshold).save(folder, [os.path.relpath(paths.SEGMENTER_MODEL, folder)])
    return folder


def browser_missing() -> str | None:
    """Why no headless browser can run here (None: Debian's chromium and its driver, and selenium)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for exe in ("chromium", "chromedriver"):
        if not shutil.which(exe):
            return f"no {exe} on PATH (Debian: apt-get install chromium chromium-driver; .ci/run does)"
    return None


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium through chromedriver (the test skips where browser_missing() says why)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,1000"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
