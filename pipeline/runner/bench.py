"""`zhushu bench`: the pipeline's speed, memory, reproducibility and scale-out measures.

1. the whole book (the embedded 儀禮集釋, every stage and export) end to end as a separate
   `zhushu run` process: wall time, peak resident memory (the process's own rusage), chars/s
   per stage (from the run summary);
2. the same run again: the two output trees must be byte-identical;
3. the book on a Dask LocalCluster of 2 workers: the output tree must equal the serial one;
4. UD-Kanbun's tokenizer (udkanbun, the "bench" extra; reusing benchmarks/segment_vs_udkanbun.py)
   on the same text (the base and commentary units of the book) in the same process: its time
   against zhushu's whole-book wall time (ratio = udkanbun seconds / zhushu seconds, >= 1
   means the whole zhushu pipeline is faster than UD-Kanbun's tokenizer alone);
5. 1 vs 2 Dask workers on a corpus of N copies of the book (default 10).

The machine's load (os.getloadavg) and CPU count are recorded before and after each measure:
other processes share the CPUs and the timings depend on them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from pipeline import paths

TARGETS = {"book_seconds": 90.0,  # issue 14: whole book with the parse stage ≤ 90 s (60 s before the parse stage)
            "peak_rss_mb": 2048.0, "udkanbun_ratio": 1.0, "dask_speedup": 1.6}
REPO = paths.REPO


def _load() -> dict:
    one, five, fifteen = os.getloadavg()
    return {"load1": round(one, 2), "load5": round(five, 2), "cpus": os.cpu_count()}


def code_fingerprint() -> str:
    """sha256 over pipeline/ and models/ (no caches): a run compared with another is only
    meaningful if this did not change in between (other people may be editing the tree)."""
    import hashlib

    h = hashlib.sha256()
    for top in ("pipeline", "models"):
        for p in sorted((REPO / top).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                h.update(str(p.relative_to(REPO)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _cpu_seconds() -> float:
    import resource

    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        u = resource.getrusage(who)
        total += u.ru_utime + u.ru_stime
    return total


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _same_tree(a: Path, b: Path) -> tuple[bool, list[str]]:
    ta, tb = _tree(a), _tree(b)
    diff = sorted(k for k in set(ta) | set(tb) if ta.get(k) != tb.get(k))
    return not diff, diff[:10]


def run_book_process(out: Path, summary_path: Path, extra: list[str] | None = None) -> dict:
    """`zhushu run` over the embedded book in a child process: wall seconds and peak RSS."""
    cmd = [sys.executable, "-m", "pipeline.cli", "run", "--out", str(out), "--no-progress", "--summary-json", str(summary_path)]
    cmd += extra or []
    env = dict(os.environ)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # wait4 gives this child's own rusage (peak RSS in KiB on Linux)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.exists() else {}
    return {
        "cmd": " ".join(cmd[1:]),
        "exit": proc.returncode,
        "wall_seconds": round(wall, 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        "summary": summary,
        "stderr_tail": stderr[-600:] if proc.returncode else "",
    }


def stage_rates(summary: dict) -> dict:
    chars = summary.get("chars", 0)
    out = {}
    order = ["load", "ingest", "segment", "tag", "align", "export"]
    for stage, secs in sorted(summary.get("seconds", {}).items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else 99, kv[0])):
        out[stage] = {"seconds": round(secs, 3), "chars_per_second": round(chars / secs) if secs else None}
    return out


def udkanbun_on_book(inputs: list[str]) -> dict:
    """UD-Kanbun's tokenizer over the base and commentary units of the book (one unit a call)."""
    spec = importlib.util.spec_from_file_location("segment_vs_udkanbun", REPO / "benchmarks" / "segment_vs_udkanbun.py")
    if spec is None or spec.loader is None:
        return {"error": "benchmarks/segment_vs_udkanbun.py not found"}
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from pipeline.ingest import read_document

    texts = [u.text for p in inputs for u in read_document(p).units if u.kind in ("base", "commentary") and u.text]
    try:
        t0 = time.perf_counter()
        pipe, _ = mod.udkanbun_pipeline()
        load = time.perf_counter() - t0
    except Exception as err:  # noqa: BLE001 - an optional extra
        return {"error": f"udkanbun unavailable ({err}); pip install -e '.[bench]'"}
    t0 = time.perf_counter()
    for text in texts:
        mod.udkanbun_marks(pipe, text)
    secs = time.perf_counter() - t0
    chars = sum(map(len, texts))
    return {"units": len(texts), "chars": chars, "load_seconds": round(load, 2), "seconds": round(secs, 2),
            "chars_per_second": round(chars / secs)}


def copies_corpus(inputs: list[str], folder: Path, copies: int) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for c in range(copies):
        for p in inputs:
            dst = folder / f"{Path(p).stem}_c{c:02d}.txt"
            shutil.copyfile(p, dst)
            out.append(str(dst))
    return sorted(out)


