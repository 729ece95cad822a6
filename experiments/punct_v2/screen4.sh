#!/bin/sh
# After the architecture screen: the shipped v2 model retrained by the CLI (byte-identity check),
# the speed table (one run, all models), then one more recipe point (less 注疏, more epochs).
cd "$(dirname "$0")"
export PYTHONPATH=/work/wt15
while pgrep -f screen3.sh > /dev/null; do sleep 10; done
t0=$(date +%s)
nice python3 -m pipeline.cli train segmenter --recipe v2 --out /tmp/pv2/v2-cli > logs/v2-cli.log 2>&1
echo "cli retrain $(( $(date +%s) - t0 ))s wall" >> logs/v2-cli.log
cmp /tmp/pv2/v2-cli/weights.pt /tmp/pv2/mix8/weights.pt && echo "weights.pt byte-identical to /tmp/pv2/mix8 (= models/segmenter-v2)" >> logs/v2-cli.log
python3 -c "import json; a,b=[{k:v for k,v in json.load(open(f'/tmp/pv2/{d}/config.json')).items() if k!='train_seconds'} for d in ('v2-cli','mix8')]; print('config.json identical but train_seconds:', a==b)" >> logs/v2-cli.log
nice python3 speed_table.py > logs/speed_table.log 2>&1
nice python3 train.py mix10-f01 '{"zhushu": true, "quantize": false, "epochs": 10, "zhushu_frac": 0.1}'
