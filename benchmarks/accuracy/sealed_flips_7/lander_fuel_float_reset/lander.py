"""A 1-D lunar lander written as a functional environment: a jitted reset and a jitted step."""

import dataclasses

import jax
import jax.numpy as jnp

GRAVITY = 1.62


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class LanderState:
    altitude: jax.Array
    velocity: jax.Array
    fuel: jax.Array
    time: jax.Array


@dataclasses.dataclass(frozen=True)
class LanderParams:
    initial_altitude: float = 100.0
    initial_fuel: int = 400
    burn_rate: float = 2.5
    max_thrust: float = 4.0
    dt: float = 0.1


def observe(state, params):
    return jnp.stack([state.altitude / params.initial_altitude, state.velocity / 10.0, state.fuel / params.initial_fuel])


@jax.jit
def reset(key):
    params = LanderParams()
    noise = jax.random.uniform(key, (), minval=-5.0, maxval=5.0)
    state = LanderState(
        altitude=params.initial_altitude + noise,
        velocity=jnp.zeros((), jnp.float32),
        fuel=jnp.full((), params.initial_fuel, dtype=jnp.float32),
        time=jnp.zeros((), jnp.int32),
    )
    return state, observe(state, params)


@jax.jit
def step(state, throttle):
    params = LanderParams()
    thrust = jnp.where(state.fuel > 0, jnp.clip(throttle, 0.0, 1.0) * params.max_thrust, 0.0)
    velocity = state.velocity + (thrust - GRAVITY) * params.dt
    altitude = jnp.maximum(state.altitude + velocity * params.dt, 0.0)
    fuel = jnp.maximum(state.fuel - params.burn_rate * thrust * params.dt, 0)
    new_state = LanderState(altitude, velocity, fuel, state.time + 1)
    landed = altitude <= 0.0
    reward = jnp.where(landed, -jnp.abs(velocity), 0.0) - 0.01
    return new_state, observe(new_state, params), reward, landed
