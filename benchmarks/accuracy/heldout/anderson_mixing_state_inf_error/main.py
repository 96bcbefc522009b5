"""Mean-field magnetisation of a small Ising ring with next-nearest couplings, solved self-consistently
with Anderson mixing for a few external fields (a field sweep, as in a hysteresis study)."""

import jax.numpy as jnp
import numpy as np

from mixing import AndersonMixer

N_SITES = 12
TEMPERATURE = 2.5


def ring_couplings(n, j1=1.0, j2=-0.3):
    J = np.zeros((n, n), dtype=np.float32)
    for i in range(n):
        J[i, (i + 1) % n] = J[(i + 1) % n, i] = j1
        J[i, (i + 2) % n] = J[(i + 2) % n, i] = j2
    return jnp.asarray(J)


def mean_field_map(m, couplings, field):
    # m_i = tanh((sum_j J_ij m_j + h_i) / T)
    return jnp.tanh((couplings @ m + field) / TEMPERATURE)


def sweep_fields(mixer, couplings, amplitudes):
    rng = np.random.default_rng(3)
    m = jnp.asarray(rng.uniform(-0.1, 0.1, N_SITES).astype(np.float32))
    curve = []
    for h0 in amplitudes:
        field = jnp.full((N_SITES,), h0, dtype=jnp.float32)
        m, state = mixer.run(m, couplings, field, maxiter=4)
        curve.append((h0, float(jnp.mean(m)), float(state.error)))
    return curve


if __name__ == "__main__":
    J = ring_couplings(N_SITES)
    mixer = AndersonMixer(mean_field_map, history_size=3, beta=0.6)
    for h0, mag, err in sweep_fields(mixer, J, [0.5, 0.1, -0.3]):
        print(f"h={h0:+.2f}  <m>={mag:+.4f}  residual={err:.2e}")
