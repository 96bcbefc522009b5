"""Replay a short flight log through the EKF, bridging GPS-only gaps when IMU packets drop."""

from dataclasses import dataclass, field

import numpy as np
import jax.numpy as jnp

from ekf import gps_update, predict

IMU_DT = 0.02


@dataclass
class FlightLog:
    t: np.ndarray
    accel: np.ndarray
    gps: dict = field(default_factory=dict)   # sample index -> (x, y)
    dropped: set = field(default_factory=set)  # IMU samples lost on the radio link


class StateEstimator:
    def __init__(self):
        self.x = jnp.zeros(4, dtype=jnp.float32)
        self.P = jnp.eye(4, dtype=jnp.float32)
        self.t_last = 0.0
        self.last_accel = jnp.zeros(2, dtype=jnp.float32)

    def on_imu(self, t, accel):
        self.x, self.P = predict(self.x, self.P, accel, IMU_DT)  # expect: RTL404
        self.t_last = t
        self.last_accel = accel

    def bridge_gap(self, t):
        # coast on the last good acceleration over however long the link was down
        gap = t - self.t_last
        self.x, self.P = predict(self.x, self.P, self.last_accel, dt=gap)  # expect: RTL404
        self.t_last = t

    def on_gps(self, fix):
        z = jnp.asarray(fix, dtype=jnp.float32)
        self.x, self.P = gps_update(self.x, self.P, z)


def make_log(n=6, seed=3):
    rng = np.random.default_rng(seed)
    t = np.arange(n) * IMU_DT
    accel = rng.normal(0.0, 0.3, size=(n, 2)).astype(np.float32)
    gps = {2: (0.01, -0.02), 5: (0.03, 0.01)}
    return FlightLog(t=t, accel=accel, gps=gps, dropped={3})


def replay(log, est):
    for i, t in enumerate(log.t):
        if i in log.dropped:
            est.bridge_gap(float(t))
        else:
            est.on_imu(float(t), jnp.asarray(log.accel[i]))
        if i in log.gps:
            est.on_gps(log.gps[i])
    return est.x


if __name__ == "__main__":
    final = replay(make_log(), StateEstimator())
    print("final position/velocity:", np.round(np.asarray(final), 4))
