"""STA/LTA event picking on a small seismic network.

Triggers are found with jnp.nonzero on a data-dependent mask, but with a fixed
`size=` (padded with -1), so every station hands the feature extractor arrays of
the same shape no matter how many events it saw.
"""
import jax
import jax.numpy as jnp
import numpy as np

SAMPLE_RATE = 50
N_SAMPLES = 600
MAX_PICKS = 8
HALF_WINDOW = 12


def synth_trace(rng, n_events):
    trace = 0.05 * rng.standard_normal(N_SAMPLES)
    onsets = rng.choice(np.arange(60, N_SAMPLES - 60), size=n_events, replace=False)
    for onset in onsets:
        t = np.arange(N_SAMPLES - onset) / SAMPLE_RATE
        trace[onset:] += np.exp(-3.0 * t) * np.sin(2 * np.pi * 6.0 * t)
    return trace.astype(np.float32)


@jax.jit
def sta_lta(trace):
    energy = trace**2
    sta = jnp.convolve(energy, jnp.ones(5) / 5, mode="same")
    lta = jnp.convolve(energy, jnp.ones(50) / 50, mode="same")
    return sta / (lta + 1e-6)


def detect_onsets(ratio, threshold=4.0):
    above = ratio > threshold
    onsets = above & ~jnp.roll(above, 1)
    (idx,) = jnp.nonzero(onsets, size=MAX_PICKS, fill_value=-1)
    return idx, idx >= 0


@jax.jit
def pick_features(trace, idx, valid):
    padded = jnp.pad(trace, HALF_WINDOW)

    def one(i):
        window = jax.lax.dynamic_slice(padded, (jnp.maximum(i, 0),), (2 * HALF_WINDOW,))
        return jnp.array([jnp.abs(window).max(), jnp.sqrt(jnp.mean(window**2))])

    feats = jax.vmap(one)(idx)
    return jnp.where(valid[:, None], feats, 0.0)


def process_station(name, trace):
    ratio = sta_lta(trace)
    idx, valid = detect_onsets(ratio)
    feats = pick_features(trace, idx, valid)
    n_picks = int(valid.sum())
    peak = float(feats[:, 0].max()) if n_picks else 0.0
    print(f"{name}: {n_picks} picks, max amplitude {peak:.3f}")
    return feats


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    network = {f"ST{k:02d}": synth_trace(rng, n_events) for k, n_events in enumerate([1, 3, 0, 2, 5])}
    catalog = {name: process_station(name, trace) for name, trace in network.items()}
    print("stations processed:", len(catalog))
