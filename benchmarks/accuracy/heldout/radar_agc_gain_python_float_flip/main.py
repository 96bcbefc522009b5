"""Pulse-by-pulse radar receiver: compress each echo, level it with AGC, run CFAR."""
import numpy as np
import jax
import jax.numpy as jnp

from receiver import GainController, ReceiverConfig, chirp_replica, compress_pulse


@jax.jit
def cell_averaging_cfar(profile, scale):
    kernel = jnp.ones(9, dtype=profile.dtype).at[3:6].set(0.0) / 6.0
    noise = jnp.convolve(profile, kernel, mode="same")
    return profile > scale * noise


def simulate_echo(rng, replica, n_bins, targets):
    echo = 0.3 * rng.standard_normal(n_bins).astype(np.float32)
    for rng_bin, amp in targets:
        end = min(n_bins, rng_bin + replica.shape[0])
        echo[rng_bin:end] += amp * np.asarray(replica[: end - rng_bin])
    return jnp.asarray(echo)


def run_dwell(n_pulses=5, seed=3):
    cfg = ReceiverConfig()
    rng = np.random.default_rng(seed)
    replica = chirp_replica(16)
    agc = GainController(cfg)
    cfar_scale = jnp.float32(4.0)
    detections = []
    for pulse in range(n_pulses):
        targets = [(30 + pulse, 5.0), (90, 2.5)]
        raw = simulate_echo(rng, replica, cfg.n_range_bins, targets)
        profile = compress_pulse(raw, replica)
        leveled = agc.process(profile)
        hits = cell_averaging_cfar(leveled, cfar_scale)
        detections.append(int(hits.sum()))
        print(f"pulse {pulse}: gain={float(agc.gain):.4f} detections={detections[-1]}")
    return detections


if __name__ == "__main__":
    run_dwell()
