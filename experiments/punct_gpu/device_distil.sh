#!/bin/bash
# Prepared at stop 50 (not yet run on a GPU; dry-run on a CPU below): the next step after stop 49's
# runs, for a session lent a GPU machine. One call, from the repository root, with .gpu/ and .whl/
# carried as at stop 49 (README.md here):
#   1. a teacher of C's shape (2x384, the best of stop 49 on the tune juan) on v6's data, TEACHER_EPOCHS
#      planned, cut at TEACHER_LIMIT seconds;
#   2. a student of v6's shape (2x192) on the same data, every character of our own text trained half
#      towards the teacher's distribution (`--teacher`; the teacher is scored on the GPU), STUDENT_LIMIT;
#   3. the student packed for the way back (transport.py), the teacher's log only (its folder is over
#      the limits on returned files).
# Dry run on a CPU machine (what was done before any lease):
#   DEVICE=cpu:0 SKIP_WHEEL=1 ZF=0.005 OF=0.0005 TEACHER_EPOCHS=1 STUDENT_EPOCHS=1 TEACHER_HIDDEN=48 \
#   STUDENT_HIDDEN=32 OUT=/tmp/dry bash experiments/punct_gpu/device_distil.sh
# Times at stop 49 (three runs sharing one H200): ~100k chars/s each, an epoch ~6 M characters; a run
# alone is faster. Keep TEACHER_LIMIT + STUDENT_LIMIT + ~60 s of loading under the call's limit.
set -u
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
DEVICE=${DEVICE:-cuda}
if [ -z "${SKIP_WHEEL:-}" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 2
fi
export PYTHONPATH=/tmp/site:$PWD
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
W=/tmp/runs; mkdir -p $W
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
common="--recipe v3 --layers 2 --zhushu-frac ${ZF:-0.5} --outside-frac ${OF:-0.25} --batch-chars 6000
        --device $DEVICE --outside .gpu/classical_prose.punct.jsonl.gz"
timeout $(( ${TEACHER_LIMIT:-300} + 120 )) python3 -m pipeline.cli train segmenter $common \
    --hidden ${TEACHER_HIDDEN:-384} --epochs ${TEACHER_EPOCHS:-8} --time-limit ${TEACHER_LIMIT:-300} \
    --out $W/T > "$OUT/T.log" 2>&1 || { echo TEACHER FAILED; tail -30 "$OUT/T.log"; }
if [ -f $W/T/weights.pt ]; then
    timeout $(( ${STUDENT_LIMIT:-200} + 150 )) python3 -m pipeline.cli train segmenter $common \
        --hidden ${STUDENT_HIDDEN:-192} --epochs ${STUDENT_EPOCHS:-12} ${STUDENT_STOP:+--stop-after $STUDENT_STOP} \
        --time-limit ${STUDENT_LIMIT:-200} --teacher $W/T --out $W/S > "$OUT/S.log" 2>&1 || { echo STUDENT FAILED; tail -30 "$OUT/S.log"; }
fi
[ -f $W/S/weights.pt ] && python3 experiments/punct_gpu/transport.py pack $W/S "$OUT" S
for n in T S; do echo "== $n"; grep -E "epoch|teacher|threshold|limit|Error" "$OUT/$n.log" 2>/dev/null | cut -c1-260; done
(cd "$OUT" && tar czf logs.tgz *.log gpu.txt *.config.json.xz 2>/dev/null && rm -f *.log gpu.txt *.config.json.xz)
ls -la "$OUT"
