"""Gather the parameter shards of two workers and keep training the full model on one host."""

import jax

from collectives import ShardStore
from train import train_step


def make_shards(key, workers=2, d_in=8, d_hidden=8):
    shards = []
    for k in jax.random.split(key, workers):
        kw, kv = jax.random.split(k)
        shards.append({
            "w": 0.3 * jax.random.normal(kw, (d_in // workers, d_hidden)),
            "v": 0.3 * jax.random.normal(kv, (d_hidden // workers, 1)),
        })
    return shards


def main():
    store = ShardStore(make_shards(jax.random.PRNGKey(0)))
    params = store.all_gather()  # expect: RTL403
    for step in range(5):
        x = jax.random.normal(jax.random.PRNGKey(10 + step), (32, 8))
        params, loss = train_step(params, x, x[:, :1])
        print(f"step {step}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
