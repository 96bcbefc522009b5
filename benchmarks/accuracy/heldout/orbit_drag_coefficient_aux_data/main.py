"""Fit a satellite's ballistic coefficient to tracked positions by secant iterations."""

import jax.numpy as jnp
import numpy as np

from dynamics import R_EARTH, DragModel, propagate

DT = 30.0  # s


def initial_state(altitude_km=400.0):
    r = R_EARTH + altitude_km
    v = np.sqrt(398600.4418 / r)
    return jnp.array([r, 0.0, 0.0, 0.0, v, 0.0], dtype=jnp.float32)


def along_track_lag(state0, bstar, observed):
    """Radius lost over the arc by the model, compared with the tracking data."""
    states = propagate(state0, DragModel(bstar), DT)
    model_r = jnp.linalg.norm(states[:, :3], axis=1)
    obs_r = jnp.linalg.norm(observed[:, :3], axis=1)
    return float(jnp.mean(model_r - obs_r))


class BallisticFit:
    def __init__(self, state0, observed, guess=(0.01, 0.03)):
        self.state0 = state0
        self.observed = observed
        self.b_prev, self.b_curr = guess

    def iterate(self, n_iter):
        f_prev = along_track_lag(self.state0, self.b_prev, self.observed)
        for it in range(n_iter):
            f_curr = along_track_lag(self.state0, self.b_curr, self.observed)
            print(f"iter {it}: B = {self.b_curr:.5f}, mean radius residual {f_curr:+.3e} km")
            if abs(f_curr - f_prev) < 1e-9:
                break
            b_next = self.b_curr - f_curr * (self.b_curr - self.b_prev) / (f_curr - f_prev)
            self.b_prev, f_prev = self.b_curr, f_curr
            self.b_curr = float(b_next)
        return self.b_curr


def main():
    state0 = initial_state()
    truth = DragModel(0.022)
    observed = propagate(state0, truth, DT)
    fit = BallisticFit(state0, observed)
    b = fit.iterate(n_iter=3)
    print(f"estimated ballistic coefficient {b:.4f} (truth 0.0220)")


if __name__ == "__main__":
    main()
