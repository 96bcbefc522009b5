"""Fine-tune a classifier head on top of a pretrained backbone."""

import jax
import jax.numpy as jnp
import numpy as np

from model import cross_entropy, init
from params import freeze, unfreeze


@jax.jit
def evaluate(params, x, labels):
    return cross_entropy(params, x, labels)


@jax.jit
def train_step(params, x, labels, lr=0.1):
    loss, grads = jax.value_and_grad(cross_entropy)(params, x, labels)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


def graft_backbone(params, pretrained):
    """Replace the randomly initialised backbone by the pretrained one."""
    grafted = unfreeze(params)
    grafted["backbone"] = pretrained
    return freeze(grafted)


def pretrained_backbone(n_in=8, n_hidden=16, seed=1):
    rng = np.random.default_rng(seed)
    return {
        "w": jnp.asarray(rng.normal(scale=0.3, size=(n_in, n_hidden)), jnp.float32),
        "b": jnp.zeros(n_hidden),
    }


def dataset(n=64, n_in=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, n_in)).astype(np.float32)
    return jnp.asarray(x), jnp.asarray((x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 1))


def main(epochs=5):
    x, labels = dataset()
    params = init(jax.random.PRNGKey(0))
    print("loss from scratch", float(evaluate(params, x, labels)))
    params = graft_backbone(params, pretrained_backbone())
    print("loss with pretrained backbone", float(evaluate(params, x, labels)))
    for _ in range(epochs):
        params, loss = train_step(params, x, labels)
    print("fine-tuned loss", float(loss))


if __name__ == "__main__":
    main()
