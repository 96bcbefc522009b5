"""Fit a two-state (resting / migrating) Gaussian HMM to cell-track step lengths by gradient ascent."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.special import logsumexp
from jax.scipy.stats import norm

from tracks import batches, simulate_tracks


def init_params():
    return {
        "logit_trans": jnp.array([[2.0, -2.0], [-2.0, 2.0]]),
        "means": jnp.array([-1.0, 1.0]),
        "log_scales": jnp.zeros(2),
    }


NEG_INF = -1e30


def log_matmul(a, b):
    """Matrix product in the log semiring, batched over leading axes."""
    return logsumexp(a[..., :, :, None] + b[..., None, :, :], axis=-2)


def track_loglik(params, emissions, length):
    """Forward algorithm over a padded track; frames past `length` become identity steps."""
    log_trans = jax.nn.log_softmax(params["logit_trans"], axis=-1)
    scales = jnp.exp(params["log_scales"])
    log_obs = norm.logpdf(emissions[:, None], params["means"], scales)
    valid = jnp.arange(emissions.shape[0]) < length

    log_eye = jnp.where(jnp.eye(2, dtype=bool), 0.0, NEG_INF)
    steps = log_trans[None, :, :] + log_obs[1:, None, :]
    steps = jnp.where(valid[1:, None, None], steps, log_eye)
    product = jax.lax.associative_scan(log_matmul, steps)[-1]

    log_alpha0 = jnp.log(0.5) + log_obs[0]
    log_alpha = logsumexp(log_alpha0[:, None] + product, axis=0)
    return jnp.where(length > 0, logsumexp(log_alpha), 0.0)


@jax.jit
def batch_update(params, emissions, lengths, lr):
    def objective(p):
        ll = jax.vmap(track_loglik, in_axes=(None, 0, 0))(p, emissions, lengths)
        return ll.sum() / jnp.maximum(lengths.sum(), 1)

    value, grads = jax.value_and_grad(objective)(params)
    params = jax.tree_util.tree_map(lambda w, g: w + lr * g, params, grads)
    return params, value


def fit(tracks, n_epochs=3, batch_size=8, lr=0.5):
    params = init_params()
    lr = jnp.float32(lr)
    for epoch in range(n_epochs):
        total = 0.0
        for emissions, lengths in batches(tracks, batch_size):
            params, value = batch_update(params, jnp.asarray(emissions), jnp.asarray(lengths), lr)
            total += float(value)
        print(f"epoch {epoch}: mean per-frame log-lik {total:.3f}")
    return params


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    tracks = simulate_tracks(n_cells=19, rng=rng)
    print("track lengths:", [len(t) for t in tracks])
    fitted = fit(tracks)
    print("state means:", np.round(np.asarray(fitted["means"]), 3))
