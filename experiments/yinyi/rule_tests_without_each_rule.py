"""Each rule of pipeline/segment/yinyi.py taken out in turn: which tests of
tests/test_segment_yinyi.py fail (every rule must fail at least its own).
    python experiments/yinyi/rule_tests_without_each_rule.py   (from the repository root)"""
import sys, subprocess
RULES = ("head_fanqie", "head_book", "authority", "alternative", "next_entry", "scope")
for r in RULES:
    code = f"""
import pytest, pipeline.segment.yinyi as y
y.RULES = tuple(x for x in y.RULES if x != {r!r})
raise SystemExit(pytest.main(['tests/test_segment_yinyi.py', '-q', '-p', 'no:cacheprovider']))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    failed = [l.split("::")[1] for l in out.splitlines() if l.startswith("FAILED")]
    print(f"without {r}: {len(failed)} failed: {failed}")
