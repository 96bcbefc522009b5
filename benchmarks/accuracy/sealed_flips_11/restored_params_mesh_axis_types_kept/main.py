"""Train, checkpoint half-way (as a preemptible job would), restore and carry on."""

import jax

import checkpoint
from model import init_params, sgd_step


def batch(i, n=32, d_in=8):
    x = jax.random.normal(jax.random.PRNGKey(i), (n, d_in))
    return x, x.sum(axis=1, keepdims=True)


def main():
    mesh = jax.make_mesh((1,), ("data",))
    params = init_params(jax.random.PRNGKey(0), mesh)
    for step in range(6):
        params, loss = sgd_step(params, *batch(step))
        print(f"step {step}: loss {float(loss):.4f}")
        if step == 2:
            saved = checkpoint.save(params)
            params = checkpoint.restore(saved)
            print("restored from checkpoint")


if __name__ == "__main__":
    main()
