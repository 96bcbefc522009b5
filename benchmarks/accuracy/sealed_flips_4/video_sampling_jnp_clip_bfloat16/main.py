"""Train a patch tokenizer on video clips for a few steps, then tokenize prompts for sampling."""

import jax
import jax.numpy as jnp
import numpy as np

from data import load_clips
from preprocess import DTYPE, sampling_frames, training_frames

PATCH = 4


def init_params(key, channels=3, dim=32):
    patch_dim = PATCH * PATCH * channels
    return {"proj": (jax.random.normal(key, (patch_dim, dim)) / np.sqrt(patch_dim)).astype(DTYPE)}


@jax.jit
def encode(params, video):
    b, t, h, w, c = video.shape
    patches = video.reshape(b, t, h // PATCH, PATCH, w // PATCH, PATCH, c).swapaxes(3, 4)
    patches = patches.reshape(b, t, (h // PATCH) * (w // PATCH), PATCH * PATCH * c)
    return jnp.tanh(patches @ params["proj"])


def reconstruction_loss(params, video):
    tokens = encode(params, video)
    return jnp.mean((tokens @ params["proj"].T - jnp.tanh(video.reshape(*tokens.shape[:3], -1))) ** 2)


def main(n_train=6, seed=0):
    rng = np.random.default_rng(seed)
    params = init_params(jax.random.PRNGKey(seed))
    for _ in range(n_train):
        video = training_frames(load_clips(rng, batch=4, frames=8))
        loss = reconstruction_loss(params, video)
    prompt = sampling_frames(load_clips(rng, batch=4, frames=8))
    tokens = encode(params, prompt)
    print(f"last training loss {float(loss):.4f}, prompt tokens {tokens.shape} {tokens.dtype}")


if __name__ == "__main__":
    main()
