"""Play a few frames with a linear policy over the object features, as an agent smoke test."""

import jax
import jax.numpy as jnp

from pong import reset, step


@jax.jit
def policy(weights, obs):
    features = jnp.concatenate([jnp.atleast_1d(leaf).ravel() for leaf in jax.tree_util.tree_leaves(obs)])
    logits = weights @ features[: weights.shape[1]]
    return jnp.argmax(logits)


def main(frames=12):
    key = jax.random.PRNGKey(0)
    weights = jax.random.normal(key, (3, 4)) * 0.01
    obs, state = reset(key)
    total = 0.0
    for _ in range(frames):
        obs, state, reward = step(state, policy(weights, obs))
        total += float(reward)
    print(f"{frames} frames, reward {total:.0f}, ball at {[round(float(v), 1) for v in state.ball]}")


if __name__ == "__main__":
    main()
