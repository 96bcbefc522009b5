"""Shared latent dynamics with a read-in and read-out per recording session."""

import jax
import jax.numpy as jnp


def init_common(key, n_latent=3, n_hidden=8):
    k1, k2 = jax.random.split(key)
    return {
        "w_rec": jax.random.normal(k1, (n_hidden, n_hidden)) * 0.3,
        "w_lat": jax.random.normal(k2, (n_latent, n_hidden)) * 0.3,
    }


def init_session(key, n_neurons, n_latent=3, n_hidden=8):
    k1, k2 = jax.random.split(key)
    return {
        "readin": jax.random.normal(k1, (n_neurons, n_hidden)) * 0.1,  # expect: RTL105
        "readout": jax.random.normal(k2, (n_latent, n_neurons)) * 0.1,  # expect: RTL105
        "bias": jnp.zeros((n_neurons,)),  # expect: RTL105
    }


def poisson_nll(common, sess, spikes):
    h = jnp.tanh(spikes @ sess["readin"])  # (trials, bins, hidden)
    h = jnp.tanh(h + jnp.roll(h, 1, axis=1) @ common["w_rec"])  # one step of shared dynamics
    latents = h @ common["w_lat"].T  # (trials, bins, latent)
    log_rate = latents @ sess["readout"] + sess["bias"]
    return jnp.mean(jnp.exp(log_rate) - spikes * log_rate)


@jax.jit
def session_update(common, sess, spikes):
    loss, (g_common, g_sess) = jax.value_and_grad(poisson_nll, argnums=(0, 1))(common, sess, spikes)
    common = jax.tree.map(lambda p, g: p - 0.05 * g, common, g_common)
    sess = jax.tree.map(lambda p, g: p - 0.05 * g, sess, g_sess)
    return common, sess, loss
