"""Simulate a life-cycle model once per education group (a fixed state that partitions the model)."""

import jax.numpy as jnp
import numpy as np

from model import LifecycleModel
from simulate import compile_simulate, run_compiled_simulate

BASE_PARAMS = {
    "wage": 1.0,
    "edu_premium": 0.4,
    "pension": 0.6,
    "risk_aversion": 2.0,
    "beta": 0.95,
    "bequest": 0.3,
    "rate": 0.03,
}


def inject_partition_scalars(params, **point):
    merged = {**params, **point}
    return {name: jnp.asarray(value, dtype=jnp.float32) for name, value in merged.items()}


def main():
    model = LifecycleModel()
    rng = np.random.default_rng(0)
    education_grid = (0, 1)
    initial_wealth = rng.uniform(0.0, 2.0, size=(len(education_grid), model.n_subjects)).astype(np.float32)

    results = {}
    for i, education in enumerate(education_grid):
        compiled = compile_simulate(model)
        params = inject_partition_scalars(BASE_PARAMS, education=education)
        simulate_point = lambda w: run_compiled_simulate(compiled, params, w)
        consumption, final_wealth = simulate_point(jnp.asarray(initial_wealth[i]))
        results[education] = (float(consumption.mean()), float(final_wealth.mean()))

    for education, (mean_c, mean_w) in results.items():
        print(f"education={education}: mean consumption {mean_c:.3f}, terminal wealth {mean_w:.3f}")


if __name__ == "__main__":
    main()
