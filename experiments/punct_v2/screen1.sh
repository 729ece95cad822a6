#!/bin/sh
# Recipe screen (1x192 BiLSTM, today's architecture, + kind per marker + book embedding).
cd "$(dirname "$0")"
export PYTHONPATH=/work/wt15
nice python3 train.py mix8 '{"zhushu": true, "quantize": false, "epochs": 8, "zhushu_frac": 0.2}'
nice python3 train.py ptft '{"zhushu": true, "quantize": false, "pretrain_epochs": 2, "pretrain_zhushu_frac": 0.5, "epochs": 6, "zhushu_frac": 0.0}'
