"""Straight-ray travel-time tomography on a small 2-D grid, solved with L-BFGS."""

import jax
import jax.numpy as jnp
import numpy as np

from lbfgs import LbfgsMemory

NX, NZ = 6, 5
CELL = 0.5  # km


def straight_ray_matrix(n_sources=4, n_receivers=5):
    """Approximate path length of each source-receiver ray in each cell."""
    rows = []
    xs = np.linspace(0.1, NX * CELL - 0.1, n_receivers)
    for zs in np.linspace(0.2, NZ * CELL - 0.2, n_sources):
        for xr in xs:
            pts = np.linspace([0.0, zs], [xr, 0.0], 60)
            seg = np.hypot(xr, zs) / len(pts)
            row = np.zeros((NZ, NX))
            ix = np.clip((pts[:, 0] / CELL).astype(int), 0, NX - 1)
            iz = np.clip((pts[:, 1] / CELL).astype(int), 0, NZ - 1)
            np.add.at(row, (iz, ix), seg)
            rows.append(row.ravel())
    return jnp.asarray(np.stack(rows), dtype=jnp.float32)


@jax.jit
def misfit_and_grad(slowness, G, t_obs, damping):
    def misfit(s):
        resid = G @ s - t_obs
        return 0.5 * jnp.sum(resid ** 2) + 0.5 * damping * jnp.sum((s - 0.5) ** 2)

    return jax.value_and_grad(misfit)(slowness)


def backtrack(slowness, direction, f0, g0, G, t_obs, damping, step=1.0):
    for _ in range(8):
        trial = slowness + step * direction
        f1, _ = misfit_and_grad(trial, G, t_obs, damping)
        if f1 <= f0 + 1e-4 * step * jnp.dot(g0, direction):
            return trial
        step *= 0.5
    return trial


def invert(G, t_obs, n_iter=6, damping=0.05):
    slowness = jnp.full(NX * NZ, 0.5, dtype=jnp.float32)  # s/km starting model
    damping = jnp.float32(damping)
    memory = LbfgsMemory(NX * NZ, size=3)
    f, g = misfit_and_grad(slowness, G, t_obs, damping)
    for it in range(n_iter):
        d = memory.direction(g)
        new = backtrack(slowness, d, f, g, G, t_obs, damping)
        f_new, g_new = misfit_and_grad(new, G, t_obs, damping)
        memory.push(new - slowness, g_new - g)
        slowness, f, g = new, f_new, g_new
        print(f"iter {it}: misfit {float(f):.5f}, pairs {len(memory)}")
    return slowness


if __name__ == "__main__":
    G = straight_ray_matrix()
    true = np.full((NZ, NX), 0.5, dtype=np.float32)
    true[2:4, 2:4] = 0.4  # fast anomaly
    t_obs = G @ jnp.asarray(true.ravel())
    model = invert(G, t_obs)
    print("recovered anomaly slowness", float(model.reshape(NZ, NX)[2:4, 2:4].mean()))
