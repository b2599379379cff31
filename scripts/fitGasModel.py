#!/usr/bin/env python3
"""Fits the executor gas model of src/quote/estimateGas.ts (a calibration tool, not part of CI).

1. npx vitest run --config vitest.calibration.config.ts   # fills on anvil -> .tmp/gasdata.json
2. python3 scripts/fitGasModel.py                          # needs numpy and scipy

The fit is a linear program: the smallest total over-estimate subject to never
under-estimating any recorded fill, with non-negative costs except the warm-pool
discount. The printed constants map onto estimateGas.ts / the families' gas.ts;
the SDK then multiplies the execution part by ESTIMATE_MARGIN_PERCENT.
"""
import json

import numpy as np
from scipy.optimize import linprog

FEATURES = ['base', 'v2Step', 'v3Step', 'v3TickCrossed', 'v3ExtraWord', 'warmPool', 'unwrap',
            'nativeFresh', 'nativeFunded', 'tokenFresh', 'tokenFunded']


def features(row):
    native_out = row['nativeOut'] == 1
    fee_native = row.get('feeEth', 0) == 1
    receiver_fresh = row['freshReceiver']
    fees_fresh, fees_funded = row['feesFresh'], row['feesFunded']
    return [
        1,
        row['v2'],
        row['v3'],
        row['ticks'],
        row['words'],
        row['v2'] + row['v3'] - row['distinct'],
        1 if native_out else 0,
        (receiver_fresh if native_out else 0) + (fees_fresh if fee_native else 0),
        ((1 - receiver_fresh) if native_out else 0) + (fees_funded if fee_native else 0),
        (0 if native_out else receiver_fresh) + (0 if fee_native else fees_fresh),
        (0 if native_out else 1 - receiver_fresh) + (0 if fee_native else fees_funded),
    ]


def main():
    rows = [r for r in json.load(open('.tmp/gasdata.json')) if r['status'] == 'success']
    X = np.array([features(r) for r in rows], float)
    # Execution gas: what the receipt used less the intrinsic cost of the calldata.
    y = np.array([r['gasUsed'] - 21000 - r['calldata'] for r in rows], float)
    bounds = [(0, None)] * len(FEATURES)
    bounds[FEATURES.index('warmPool')] = (None, 0)
    fit = linprog(c=X.sum(axis=0), A_ub=-X, b_ub=-y, bounds=bounds, method='highs')
    for name, value in zip(FEATURES, fit.x):
        print(f'{name:14s} {value:10.0f}')
    total = np.array([r['gasUsed'] for r in rows])
    intrinsic = np.array([21000 + r['calldata'] for r in rows])
    for margin in (1.0, 1.04, 1.06):
        ratio = (intrinsic + np.ceil(X @ fit.x * margin)) / total
        print(f'margin {margin}: estimate/used min {ratio.min():.3f} max {ratio.max():.3f} over {len(rows)} fills')


if __name__ == '__main__':
    main()
