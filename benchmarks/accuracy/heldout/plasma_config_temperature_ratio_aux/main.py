"""Ion-acoustic damping scan: run the same PIC model for several ion/electron temperature ratios."""

import jax
import jax.numpy as jnp

from config import make_config


def deposit(x, cfg):
    dx = cfg.grid[1] - cfg.grid[0]
    idx = jnp.floor(x / dx).astype(jnp.int32) % cfg.n_cells
    return jnp.zeros(cfg.n_cells).at[idx].add(1.0)


def electric_field(rho, cfg):
    k = 2 * jnp.pi * jnp.fft.rfftfreq(cfg.n_cells, d=cfg.grid[1] - cfg.grid[0])
    rho_k = jnp.fft.rfft(rho - rho.mean())
    e_k = jnp.where(k > 0, -1j * rho_k / jnp.where(k > 0, k, 1.0), 0.0)
    return jnp.fft.irfft(e_k, n=cfg.n_cells)


@jax.jit
def run_pic(cfg, electrons, ions):
    length = cfg.box_length
    vth_i = jnp.sqrt(cfg.temperature_ratio / cfg.mass_ratio)
    xi, vi = ions[0], ions[1] * vth_i

    def step(state, _):
        xe, ve, xi, vi = state
        rho = deposit(xi, cfg) - deposit(xe, cfg)
        efield = electric_field(rho, cfg)
        dx = cfg.grid[1] - cfg.grid[0]
        ve = ve - cfg.dt * efield[(xe / dx).astype(jnp.int32) % cfg.n_cells]
        vi = vi + cfg.dt * efield[(xi / dx).astype(jnp.int32) % cfg.n_cells] / cfg.mass_ratio
        xe, xi = (xe + cfg.dt * ve) % length, (xi + cfg.dt * vi) % length
        return (xe, ve, xi, vi), jnp.sum(efield**2)

    _, energy = jax.lax.scan(step, (electrons[0], electrons[1], xi, vi), None, length=cfg.n_steps)
    return energy


def load_particles(key, cfg, n=2048):
    ke, ki, kv, kw = jax.random.split(key, 4)
    length = cfg.box_length
    xe = jax.random.uniform(ke, (n,)) * length
    xi = jax.random.uniform(ki, (n,)) * length
    perturb = 0.05 * jnp.sin(2 * jnp.pi * xe / length)
    return jnp.stack([(xe + perturb) % length, jax.random.normal(kv, (n,))]), jnp.stack([xi, jax.random.normal(kw, (n,))])


if __name__ == "__main__":
    base = make_config()
    electrons, ions = load_particles(jax.random.PRNGKey(0), base)
    for ratio in (0.1, 0.3, 1.0):
        cfg = base.with_temperature_ratio(ratio)  # expect: RTL202
        energy = run_pic(cfg, electrons, ions)
        print(f"Ti/Te={ratio:.1f}  field energy start={float(energy[0]):.3f} end={float(energy[-1]):.3f}")
