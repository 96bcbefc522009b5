"""Train an activity classifier, then swap in a backbone pretrained on a larger sensor corpus and fine-tune."""

import jax
import jax.numpy as jnp
import numpy as np

import model


def loss_fn(params, x, y):
    logits = model.apply(params, x)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params, loss


def batches(rng, n_batches, size=32):
    for _ in range(n_batches):
        x = rng.standard_normal((size, model.N_FEATURES)).astype(np.float32)
        y = (x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 1).astype(np.int32)
        yield jnp.asarray(x), jnp.asarray(y)


def load_pretrained_backbone(seed):
    rng = np.random.default_rng(seed)
    kernel = 0.2 * rng.standard_normal((model.N_FEATURES, model.N_HIDDEN)).astype(np.float32)
    return {"kernel": jnp.asarray(kernel), "bias": jnp.zeros(model.N_HIDDEN)}


def main(seed=0):
    rng = np.random.default_rng(seed)
    params = model.init_params(jax.random.PRNGKey(seed))
    for x, y in batches(rng, 5):
        params, loss = train_step(params, x, y)
    print(f"head warm-up loss {float(loss):.3f}")
    params = model.with_pretrained_backbone(params, load_pretrained_backbone(seed + 1))
    for x, y in batches(rng, 10):
        params, loss = train_step(params, x, y)
    print(f"fine-tuned loss {float(loss):.3f}")


if __name__ == "__main__":
    main()
