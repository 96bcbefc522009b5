"""A learner that reweights its TD loss by importance weights from the sampling probabilities."""

import jax
import jax.numpy as jnp

import buffer

SAMPLE_BATCH = 1


@jax.jit
def learner_step(w, obs, probs):
    weights = (1.0 / (probs * 16.0)) ** 0.5
    loss, grad = jax.value_and_grad(lambda w: jnp.mean(weights * (obs @ w - 1.0) ** 2))(w)
    return w - 0.1 * grad, loss


def train(num_updates=4):
    state = buffer.init(capacity=16, obs_dim=3)
    for t in range(16):
        state = buffer.add(state, jnp.full((3,), 0.1 * t))
    sample = buffer.make_sample(SAMPLE_BATCH)
    w = jnp.zeros((3,))
    obs, probs = state.obs[:SAMPLE_BATCH], jnp.ones((SAMPLE_BATCH,)) / 16.0
    key = jax.random.PRNGKey(0)
    for _ in range(num_updates):
        w, loss = learner_step(w, obs, probs)
        key, sub = jax.random.split(key)
        obs, probs = sample(state, sub)
    return w, loss


if __name__ == "__main__":
    print(train())
