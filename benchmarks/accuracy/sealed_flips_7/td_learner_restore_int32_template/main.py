"""Learn to predict a noisy periodic signal, then compare trace-decay settings from one warm-up snapshot."""

import jax
import jax.numpy as jnp

from checkpoint import load_snapshot, save_snapshot, state_template
from learner import init_learner, td_update

N_FEATURES = 8


def features(t):
    phases = jnp.arange(N_FEATURES) * (2 * jnp.pi / N_FEATURES)
    return jnp.maximum(jnp.cos(0.2 * t - phases), 0.0)


def stream(key, start, length):
    for t in range(start, start + length):
        noise = 0.1 * jax.random.normal(jax.random.fold_in(key, t))
        yield features(t), features(t + 1), jnp.sin(0.2 * t) + noise


def run(state, key, start, length, lam=0.8):
    errors = []
    for x, x_next, reward in stream(key, start, length):
        state, delta = td_update(state, x, x_next, reward, lam=lam)
        errors.append(float(delta) ** 2)
    return state, sum(errors) / len(errors)


def main():
    key = jax.random.PRNGKey(0)
    state = init_learner(N_FEATURES)
    state, error = run(state, key, 0, 60)
    print(f"warm-up error {error:.4f}")
    snapshot = save_snapshot(state)
    for lam in (0.8, 0.4):
        branch = load_snapshot(snapshot, state_template(N_FEATURES))
        branch, error = run(branch, key, 60, 60, lam=lam)
        print(f"lambda {lam}: error {error:.4f} after {int(branch.step_count)} updates")


if __name__ == "__main__":
    main()
