"""Step 1 of annotations/gold/readings.dev.jsonl: a seeded sample of 音義 notes of the dev juan,
pre-filled by the reading parser as it stood before issue 21 (commit 4f407b9, with fold as the
align stage used it). Writes prefill.jsonl beside this file; corrections.py makes the gold.

    python annotations/gold/readings.dev.build/prefill.py     # from the repository root
"""
import sys, json, random, importlib.util, subprocess, tempfile
from pathlib import Path
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
from pipeline.ingest import read_document
from pipeline.variants import fold
from pipeline.evaluate.readings import reading_record
old_src = subprocess.run(["git", "show", "4f407b9:pipeline/align/readings.py"], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
old_file = Path(tempfile.mkdtemp()) / "old_readings.py"
old_file.write_text(old_src, encoding="utf-8")
spec = importlib.util.spec_from_file_location("old_readings", old_file)
old = importlib.util.module_from_spec(spec); spec.loader.exec_module(old)
notes = []
for book, juans in (("KR1d0003", range(10, 50, 10)), ("KR1d0053", range(10, 70, 10))):
    for j in juans:
        src = f"data/corpus/{book}/{book}_{j:03d}.txt"
        doc = read_document(REPO / src)
        for unit, readings, targets in old.document_readings(doc.units, fold):
            notes.append((doc.id, src, unit, readings, targets))
print(len(notes), "dev notes", file=sys.stderr)
rng = random.Random(20261201)
rng.shuffle(notes)
out, n = [], 0
for doc_id, src, unit, readings, targets in notes:
    if n >= 130: break
    rec = {"id": f"{doc_id}#{unit.seq}", "source": src, "split": "dev", "note": unit.text,
           "targets": [{"seq": t.seq, "kind": t.kind, "marker": t.marker, "text": t.text} for t in targets],
           "readings": [reading_record(unit.text, r) for r in readings]}
    out.append(rec); n += len(readings)
print(len(out), "notes", n, "readings", file=sys.stderr)
with open(Path(__file__).with_name('prefill.jsonl'), 'w', encoding='utf-8') as f:
    for rec in out: f.write(json.dumps(rec, ensure_ascii=False) + "\n")
