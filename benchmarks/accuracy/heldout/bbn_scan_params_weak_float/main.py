"""Scan the neutron-lifetime factor and see how Y_p and the damping tail respond."""

import jax.numpy as jnp
from params import DEFAULT_PARAMS, with_overrides
from pipeline import predict_observables


def scan_tau_n(factors, ell):
    baseline_yp, baseline_cl = predict_observables(DEFAULT_PARAMS, ell)
    rows = []
    for f in factors:
        params = with_overrides(DEFAULT_PARAMS, tau_n_fac=jnp.asarray(f, dtype=jnp.float32))  # expect: RTL401
        y_p, cl = predict_observables(params, ell)
        rows.append((f, float(y_p - baseline_yp), float(jnp.max(jnp.abs(cl / baseline_cl - 1.0)))))
    return rows


if __name__ == "__main__":
    ell = jnp.arange(2.0, 2002.0, 50.0)
    for f, dyp, dcl in scan_tau_n([0.98, 1.0, 1.02], ell):
        print(f"tau_n x{f:.2f}: dY_p={dyp:+.5f}  max|dC_l/C_l|={dcl:.4f}")
