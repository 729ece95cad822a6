"""dvc.yaml / params.yaml: the seven stages in order, every dependency and parameter resolvable,
every command a real zhushu command. DVC itself is optional (not installed in CI); when it is
installed, `dvc status` must parse the pipeline."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from pipeline.cli import main

ROOT = Path(__file__).resolve().parent.parent
DVC = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))
PARAMS = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))
TRAIN_STAGES = ["train_segmenter", "train_segmenter_hybrid", "train_segmenter_v2", "train_segmenter_v3",
                "train_segmenter_v6", "train_segmenter_v7", "train_segmenter_ensemble", "train_passage_prior", "train_tagger", "train_variants",
                "train_gloss_heads", "train_quotations"]
STAGES = ["ingest", "segment", "tag", "align", "parse", "export", "evaluate"]


def param(dotted: str):
    value = PARAMS
    for part in dotted.split("."):
        value = value[part]
    return value


def interpolate(text: str) -> str:
    return re.sub(r"\$\{([^}]+)\}", lambda m: str(param(m.group(1))), text)


def out_path(out) -> str:
    """An `outs` entry is a path, or {path: {options}} (e.g. cache: false)."""
    return interpolate(next(iter(out)) if isinstance(out, dict) else out)


def test_stages_in_order_and_chained():
    assert list(DVC["stages"]) == TRAIN_STAGES + STAGES
    outs = {}
    for name in STAGES:
        stage = DVC["stages"][name]
        deps = [interpolate(d) for d in stage["deps"]]
        # each stage after ingest depends on the output of an earlier stage
        if name != "ingest":
            assert any(d in outs.values() for d in deps), name
        for out in stage.get("outs", []):
            outs[name] = out_path(out)
    assert outs["export"] == PARAMS["out"]


def test_training_stages_rebuild_the_models_the_pipeline_uses():
    outs = {name: [out_path(o) for o in DVC["stages"][name]["outs"]] for name in TRAIN_STAGES}
    assert outs == {"train_segmenter": [param("segment.v1_model")], "train_segmenter_hybrid": [param("segment.hybrid_model")],
                    "train_segmenter_v2": [param("segment.model")], "train_segmenter_v3": [param("segment.v3_model")],
                    "train_segmenter_v6": [param("segment.v6_model")], "train_segmenter_v7": [param("segment.v7_model")],
                    "train_segmenter_ensemble": [param("segment.ensemble_model") + "/config.json"],
                    "train_passage_prior": [param("segment.passage_model"), param("segment.default_model"), param("segment.memory")],
                    "train_tagger": [param("tag.model")], "train_quotations": [param("align.quotations_model")],
                    "train_variants": [param("align.variants_table")], "train_gloss_heads": [param("align.gloss_heads")]}
    ensemble_deps = [interpolate(d) for d in DVC["stages"]["train_segmenter_ensemble"]["deps"]]
    assert {param("segment.model"), param("segment.v3_model")} <= set(ensemble_deps)  # the members it refers to
    hybrid_deps = [interpolate(d) for d in DVC["stages"]["train_segmenter_hybrid"]["deps"]]
    assert param("segment.v1_model") in hybrid_deps  # the hybrid refers to the BiLSTM it was tuned with
    segment_deps = [interpolate(d) for d in DVC["stages"]["segment"]["deps"]]
    tag_deps = [interpolate(d) for d in DVC["stages"]["tag"]["deps"]]
    assert param("segment.v7_model") in segment_deps and param("tag.model") in tag_deps
    v7_deps = [interpolate(d) for d in DVC["stages"]["train_segmenter_v7"]["deps"]]
    assert param("segment.v6_model") in v7_deps  # v7 is trained on from v6's weights


def test_dependencies_and_params_resolve():
    generated = {out_path(o) for s in DVC["stages"].values() for o in s.get("outs", [])}
    models_trained_later = {param("segment.model"), param("segment.hybrid_model"), param("segment.v1_model"),
                            param("segment.v3_model"), param("segment.v6_model"), param("segment.v7_model")}
    for name, stage in DVC["stages"].items():
        for dep in stage["deps"]:
            path = interpolate(dep)
            if path in generated or path in models_trained_later:
                continue
            assert (ROOT / path).exists(), f"{name}: missing dependency {path}"
        for p in stage.get("params", []):
            param(p)  # KeyError if params.yaml lacks it


def test_metrics_are_the_eval_json_outputs():
    ev = DVC["stages"]["evaluate"]
    names = [next(iter(m)) if isinstance(m, dict) else m for m in ev["metrics"]]
    assert names == ["metrics/segment.json", "metrics/entities.json", "metrics/glosses.json", "metrics/dataset.json"]
    cmd = interpolate(ev["cmd"])
    for kind in ("segment", "entities", "glosses"):
        assert re.search(rf"zhushu eval {kind} --gold \S+ .*--json > metrics/{kind}.json", cmd)


def test_every_command_is_a_zhushu_command():
    for name, stage in DVC["stages"].items():
        for part in interpolate(stage["cmd"]).split("&&"):
            argv = shlex.split(part.split(">")[0].strip())
            if not argv or argv[0] != "zhushu":
                continue
            ctx = main.make_context("zhushu", argv[1:], resilient_parsing=True)
            cmd_name, cmd, rest = main.resolve_command(ctx, argv[1:])
            assert cmd is not None, (name, argv)
            if hasattr(cmd, "resolve_command"):  # a group such as eval
                sub = cmd.make_context(cmd_name, rest, resilient_parsing=True)
                _, leaf, args = cmd.resolve_command(sub, rest)
                leaf.make_context(leaf.name, args)  # options parse
            else:
                cmd.make_context(cmd_name, rest)


@pytest.mark.skipif(shutil.which("dvc") is None, reason="dvc is optional and not installed")
def test_dvc_parses_the_pipeline():
    res = subprocess.run(["dvc", "dag", "--md"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    for name in STAGES:
        assert name in res.stdout


# What each DVC stage runs (its entry modules); every non-core pipeline module they import,
# lazily or not, directly or through another, must lie under one of the stage's deps.
ENTRIES = {
    "train_segmenter": ["pipeline.train.segment"],
    "train_segmenter_hybrid": ["pipeline.train.segment", "pipeline.evaluate.segment"],
    "train_tagger": ["pipeline.train.tag"],
    "train_quotations": ["pipeline.train.quotations", "pipeline.evaluate.quotations"],
    "train_variants": ["pipeline.train.variants"],
    "train_gloss_heads": ["pipeline.train.gloss_heads"],
    "ingest": ["pipeline.ingest"],
    "segment": ["pipeline.segment"],
    "tag": ["pipeline.tag"],
    "align": ["pipeline.align"],
    "parse": ["pipeline.parse"],
    "export": ["pipeline.export", "pipeline.runner.document"],
    "evaluate": ["pipeline.evaluate.segment", "pipeline.evaluate.entities", "pipeline.evaluate.glosses",
                 "pipeline.export.stats"],
}


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_each_stage_depends_on_the_code_it_runs(name):
    from tests.test_architecture import GRAPH, layer

    deps = [interpolate(d).rstrip("/") for d in DVC["stages"][name]["deps"]]
    seen, todo = set(), list(ENTRIES[name])
    while todo:
        m = todo.pop()
        if m in seen or m not in GRAPH:
            continue
        seen.add(m)
        if name not in ("export",) or not m.startswith("pipeline.runner"):
            todo.extend(GRAPH[m])
    for m in sorted(seen):
        if layer(m) == "core":
            continue
        rel = m.replace(".", "/")
        assert any(rel == d or rel.startswith(d + "/") or f"{rel}.py" == d for d in deps), f"{name}: {m} not under {deps}"


def test_the_shipped_v6_is_what_its_stage_says():
    """models/segmenter-v6 came from a GPU run cut by a time limit: its stage's command must name the
    settings it was trained with (the stop included), or `dvc repro` would rebuild another model."""
    import json

    args = shlex.split(interpolate(DVC["stages"]["train_segmenter_v6"]["cmd"]))
    opt = {a: args[i + 1] for i, a in enumerate(args) if a.startswith("--") and i + 1 < len(args)}
    cfg = json.loads((ROOT / param("segment.v6_model") / "config.json").read_text(encoding="utf-8"))
    assert opt["--recipe"] == "v3" and cfg["fold"] == "t2s" and cfg["data"]["outside"]
    assert int(opt["--layers"]) == cfg["arch"]["layers"] and cfg["arch"]["hidden"] == 192
    assert float(opt["--zhushu-frac"]) == cfg["zhushu_frac"] and float(opt["--outside-frac"]) == cfg["outside_frac"]
    assert int(opt["--epochs"]) == cfg["epochs"] and int(opt["--batch-chars"]) == cfg["batch_chars"]
    assert cfg["stopped_after"] == f"joint epoch {opt['--stop-after']}"
    assert opt["--device"] == cfg["device"] == "cuda"
