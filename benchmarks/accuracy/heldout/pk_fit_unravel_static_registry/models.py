"""Structural and residual-error models for single-dose pharmacokinetics, looked up by name."""
import jax
import jax.numpy as jnp


def oral_one_compartment(theta, t, dose):
    ka, ke, v = jnp.exp(theta["log_ka"]), jnp.exp(theta["log_ke"]), jnp.exp(theta["log_v"])
    return dose * ka / (v * (ka - ke)) * (jnp.exp(-ke * t) - jnp.exp(-ka * t))


def iv_bolus(theta, t, dose):
    ke, v = jnp.exp(theta["log_ke"]), jnp.exp(theta["log_v"])
    return dose / v * jnp.exp(-ke * t)


def proportional_error(pred, obs):
    # weighted residuals for a 10 % coefficient of variation
    return (obs - pred) / (0.1 * jnp.maximum(pred, 1e-3))


def combined_error(pred, obs):
    return (obs - pred) / jnp.sqrt(0.05 ** 2 + (0.1 * pred) ** 2)


STRUCTURAL_MODELS = {"oral_1cmt": oral_one_compartment, "iv_bolus": iv_bolus}
ERROR_MODELS = {"proportional": proportional_error, "combined": combined_error}


def auc_trapezoid(t, conc):
    return jnp.sum(0.5 * (conc[1:] + conc[:-1]) * jnp.diff(t))


def peak(t, conc):
    i = jnp.argmax(conc)
    return t[i], conc[i]


EXPOSURE_METRICS = {"auc": jax.jit(auc_trapezoid), "cmax": jax.jit(peak)}
