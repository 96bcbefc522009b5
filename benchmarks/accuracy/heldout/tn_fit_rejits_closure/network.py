"""A matrix-product-state classifier: a chain of 3-index cores contracted against feature maps."""

import jax
import jax.numpy as jnp


def init_cores(key, sites=6, bond=4, phys=2, classes=2):
    keys = jax.random.split(key, sites)
    cores = [jax.random.normal(k, (bond, phys, bond)) * 0.3 + jnp.eye(bond)[:, None, :] for k in keys]
    return {"cores": cores, "readout": jax.random.normal(keys[0], (bond, classes)) * 0.3}


def feature_map(x):
    return jnp.stack([jnp.cos(jnp.pi * x / 2), jnp.sin(jnp.pi * x / 2)], axis=-1)


def logits(params, x):
    phi = feature_map(x)  # (batch, sites, 2)
    bond = params["readout"].shape[0]
    v = jnp.ones((x.shape[0], bond)) / bond
    for site, core in enumerate(params["cores"]):
        v = jnp.einsum("bi,ipj,bp->bj", v, core, phi[:, site])
        v = v / jnp.linalg.norm(v, axis=-1, keepdims=True)
    return v @ params["readout"]
