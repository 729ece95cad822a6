#!/bin/bash
# Run on a lent GPU machine (the workplace's `device` tool) from the repository root, with the
# outside prose copied to .gpu/ and the opencc wheel for Python 3.12 in .whl/ (README.md here).
# Three BiLSTM segmenters of the v3 recipe's data, trained side by side on the one GPU with the
# same data and schedule and three widths; the 2x192 and 2x256 folders come back packed
# (transport.py), the 2x384 run's log only (its folder is over the limits on returned files).
set -u
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
DEVICE=${DEVICE:-cuda}  # DEVICE=cpu:0 SKIP_WHEEL=1 ZF=0.01 OF=0.001 EPOCHS=1: a dry run on a CPU machine
if [ -z "${SKIP_WHEEL:-}" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 2
fi
export PYTHONPATH=/tmp/site:$PWD
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
W=/tmp/runs; mkdir -p $W
EPOCHS=${EPOCHS:-12}
TIME_LIMIT=${TIME_LIMIT:-380}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
python3 -c "import torch; print('torch', torch.__version__, torch.cuda.is_available())" >> "$OUT/gpu.txt"
# a tiny run first: a failure on the GPU path costs seconds, not the lease
timeout 150 python3 -m pipeline.cli train segmenter --recipe v2 --zhushu-frac 0.02 --epochs 1 --device $DEVICE \
    --out $W/smoke > "$OUT/smoke.log" 2>&1 || { echo SMOKE FAILED; tail -40 "$OUT/smoke.log"; exit 3; }
echo smoke ok; tail -2 "$OUT/smoke.log" | cut -c1-200
(while true; do nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader >> "$OUT/smi.log" 2>&1; sleep 20; done) &
SMI=$!
common="--recipe v3 --layers 2 --zhushu-frac ${ZF:-0.5} --outside-frac ${OF:-0.25} --epochs $EPOCHS --batch-chars 6000
        --device $DEVICE --outside .gpu/classical_prose.punct.jsonl.gz --time-limit $TIME_LIMIT"
pids=""
for cfg in A:192 B:256 C:384; do
    n=${cfg%%:*}; h=${cfg##*:}
    python3 -m pipeline.cli train segmenter $common --hidden $h --out $W/$n > "$OUT/$n.log" 2>&1 &
    pids="$pids $!"
done
wait $pids
kill $SMI 2>/dev/null
for n in A B; do
    [ -f $W/$n/weights.pt ] && python3 experiments/punct_gpu/transport.py pack $W/$n "$OUT" $n
done
for n in A B C; do echo "== $n"; grep -E "epoch|threshold|limit|Error" "$OUT/$n.log" | cut -c1-260; done
# at most 8 files come back: the weights' pieces and one archive of the logs and configs
(cd "$OUT" && tar czf logs.tgz *.log gpu.txt *.config.json.xz 2>/dev/null && rm -f *.log gpu.txt *.config.json.xz)
ls -la "$OUT"