def dask_scaling(inputs: list[str], tmp: Path, workers: list[int], log, repeats: int = 1) -> dict:
    """Wall time of the whole run (cluster start, documents, assemble, write) per worker count;
    with repeats > 1 the counts alternate (1, 2, 1, 2, …) and the fastest run of each is kept,
    which is the usual way to see through load from other processes."""
    from pipeline.runner import run

    res: dict = {}
    for rep in range(repeats):
        for n in workers:
            load_before = _load()
            cpu0 = _cpu_seconds()
            t0 = time.perf_counter()
            summary = run(inputs, tmp / f"dask{n}", workers=n, progress=False)
            wall = time.perf_counter() - t0
            cpu = _cpu_seconds() - cpu0
            entry = res.setdefault(str(n), {"runs": []})
            # cpu_seconds: this process and its (waited) children, i.e. the driver, nannies and
            # workers; cpu / wall = how many CPUs the run actually got
            entry["runs"].append({"wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2), "cpus_used": round(cpu / wall, 2),
                                  "assemble_seconds": round(summary.assemble_seconds, 2),
                                  "load_before": load_before, "load_after": _load()})
            entry["documents"] = summary.documents
            entry["wall_seconds"] = min(r["wall_seconds"] for r in entry["runs"])
            log(f"bench: {len(inputs)} documents on {n} Dask worker(s): {wall:.1f}s (load {load_before['load1']})")
    return res


