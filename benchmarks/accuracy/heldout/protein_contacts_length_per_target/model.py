"""A tiny pair-representation contact head, in the style of a structure model."""
import jax
import jax.numpy as jnp


def init_params(key, n_aa=20, width=16):
    k1, k2 = jax.random.split(key)
    return {
        "embed": jax.random.normal(k1, (n_aa, width)) * 0.1,
        "pair": jax.random.normal(k2, (width, width)) * 0.1,
        "sep_weight": jnp.array(1.5),
        "bias": jnp.array(-1.0),
    }


@jax.jit
def predict_contacts(params, features):
    h = features["msa_feat"] @ params["embed"]              # (L, W)
    logits = h @ params["pair"] @ h.T                        # (L, L)
    logits = logits + params["sep_weight"] * features["rel_pos"] + params["bias"]
    logits = 0.5 * (logits + logits.T)
    return jax.nn.sigmoid(logits)
