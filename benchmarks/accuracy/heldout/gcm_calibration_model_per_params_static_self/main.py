"""Calibrate the vertical-diffusion timescale of a toy GCM against a reference run.

Each candidate value builds a fresh Model (the documented way to change physics
parameters), then runs it for the same window and scores the mean temperature.
"""

import jax.numpy as jnp

from model import Model
from physics import ColumnPhysics, DiffusionParams, default_equilibrium

N_LAT = 16


def build_model(trvdi, t_eq):
    params = DiffusionParams(trvdi=trvdi)
    return Model(ColumnPhysics(params, t_eq), time_step=0.5)


def reference_profile(t_eq):
    truth = build_model(18.0, t_eq)
    final, _ = truth.run(truth.initial_state(N_LAT))
    return final


def score(model, target):
    final, series = model.run(model.initial_state(N_LAT))  # expect: RTL204
    misfit = jnp.mean((final - target) ** 2)
    return float(misfit), float(series[-1])


def calibrate(candidates, t_eq, target):
    results = []
    for trvdi in candidates:
        model = build_model(trvdi, t_eq)  # expect: RTL204
        misfit, mean_t = score(model, target)  # expect: RTL204
        print(f"trvdi={trvdi:5.1f} h  misfit={misfit:9.4f}  mean T={mean_t:7.2f} K")
        results.append((misfit, trvdi))
    return min(results)


if __name__ == "__main__":
    t_eq = default_equilibrium(N_LAT)
    target = reference_profile(t_eq)
    best_misfit, best_trvdi = calibrate([12.0, 18.0, 24.0, 36.0], t_eq, target)
    print(f"best trvdi = {best_trvdi} h (misfit {best_misfit:.4f})")
