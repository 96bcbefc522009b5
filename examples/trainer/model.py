"""The models: an MLP classifier and a toy bag-of-embeddings language model.

Every jitted function is created once, at import time, so each keeps one trace cache for the run.
"""

from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from .config import Config

Params = dict[str, jax.Array]


def _normal(rng: np.random.Generator, shape: tuple[int, ...], fan_in: int) -> jax.Array:
    # Initialised with numpy: no compilation needed before the first training step.
    return jnp.asarray(rng.normal(size=shape) / np.sqrt(fan_in), jnp.float32)


def init_params(seed: int, cfg: Config) -> Params:
    rng = np.random.default_rng(seed)
    return {
        "w1": _normal(rng, (cfg.num_features, cfg.hidden), cfg.num_features),
        "b1": jnp.zeros(cfg.hidden),
        "w2": _normal(rng, (cfg.hidden, cfg.num_classes), cfg.hidden),
        "b2": jnp.zeros(cfg.num_classes),
    }


def forward(params: Params, x: jax.Array) -> jax.Array:
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def loss_fn(params: Params, x: jax.Array, y: jax.Array, cfg: Config) -> jax.Array:
    """Mean cross-entropy plus L2 weight decay."""
    logp = jax.nn.log_softmax(forward(params, x))
    nll = -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))
    l2 = jnp.sum(params["w1"] ** 2) + jnp.sum(params["w2"] ** 2)
    return nll + cfg.weight_decay * l2


# cfg is a frozen dataclass that never changes during a run: a fine static argument.
@partial(jax.jit, static_argnames=("cfg",))
def train_step(params: Params, x: jax.Array, y: jax.Array, cfg: Config):
    """Loss and gradients on one mini-batch."""
    return jax.value_and_grad(loss_fn)(params, x, y, cfg)


# Hoisted: one wrapper around one function object, so one trace cache.
predict_logits = jax.jit(forward)


@jax.jit
def accuracy_on(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean(jnp.argmax(forward(params, x), axis=-1) == y)


@jax.jit
def masked_correct(params: Params, x: jax.Array, y: jax.Array, mask: jax.Array):
    """Number of correct predictions and number of real rows, padding rows (mask 0) excluded."""
    correct = jnp.argmax(forward(params, x), axis=-1) == y
    return jnp.sum(correct * mask), jnp.sum(mask)


@partial(jax.jit, static_argnames=("score_fn",))
def score_batch(
    params: Params, x: jax.Array, y: jax.Array, mask: jax.Array, score_fn: Callable
) -> jax.Array:
    """Sum of score_fn(logits, labels) over the real rows of a padded batch."""
    return jnp.sum(score_fn(forward(params, x), y) * mask)


# ---- toy language model -------------------------------------------------------------------------


def init_lm(seed: int, cfg: Config) -> Params:
    rng = np.random.default_rng(seed)
    d = cfg.embed_dim
    return {
        "embed": _normal(rng, (cfg.vocab_size, d), 1),
        "w": _normal(rng, (d, d), d),
        "out": _normal(rng, (d, cfg.vocab_size), d),
    }


def _logits_from_context(lm: Params, context: jax.Array) -> jax.Array:
    return jnp.tanh(context @ lm["w"]) @ lm["out"]


@jax.jit
def next_token_logits(lm: Params, tokens: jax.Array) -> jax.Array:
    """Logits of the token after `tokens` (1-D int array): the model sees the mean embedding."""
    return _logits_from_context(lm, jnp.mean(lm["embed"][tokens], axis=0))


@jax.jit
def gathered_next_token_logits(lm: Params, buffer: jax.Array, positions: jax.Array) -> jax.Array:
    """Same model, reading the context tokens buffer[positions] out of a token buffer."""
    return _logits_from_context(lm, jnp.mean(lm["embed"][buffer[positions]], axis=0))
