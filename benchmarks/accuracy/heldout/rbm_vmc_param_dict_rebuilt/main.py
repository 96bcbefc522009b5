"""Variational Monte Carlo for the 1D transverse-field Ising chain with an RBM wavefunction.

Each iteration: run a few Metropolis chains, gather their samples, estimate the energy and its
gradient, take an SGD step on the RBM parameters (kept in a plain dict of arrays).
"""

import jax
import jax.numpy as jnp
import numpy as np

N_SPINS = 6
ALPHA = 1  # hidden units per spin
N_CHAINS = 4
SAMPLES_PER_CHAIN = 8
J_COUPLING = 1.0
H_FIELD = 0.8


def init_rbm(key, n_spins, alpha):
    k1, k2 = jax.random.split(key)
    n_hidden = alpha * n_spins
    return {
        "kernel": 0.05 * jax.random.normal(k1, (n_spins, n_hidden), jnp.float32),
        "visible_bias": jnp.zeros((n_spins,), jnp.float32),
        "hidden_bias": 0.05 * jax.random.normal(k2, (n_hidden,), jnp.float32),
    }


def log_psi(params, s):
    theta = params["hidden_bias"] + s @ params["kernel"]
    return s @ params["visible_bias"] + jnp.sum(jnp.log(jnp.cosh(theta)))


@jax.jit
def sweep(params, spins, key):
    """One Metropolis sweep of single-spin flips; returns the new configuration and acceptances."""

    def flip_one(i, carry):
        s, key, n_acc = carry
        key, sub = jax.random.split(key)
        proposal = s.at[i].multiply(-1.0)
        ratio = jnp.exp(2.0 * (log_psi(params, proposal) - log_psi(params, s)))
        accept = jax.random.uniform(sub) < ratio
        return jnp.where(accept, proposal, s), key, n_acc + accept.astype(jnp.int32)

    spins, _, n_acc = jax.lax.fori_loop(0, spins.shape[0], flip_one, (spins, key, jnp.int32(0)))
    return spins, n_acc


def local_energy(params, s):
    bonds = -J_COUPLING * jnp.sum(s * jnp.roll(s, -1))
    flipped = s[None, :] * (1.0 - 2.0 * jnp.eye(s.shape[0], dtype=s.dtype))
    log_ratio = jax.vmap(lambda sp: log_psi(params, sp))(flipped) - log_psi(params, s)
    return bonds - H_FIELD * jnp.sum(jnp.exp(log_ratio))


@jax.jit
def estimate(params, chains):
    """Energy and its gradient from the samples of all chains (a list of per-chain arrays)."""
    samples = jnp.concatenate(chains, axis=0)
    e_loc = jax.vmap(lambda s: local_energy(params, s))(samples)
    o_k = jax.vmap(lambda s: jax.grad(log_psi)(params, s))(samples)
    e_mean = jnp.mean(e_loc)
    grads = jax.tree_util.tree_map(
        lambda o: 2.0 * (jnp.tensordot(e_loc, o, axes=1) / e_loc.shape[0] - e_mean * jnp.mean(o, axis=0)),
        o_k,
    )
    return {"energy": e_mean, "variance": jnp.var(e_loc)}, grads


def run_chains(params, starts, key):
    chains, last, accepted = [], [], jnp.int32(0)
    for c in range(N_CHAINS):
        spins = starts[c]
        draws = []
        for _ in range(SAMPLES_PER_CHAIN):
            key, sub = jax.random.split(key)
            spins, n_acc = sweep(params, spins, sub)
            draws.append(spins)
            accepted = accepted + n_acc
        chains.append(jnp.stack(draws))
        last.append(spins)
    return chains, last, int(accepted) / (N_CHAINS * SAMPLES_PER_CHAIN * N_SPINS), key


def main(n_iter=4, lr=0.05):
    key = jax.random.PRNGKey(0)
    key, k_init, k_start = jax.random.split(key, 3)
    params = init_rbm(k_init, N_SPINS, ALPHA)
    bits = jax.random.bernoulli(k_start, 0.5, (N_CHAINS, N_SPINS))
    starts = list(2.0 * bits.astype(jnp.float32) - 1.0)
    for it in range(n_iter):
        chains, starts, acc_rate, key = run_chains(params, starts, key)
        stats, grads = estimate(params, chains)
        params = {name: params[name] - lr * g for name, g in grads.items()}
        print(f"iter {it}: E/N = {float(stats['energy']) / N_SPINS:+.4f}  var {float(stats['variance']):.3f}  acc {acc_rate:.2f}")
    return params


if __name__ == "__main__":
    final = main()
    print("final kernel norm:", float(np.linalg.norm(np.asarray(final["kernel"]))))
