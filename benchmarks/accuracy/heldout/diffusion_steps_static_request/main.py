"""Serve a queue of generation requests."""

import jax.numpy as jnp
from pipeline import Pipeline, Request

QUEUE = [
    Request(seed=0),
    Request(seed=1, quality="draft"),
    Request(seed=2, quality="high"),
    Request(seed=3),
    Request(seed=4, quality="draft"),
]

if __name__ == "__main__":
    pipe = Pipeline({"scale": jnp.float32(0.9), "shift": jnp.float32(0.1)})
    for request in QUEUE:
        image = pipe(request)
        print(request.seed, request.quality, float(image.mean()))
