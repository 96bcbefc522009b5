"""Extended Kalman filter tracking a target from radar range/bearing scans.

The radar reports in batches; each batch header carries its own (slightly
jittered) scan interval, so a fresh motion model is built for every batch and
passed to the jitted filter together with the fixed sensor model.
"""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from models import motion_model, range_bearing


@dataclass
class BatchHeader:
    dt: float
    process_noise: float


@partial(jax.jit, static_argnames=("observe",))
def filter_batch(dynamics, mean, cov, measurements, q_scale, r_diag, observe):
    def ekf_step(carry, z):
        m, P = carry
        F = jax.jacfwd(dynamics)(m)
        m_pred = dynamics(m)
        P_pred = F @ P @ F.T + q_scale * jnp.eye(4)
        H = jax.jacfwd(observe)(m_pred)
        S = H @ P_pred @ H.T + jnp.diag(r_diag)
        K = P_pred @ H.T @ jnp.linalg.inv(S)
        innovation = z - observe(m_pred)
        return (m_pred + K @ innovation, (jnp.eye(4) - K @ H) @ P_pred), innovation

    (mean, cov), innovations = jax.lax.scan(ekf_step, (mean, cov), measurements)
    return mean, cov, innovations


def simulate_radar(rng, n_batches, per_batch):
    state = np.array([40.0, 10.0, -1.5, 0.8])
    for _ in range(n_batches):
        dt = 0.5 + 0.05 * rng.standard_normal()
        zs = []
        for _ in range(per_batch):
            state = state + dt * np.array([state[2], state[3], 0.0, 0.0])
            rng_ = np.hypot(state[0], state[1]) + 0.2 * rng.standard_normal()
            brg = np.arctan2(state[1], state[0]) + 0.01 * rng.standard_normal()
            zs.append((rng_, brg))
        yield BatchHeader(dt=float(dt), process_noise=0.02), np.asarray(zs, np.float32)


class RadarTracker:
    def __init__(self, r_diag):
        self.observe = range_bearing
        self.r_diag = jnp.asarray(r_diag, jnp.float32)
        self.mean = jnp.array([38.0, 12.0, 0.0, 0.0], jnp.float32)
        self.cov = 10.0 * jnp.eye(4, dtype=jnp.float32)

    def update(self, header, measurements):
        dynamics = motion_model(header.dt)
        self.mean, self.cov, innovations = filter_batch(
            dynamics, self.mean, self.cov, measurements, header.process_noise, self.r_diag,
            observe=self.observe,
        )
        return float(jnp.sqrt(jnp.mean(innovations[:, 0] ** 2)))


def main():
    tracker = RadarTracker(r_diag=(0.04, 1e-4))
    rng = np.random.default_rng(7)
    for i, (header, zs) in enumerate(simulate_radar(rng, n_batches=4, per_batch=6)):
        rms = tracker.update(header, zs)
        print(f"batch {i}: dt={header.dt:.3f}s range rms innovation {rms:.3f} m")
    print("final state", np.round(np.asarray(tracker.mean), 2))


if __name__ == "__main__":
    main()
