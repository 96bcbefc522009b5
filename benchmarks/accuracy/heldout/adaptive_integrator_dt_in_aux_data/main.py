"""Lotka-Volterra population model integrated with an adaptive Heun/Euler pair."""
import jax
import jax.numpy as jnp

from state import SolverState

ALPHA, BETA, DELTA, GAMMA = 1.1, 0.4, 0.1, 0.4


def vector_field(y):
    prey, pred = y[0], y[1]
    return jnp.stack([ALPHA * prey - BETA * prey * pred,
                      DELTA * prey * pred - GAMMA * pred])


@jax.jit
def heun_step(state):
    dt = state.dt
    k1 = vector_field(state.y)
    k2 = vector_field(state.y + dt * k1)
    y_new = state.y + 0.5 * dt * (k1 + k2)
    err = jnp.max(jnp.abs(0.5 * dt * (k2 - k1)) / (state.rtol * (1.0 + jnp.abs(y_new))))
    return y_new, state.t + dt, err


def propose_dt(dt, err, safety=0.9):
    factor = safety * float(err) ** -0.5 if err > 0 else 2.0
    return dt * min(2.0, max(0.2, factor))


class PopulationSimulator:
    def __init__(self, y0, dt0=0.1):
        self.state = SolverState(jnp.asarray(y0), jnp.asarray(0.0), dt0)
        self.history = [self.state.y]

    def advance(self):
        y_new, t_new, err = heun_step(self.state)
        new_dt = propose_dt(self.state.dt, err)  # expect: RTL202
        if err <= 1.0:
            self.history.append(y_new)
            self.state = self.state.with_step(y_new, t_new, new_dt)
        else:
            self.state = self.state.with_step(self.state.y, self.state.t, new_dt)

    def run(self, n_steps):
        for _ in range(n_steps):
            self.advance()
        return jnp.stack(self.history)


if __name__ == "__main__":
    sim = PopulationSimulator([10.0, 5.0])
    traj = sim.run(4)
    print("t =", float(sim.state.t), "final populations", traj[-1])
