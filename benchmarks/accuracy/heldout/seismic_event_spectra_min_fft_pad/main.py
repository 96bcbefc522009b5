"""Event catalogue for one station-day: detect local events, estimate their source spectra.

Each triggered event has its own duration, so the windows cut from the record
have different lengths; they are tapered and zero-padded to an FFT size before
the spectral fit.
"""

import numpy as np

from detector import detect, synthetic_record
from spectra import SpectrumEstimator

FS = 100.0
ONSETS = [(6.0, 1.3, 9.0), (15.0, 1.9, 5.0), (24.5, 1.0, 12.0), (33.0, 2.2, 4.0), (41.0, 1.6, 7.0)]


def catalogue(trace, fs):
    estimate = SpectrumEstimator(fs)
    rows = []
    for start, stop in detect(trace, fs):
        spec = estimate(trace[start:stop])
        rows.append({"t0": start / fs, "dur": (stop - start) / fs, **spec})
    return rows


if __name__ == "__main__":
    record = synthetic_record(FS, 50.0, ONSETS)
    for row in catalogue(record, FS):
        print(f"t0 {row['t0']:6.2f}s  dur {row['dur']:.2f}s  nfft {row['nfft']}  "
              f"fc {row['fc']:5.1f} Hz  log10 omega0 {np.log10(row['omega0']):.2f}")
