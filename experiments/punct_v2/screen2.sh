#!/bin/sh
# The chosen recipe (mix: 注疏 sampled at 0.2 an epoch, 8 epochs) retrained by the CLI (determinism
# check against /tmp/pv2/mix8), then two other encoders on the same recipe.
cd "$(dirname "$0")"
export PYTHONPATH=/work/wt15
t0=$(date +%s)
nice python3 -m pipeline.cli train segmenter --recipe v2 --out /tmp/pv2/v2-cli > logs/v2-cli.log 2>&1
echo "cli retrain $(( $(date +%s) - t0 ))s" >> logs/v2-cli.log
cmp /tmp/pv2/v2-cli/weights.pt /tmp/pv2/mix8/weights.pt && echo "weights byte-identical" >> logs/v2-cli.log
cmp /tmp/pv2/v2-cli/config.json /tmp/pv2/mix8/config.json && echo "config identical" >> logs/v2-cli.log
nice python3 train.py cnnlstm '{"zhushu": true, "quantize": false, "epochs": 8, "zhushu_frac": 0.2, "arch": {"enc": "cnnlstm", "conv_layers": 2}}'
nice python3 train.py transformer '{"zhushu": true, "quantize": false, "epochs": 8, "zhushu_frac": 0.2, "lr": 0.001, "arch": {"enc": "transformer", "hidden": 192, "layers": 3, "heads": 4, "ff": 512, "kernel": 5, "dropout": 0.1}}'
