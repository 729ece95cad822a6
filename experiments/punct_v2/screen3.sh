#!/bin/sh
# Architecture screen on a short schedule (3 epochs, 注疏 sampled at 0.1 an epoch; same seed, data,
# kinds and book embedding): today's 1x192 BiLSTM, CNN+BiLSTM, a small character transformer.
cd "$(dirname "$0")"
export PYTHONPATH=/work/wt15
nice python3 train.py s3-bilstm '{"zhushu": true, "quantize": false, "epochs": 3, "zhushu_frac": 0.1}'
nice python3 train.py s3-cnnlstm '{"zhushu": true, "quantize": false, "epochs": 3, "zhushu_frac": 0.1, "arch": {"enc": "cnnlstm", "conv_layers": 2}}'
nice python3 train.py s3-transformer '{"zhushu": true, "quantize": false, "epochs": 3, "zhushu_frac": 0.1, "lr": 0.001, "arch": {"enc": "transformer", "hidden": 192, "layers": 3, "heads": 4, "ff": 512, "kernel": 5, "dropout": 0.1}}'
