"""Sweep a few cosmologies through a toy C_ell^TT model and score them."""

import jax
import jax.numpy as jnp
import numpy as np

from cosmo_params import canonical_params


def _tt_spectrum(params, ells):
    # crude acoustic-peak toy: amplitude, tilt, damping, peak spacing
    amp = jnp.exp(params["ln10As"]) * 1e-10 * jnp.exp(-2.0 * params["tau"])
    tilt = (ells / 80.0) ** (params["n_s"] - 1.0)
    spacing = 300.0 * (params["h"] / 0.67) * (0.12 / params["omega_cdm"]) ** 0.25
    damping = jnp.exp(-((ells / (1400.0 + 5e3 * params["omega_b"])) ** 2))
    suppress = 1.0 - 0.08 * jnp.sum(params["m_nu"])
    return 6e9 * amp * tilt * damping * suppress * (1.2 + jnp.cos(jnp.pi * ells / spacing))


tt_spectrum = jax.jit(_tt_spectrum)


@jax.jit
def gaussian_chi2(model, data, sigma):
    return jnp.sum(((model - data) / sigma) ** 2)


SWEEP = [
    {},  # Planck-like defaults
    {"h": 0.70, "omega_cdm": np.float64(0.118)},
    {"n_s": 1, "tau": 0.06, "m_nu": [0.02, 0.01, 0.05]},
    {"omega_b": np.float32(0.0222), "ln10As": 3.1, "m_nu": (0.1,)},
    {"h": np.float64(0.66), "omega_cdm": 0.125, "omega_b": 0.0225},
]


def main():
    ells = jnp.arange(2, 1202, 20, dtype=jnp.float32)
    fiducial = tt_spectrum(canonical_params({}), ells)
    rng = np.random.default_rng(7)
    sigma = 0.05 * fiducial + 1.0
    data = fiducial + sigma * rng.standard_normal(ells.shape[0]).astype(np.float32)

    results = []
    for user in SWEEP:
        params = canonical_params(user)
        model = tt_spectrum(params, ells)
        results.append((user, float(gaussian_chi2(model, data, sigma))))

    for user, chi2 in sorted(results, key=lambda r: r[1]):
        print(f"chi2={chi2:9.2f}  {user}")


if __name__ == "__main__":
    main()
