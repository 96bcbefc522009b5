"""Run a few epochs over a toy 3-class problem, logging the metrics the loop state carries."""

import jax
import jax.numpy as jnp

from loop import init_loop_state, train_epoch

N_BATCHES, BATCH, DIM, CLASSES = 8, 16, 4, 3


def make_data(key):
    k_x, k_w = jax.random.split(key)
    x = jax.random.normal(k_x, (N_BATCHES, BATCH, DIM))
    labels = jnp.argmax(x @ jax.random.normal(k_w, (DIM, CLASSES)), axis=-1)
    return x, jax.nn.one_hot(labels, CLASSES)


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"w1": 0.5 * jax.random.normal(k1, (DIM, 16)), "w2": 0.5 * jax.random.normal(k2, (16, CLASSES))}


def main(epochs=4):
    k_data, k_params = jax.random.split(jax.random.PRNGKey(0))
    xs, ys = make_data(k_data)
    state = init_loop_state(init_params(k_params))
    for _ in range(epochs):
        state = train_epoch(state, xs, ys)
        print(f"epoch {int(state.epoch)}: loss {float(state.metrics['loss']):.3f}, accuracy {float(state.metrics['accuracy']):.2f}")


if __name__ == "__main__":
    main()
