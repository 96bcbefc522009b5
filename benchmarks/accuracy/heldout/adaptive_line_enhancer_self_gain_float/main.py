"""Stream a sonar-like recording (two tones in coloured noise) through the line enhancer in
fixed-size blocks and report how much of the tone power it recovers."""

import numpy as np

from enhancer import LineEnhancer

FS = 2000.0
BLOCK = 128
N_BLOCKS = 5


def synth_recording(n, seed=7):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / FS
    tones = 0.8 * np.sin(2 * np.pi * 120.0 * t) + 0.4 * np.sin(2 * np.pi * 310.0 * t + 0.3)
    noise = rng.normal(0.0, 1.0, n)
    coloured = np.convolve(noise, [0.6, 0.3, 0.1], mode="same")
    return (tones + coloured).astype(np.float32), tones.astype(np.float32)


def blocks(signal, size):
    for start in range(0, len(signal) - size + 1, size):
        yield signal[start : start + size]


def tone_snr(enhanced, clean):
    err = enhanced - clean
    return 10.0 * np.log10(np.sum(clean**2) / np.sum(err**2))


if __name__ == "__main__":
    noisy, clean = synth_recording(BLOCK * N_BLOCKS)
    ale = LineEnhancer(taps=16, delay=3, gain=0.005)  # expect: RTL401
    offset = ale.taps + ale.delay - 1
    for i, block in enumerate(blocks(noisy, BLOCK)):
        out = np.asarray(ale.process(block))
        ref = clean[i * BLOCK + offset : (i + 1) * BLOCK]
        print(f"block {i}: step={ale.history[-1]:.4f}  tone SNR={tone_snr(out, ref):+.1f} dB")
