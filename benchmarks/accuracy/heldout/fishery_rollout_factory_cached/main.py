"""Compare escapement policies: every evaluation asks the factory for the same 20-season rollout."""

import jax
import jax.numpy as jnp
import numpy as np

from rollout import make_rollout

HORIZON = 20


class PolicyEvaluator:
    def __init__(self, n_scenarios, seed=0):
        rng = np.random.default_rng(seed)
        self.noise = jnp.asarray(0.2 * rng.normal(size=(n_scenarios, HORIZON)), jnp.float32)
        self.stock0 = jnp.float32(0.5)

    def mean_catch(self, escapement):
        rollout = make_rollout(HORIZON)
        total = 0.0
        for scenario in self.noise:
            _, catch = rollout(self.stock0, escapement, scenario)
            total += float(catch)
        return total / self.noise.shape[0]


def main():
    evaluator = PolicyEvaluator(n_scenarios=3)
    for escapement in np.linspace(0.3, 0.7, 5, dtype=np.float32):
        value = evaluator.mean_catch(jnp.float32(escapement))
        print(f"escapement {escapement:.2f}: mean catch {value:.4f}")


if __name__ == "__main__":
    main()
