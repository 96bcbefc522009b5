"""Online (Welford) estimate of the posterior variance used as a diagonal mass matrix."""
import jax
import jax.numpy as jnp


def init_adaptation(dim):
    return {
        "mean": jnp.zeros(dim),
        "m2": jnp.zeros(dim),
        "count": 0,  # expect: RTL401
    }


@jax.jit
def welford_update(stats, draws, divergent):
    """Fold a batch of per-chain draws into the running moments, skipping divergent chains."""
    keep = ~divergent
    n_new = jnp.sum(keep)
    count = stats["count"] + n_new
    batch_mean = jnp.sum(jnp.where(keep[:, None], draws, 0.0), axis=0) / jnp.maximum(n_new, 1)
    delta = batch_mean - stats["mean"]
    mean = stats["mean"] + delta * n_new / jnp.maximum(count, 1)
    sq = jnp.sum(jnp.where(keep[:, None], (draws - batch_mean) ** 2, 0.0), axis=0)
    m2 = stats["m2"] + sq + delta**2 * stats["count"] * n_new / jnp.maximum(count, 1)
    return {"mean": mean, "m2": m2, "count": count}


def inverse_mass_matrix(stats, regularize=1e-3):
    var = stats["m2"] / jnp.maximum(stats["count"] - 1, 1)
    return var + regularize
