"""Time-evolving block decimation (TEBD) helpers for an open spin-1/2 chain.

The site tensors are kept as a plain Python list: tensor i has shape
(left bond, 2, right bond).  Gates are applied on the host with NumPy,
the observables are evaluated with JAX.
"""

import numpy as np


def product_state(n_sites, up_sites=()):
    sites = []
    for i in range(n_sites):
        t = np.zeros((1, 2, 1), dtype=np.float32)
        t[0, 0 if i in up_sites else 1, 0] = 1.0
        sites.append(t)
    return sites


def ising_bond_gate(dt, coupling, field):
    sz = np.diag([1.0, -1.0])
    sx = np.array([[0.0, 1.0], [1.0, 0.0]])
    eye = np.eye(2)
    h = coupling * np.kron(sz, sz) + 0.5 * field * (np.kron(sx, eye) + np.kron(eye, sx))
    w, v = np.linalg.eigh(h)
    # imaginary-time step: exp(-dt * h)
    return (v @ np.diag(np.exp(-dt * w)) @ v.T).reshape(2, 2, 2, 2)


def apply_two_site(left, right, gate, chi_max):
    dl, dr = left.shape[0], right.shape[2]
    theta = np.einsum("aib,bjc->aijc", left, right)
    theta = np.einsum("ijkl,aklc->aijc", gate, theta)
    mat = theta.reshape(dl * 2, 2 * dr)
    u, s, vh = np.linalg.svd(mat, full_matrices=False)
    keep = min(chi_max, s.shape[0])
    u, s, vh = u[:, :keep], s[:keep], vh[:keep]  # expect: RTL101
    s = s / np.linalg.norm(s)
    new_left = u.reshape(dl, 2, keep).astype(np.float32)
    new_right = (np.diag(s) @ vh).reshape(keep, 2, dr).astype(np.float32)
    return new_left, new_right


def sweep(sites, gate, chi_max):
    """One even/odd Trotter sweep; returns a new list of site tensors."""
    sites = list(sites)
    for start in (0, 1):
        for i in range(start, len(sites) - 1, 2):
            sites[i], sites[i + 1] = apply_two_site(sites[i], sites[i + 1], gate, chi_max)
    return sites
