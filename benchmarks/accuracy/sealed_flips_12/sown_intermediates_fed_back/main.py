"""Evaluate a small residual MLP batch by batch while recording its hidden activations."""

import jax
import jax.numpy as jnp

from module import ResidualMLP
from runner import Evaluator


def eval_batches(n=4, batch=8, d=12):
    for i in range(n):
        yield jax.random.normal(jax.random.PRNGKey(i), (batch, d))


def main():
    model = ResidualMLP(d=12, hidden=24)
    variables = model.init(jax.random.PRNGKey(0))
    evaluator = Evaluator(model, variables)
    for i, x in enumerate(eval_batches()):
        y = evaluator.step(x)
        print(f"batch {i}: out mean {float(jnp.mean(y)):.4f}, last hidden norm {evaluator.last_hidden_norm:.3f}")


if __name__ == "__main__":
    main()
