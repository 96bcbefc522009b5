"""Drive a cart to a set point, tightening the MPC time step once it moves."""
import jax
import jax.numpy as jnp

from controller import CartMPC

DEAD_BAND = 0.02


def simulate(mpc, target, n_ticks=5, seed=0):
    key = jax.random.PRNGKey(seed)
    pos, vel = jnp.float32(0.0), jnp.float32(0.0)
    log = []
    for tick in range(n_ticks):
        key, sub = jax.random.split(key)
        controls = mpc.plan((pos, vel), target, sub)  # expect: RTL201
        u = controls[0]
        vel = vel + 0.1 * (u - 0.1 * vel)
        pos = pos + 0.1 * vel
        log.append(float(pos))
        if abs(float(pos)) > DEAD_BAND:
            mpc = mpc.refined()
    return log, mpc


def main():
    mpc = CartMPC(horizon=12, dt=0.1)
    log, mpc = simulate(mpc, jnp.float32(1.0))
    print("positions", [round(p, 3) for p in log], "final dt", mpc.dt)


if __name__ == "__main__":
    main()
