"""Heat conduction along a rod whose conductivity depends on temperature.

The finite-difference stencil is static (its taps unroll into shifted sums), the diffusivity field is
traced. Every output interval the diffusivity is re-evaluated from the current temperature and a new
Discretization is built from the run configuration, stencil array included.
"""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

SUBSTEPS = 25  # explicit steps per output interval

# Second-derivative stencils by order of accuracy.
STENCILS = {
    2: [1.0, -2.0, 1.0],
    4: [-1.0 / 12.0, 4.0 / 3.0, -5.0 / 2.0, 4.0 / 3.0, -1.0 / 12.0],
}


@dataclass(frozen=True)
class RunConfig:
    n_cells: int = 64
    length_m: float = 0.5
    order: int = 4
    dt_s: float = 0.02


@jax.tree_util.register_pytree_node_class
class Discretization:
    def __init__(self, diffusivity, stencil, dx):
        self.diffusivity = diffusivity
        self.stencil = np.asarray(stencil, dtype=np.float64)
        self.dx = dx

    @classmethod
    def from_config(cls, cfg, diffusivity):
        return cls(diffusivity, np.array(STENCILS[cfg.order]), cfg.length_m / cfg.n_cells)

    def tree_flatten(self):
        # A numpy array is neither hashable nor comparable with ==, so the stencil travels in the
        # aux data as its raw bytes, shape and dtype; equal stencils give equal aux data.
        aux = (self.stencil.tobytes(), self.stencil.shape, self.stencil.dtype.str, self.dx)
        return (self.diffusivity,), aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        raw, shape, dtype, dx = aux
        return cls(children[0], np.frombuffer(raw, dtype=dtype).reshape(shape), dx)

    def laplacian(self, u):
        half = len(self.stencil) // 2
        padded = jnp.pad(u, half, mode="edge")
        acc = jnp.zeros_like(u)
        for k, c in enumerate(self.stencil):
            acc = acc + float(c) * jax.lax.dynamic_slice_in_dim(padded, k, u.shape[0])
        return acc / self.dx**2


@jax.jit
def advance(disc, u, dt):
    def body(_, u):
        return u + dt * disc.diffusivity * disc.laplacian(u)

    return jax.lax.fori_loop(0, SUBSTEPS, body, u)


@jax.jit
def heat_content(disc, u):
    return jnp.sum(u) * disc.dx


def conductivity(u):
    # Diffusivity in m^2/s, rising slightly with temperature (in kelvin).
    return 1.0e-4 * (1.0 + 2.0e-3 * (u - 300.0))


def main():
    cfg = RunConfig()
    x = jnp.linspace(0.0, cfg.length_m, cfg.n_cells)
    u = 300.0 + 80.0 * jnp.exp(-(((x - 0.25) / 0.05) ** 2))
    dt = jnp.float32(cfg.dt_s)
    for interval in range(5):
        disc = Discretization.from_config(cfg, conductivity(u))
        u = advance(disc, u, dt)
        print(f"t = {(interval + 1) * SUBSTEPS * cfg.dt_s:4.1f} s: "
              f"peak {float(u.max()):.2f} K, heat {float(heat_content(disc, u)):.4f}")


if __name__ == "__main__":
    main()
