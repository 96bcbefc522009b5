"""Overlap matrix of a small molecule from contracted Gaussians, integrals jitted per pair."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from basis import molecule_basis


def _hermite_1d(i, j, a, b, xa, xb):
    """Obara-Saika 1-D overlap recursion, unrolled in Python on the angular momenta."""
    p = a + b
    xp = (a * xa + b * xb) / p
    s = [[None] * (j + 1) for _ in range(i + 1)]
    s[0][0] = jnp.sqrt(jnp.pi / p) * jnp.exp(-a * b / p * (xa - xb) ** 2)
    for ii in range(i + 1):
        for jj in range(j + 1):
            if ii == 0 and jj == 0:
                continue
            if ii > 0:
                val = (xp - xa) * s[ii - 1][jj]
                if ii > 1:
                    val += (ii - 1) / (2 * p) * s[ii - 2][jj]
                if jj > 0:
                    val += jj / (2 * p) * s[ii - 1][jj - 1]
            else:
                val = (xp - xb) * s[ii][jj - 1]
                if jj > 1:
                    val += (jj - 1) / (2 * p) * s[ii][jj - 2]
            s[ii][jj] = val
    return s[i][j]


@partial(jax.jit, static_argnums=(0, 1))
def contracted_overlap(la, lb, alpha_a, coeff_a, ra, alpha_b, coeff_b, rb):
    a = alpha_a[:, None]
    b = alpha_b[None, :]
    prim = jnp.ones_like(a * b)
    for axis in range(3):
        prim = prim * _hermite_1d(la[axis], lb[axis], a, b, ra[axis], rb[axis])
    weights = coeff_a[:, None] * coeff_b[None, :]
    return jnp.sum(weights * prim)


def overlap_element(bf_a, bf_b):
    return contracted_overlap(
        bf_a.l, bf_b.l,  # expect: RTL201
        bf_a.alpha, bf_a.coeff, bf_a.center,
        bf_b.alpha, bf_b.coeff, bf_b.center,
    )


def overlap_matrix(functions):
    n = len(functions)
    S = np.zeros((n, n), dtype=np.float32)
    for i in range(n):
        for j in range(i, n):
            S[i, j] = S[j, i] = float(overlap_element(functions[i], functions[j]))
    return S


def main():
    water = [
        ("O", [0.0, 0.0, 0.0]),
        ("H", [0.0, 1.43, -1.11]),
        ("H", [0.0, -1.43, -1.11]),
    ]
    functions = molecule_basis(water)
    S = overlap_matrix(functions)
    # normalise so the diagonal is one, then check the basis is not linearly dependent
    d = np.sqrt(np.diag(S))
    S = S / d[:, None] / d[None, :]
    eig = np.linalg.eigvalsh(S)
    print(f"{len(functions)} basis functions, smallest overlap eigenvalue {eig.min():.4f}")


if __name__ == "__main__":
    main()