def run_benchmarks(out_json: str | None = "benchmarks/results.json", *, copies: int = 10, dask: bool = True,
                   udkanbun: bool = True, repeats: int = 1, log: Callable[[str], None] = print) -> dict:
    from pipeline.runner import default_inputs

    inputs = default_inputs()
    result: dict = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}, "targets": TARGETS}
    tmp = Path(tempfile.mkdtemp(prefix="zhushu-bench-"))
    try:
        result["load_start"] = _load()
        result["code_before"] = code_fingerprint()
        log(f"bench: whole book ({len(inputs)} files), serial, separate process; load {result['load_start']}")
        book = run_book_process(tmp / "run1", tmp / "s1.json")
        book["load_after"] = _load()
        result["book"] = {k: v for k, v in book.items() if k != "summary"}
        summ = book["summary"]
        result["book"]["chars"] = summ.get("chars")
        result["book"]["documents"] = summ.get("documents")
        result["book"]["stages"] = summ.get("stages")
        result["book"]["per_stage"] = stage_rates(summ)
        result["book"]["assemble_seconds"] = round(summ.get("assemble_seconds", 0.0), 2)
        log(f"bench: book {book['wall_seconds']}s wall, {book['peak_rss_mb']} MB peak")

        log("bench: second run (reproducibility)")
        again = run_book_process(tmp / "run2", tmp / "s2.json")
        same, diff = _same_tree(tmp / "run1", tmp / "run2")
        result["reproducible"] = {"identical": same, "differing": diff, "wall_seconds": again["wall_seconds"]}

        if dask:
            log("bench: book on Dask, 2 workers (serial = Dask)")
            from pipeline.runner import run

            t0 = time.perf_counter()
            run(inputs, tmp / "dask_book", workers=2, progress=False)
            same, diff = _same_tree(tmp / "run1", tmp / "dask_book")
            result["serial_equals_dask"] = {"identical": same, "differing": diff, "wall_seconds": round(time.perf_counter() - t0, 2)}

        if udkanbun:
            log("bench: UD-Kanbun tokenizer on the same text")
            ud = udkanbun_on_book(inputs)
            result["udkanbun"] = ud
            if "seconds" in ud:
                result["udkanbun"]["ratio_udkanbun_over_zhushu_book"] = round(ud["seconds"] / book["wall_seconds"], 2)

        if dask and copies > 0:
            corpus = copies_corpus(inputs, tmp / "corpus", copies)
            log(f"bench: 1 vs 2 Dask workers on {copies} copies of the book ({len(corpus)} files)")
            scale = dask_scaling(corpus, tmp, [1, 2], log, repeats=repeats)
            scale["speedup_2_over_1"] = round(scale["1"]["wall_seconds"] / scale["2"]["wall_seconds"], 2)
            scale["copies"] = copies
            result["dask_scaling"] = scale
        result["load_end"] = _load()
        result["code_after"] = code_fingerprint()
        result["code_unchanged"] = result["code_before"] == result["code_after"]
        checks = {
            "book_seconds": result["book"]["wall_seconds"] <= TARGETS["book_seconds"] and book["exit"] == 0,
            "peak_rss_mb": result["book"]["peak_rss_mb"] <= TARGETS["peak_rss_mb"],
            "reproducible": result["reproducible"]["identical"],
        }
        if "serial_equals_dask" in result:
            checks["serial_equals_dask"] = result["serial_equals_dask"]["identical"]
        if "ratio_udkanbun_over_zhushu_book" in result.get("udkanbun", {}):
            checks["udkanbun_ratio"] = result["udkanbun"]["ratio_udkanbun_over_zhushu_book"] >= TARGETS["udkanbun_ratio"]
        if "dask_scaling" in result:
            checks["dask_speedup"] = result["dask_scaling"]["speedup_2_over_1"] >= TARGETS["dask_speedup"]
        checks["code_unchanged_during_bench"] = result["code_unchanged"]
        result["checks"] = checks
        result["measures_ok"] = all(checks.values())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if out_json:
        from pipeline import atomic

        atomic.write_text(out_json, json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return result


def run_in_snapshot(out_json: str, args: list[str], log: Callable[[str], None] = print) -> dict:
    """Run `zhushu bench` on a snapshot of the committed tree (git archive HEAD), so that
    edits made by others while it runs (a shared working tree) cannot change the code or the
    models between the runs it compares. The results name the commit."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    snap = Path(tempfile.mkdtemp(prefix="zhushu-snapshot-"))
    try:
        archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=REPO, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(snap)], input=archive, check=True)
        log(f"bench: snapshot of commit {commit} in {snap}")
        env = dict(os.environ, PYTHONPATH=str(snap) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        inner = snap / "bench-results.json"
        proc = subprocess.run([sys.executable, "-m", "pipeline.cli", "bench", "--no-snapshot", "--out", str(inner), *args], cwd=snap, env=env)
        result = json.loads(inner.read_text(encoding="utf-8")) if inner.exists() else {"error": f"bench exited {proc.returncode}"}
        result["commit"] = commit
        if out_json:
            from pipeline import atomic

            atomic.write_text(out_json, json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        return result
    finally:
        shutil.rmtree(snap, ignore_errors=True)


def markdown(result: dict) -> str:
    """The measures as a Markdown table (for docs/datasets.md)."""
    b, t = result["book"], result["targets"]
    rows = [
        "| measure | target | measured | ok |",
        "|---|---|---|---|",
        f"| whole book end to end ({b.get('documents')} files, {b.get('chars')} chars), one `zhushu run` process | ≤ {t['book_seconds']:.0f} s | {b['wall_seconds']} s ({b['cpu_seconds']} s CPU) | {result['checks'].get('book_seconds')} |",
        f"| peak resident memory of that process | ≤ {t['peak_rss_mb']:.0f} MB | {b['peak_rss_mb']} MB | {result['checks'].get('peak_rss_mb')} |",
        f"| two runs byte-identical | identical | {result['reproducible']['identical']} | {result['checks'].get('reproducible')} |",
    ]
    if "serial_equals_dask" in result:
        rows.append(f"| serial = Dask (2 workers) | identical | {result['serial_equals_dask']['identical']} | {result['checks'].get('serial_equals_dask')} |")
    ud = result.get("udkanbun", {})
    if "seconds" in ud:
        rows.append(f"| UD-Kanbun tokenizer alone on the same {ud['chars']} chars / zhushu whole book | ≥ {t['udkanbun_ratio']} | {ud['seconds']} s / {b['wall_seconds']} s = {ud['ratio_udkanbun_over_zhushu_book']} | {result['checks'].get('udkanbun_ratio')} |")
    elif ud:
        rows.append(f"| UD-Kanbun | ≥ 1 | {ud.get('error')} | – |")
    sc = result.get("dask_scaling")
    if sc:
        rows.append(f"| 1 vs 2 Dask workers, {sc['copies']} copies of the book | ≥ {t['dask_speedup']}× | {sc['1']['wall_seconds']} s / {sc['2']['wall_seconds']} s = {sc['speedup_2_over_1']}× | {result['checks'].get('dask_speedup')} |")
        for n in ("1", "2"):
            for i, r in enumerate(sc[n].get("runs", [])):
                used = f", {r['cpu_seconds']} s CPU = {r['cpus_used']} CPUs busy" if "cpu_seconds" in r else ""
                rows.append(f"| … {n} worker(s), run {i + 1} | | {r['wall_seconds']} s{used}, load {r['load_before']['load1']} → {r['load_after']['load1']} | |")
    rows.append("")
    rows.append("Per stage (whole book, serial, seconds summed over documents):")
    rows.append("")
    rows.append("| stage | seconds | chars/s |")
    rows.append("|---|---:|---:|")
    order = ["load", "ingest", "segment", "tag", "align", "export"]
    for stage, r in sorted(b.get("per_stage", {}).items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99):
        rows.append(f"| {stage} | {r['seconds']} | {r['chars_per_second']} |")
    rows.append(f"| assemble + write (driver) | {b.get('assemble_seconds')} | |")
    rows.append("")
    loads = [result.get("load_start", {}).get("load1"), b.get("load_after", {}).get("load1"), result.get("load_end", {}).get("load1")]
    if result.get("commit"):
        rows.append(f"Commit {result['commit']} (run on a snapshot of it).")
    rows.append(f"Load average (1 min) at start / after the book / at the end: {' / '.join(str(x) for x in loads)} on {result['machine']['cpus']} CPUs; code unchanged during the bench: {result.get('code_unchanged')}.")
    return "\n".join(rows)
