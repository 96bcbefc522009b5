"""Trial solves from perturbed seeds (predictor and axis retries), each on the solver's device."""

import jax

from device import device_context


def trial_solves(solver, x_seed, scales, device):
    results = []
    for scale in scales:
        with device_context(device):
            x, rel = solver.solve(x_seed * scale, blocks=3)
        results.append((scale, rel))
    return results


def best_trial(results):
    return min(results, key=lambda item: item[1])


def perturbed_seed(x, key, amount=0.05):
    return x + amount * jax.random.normal(key, x.shape)
