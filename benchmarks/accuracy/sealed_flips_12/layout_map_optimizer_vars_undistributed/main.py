"""Fit a dense classifier with a model-parallel layout map on a one-axis device mesh."""

import jax
import jax.numpy as jnp

from distribution import LayoutMap, ModelParallel
from trainer import DenseClassifier, JaxTrainer


def batches(n=4, batch=16, d_in=8, classes=4):
    for i in range(n):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, d_in))
        yield x, jax.nn.one_hot(jnp.argmax(x[:, :classes], axis=-1), classes)


def main():
    mesh = jax.make_mesh((1,), ("model",))
    layout = LayoutMap({"kernel": (None, "model"), "bias": ("model",)})
    distribution = ModelParallel(mesh, layout)
    model = DenseClassifier(d_in=8, classes=4, key=jax.random.PRNGKey(0))
    trainer = JaxTrainer(model, distribution, learning_rate=0.1)
    for epoch in range(2):
        loss = trainer.fit_epoch(batches())
        print(f"epoch {epoch}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
