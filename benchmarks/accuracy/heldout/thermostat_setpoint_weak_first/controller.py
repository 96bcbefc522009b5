"""One-step proportional heating controller for a single zone."""

import jax
import jax.numpy as jnp


@jax.jit
def control_step(temperature, setpoint, gains):
    error = setpoint - temperature
    heat = jnp.clip(gains[0] * error + gains[1], 0.0, 5.0)
    loss = gains[2] * (temperature - 8.0)  # heat lost to an 8 degree outside
    return temperature + 0.25 * (heat - loss), heat


class ZoneThermostat:
    def __init__(self, config):
        self.setpoint = config["setpoint"]
        self.temperature = jnp.float32(config["start"])
        self.gains = jnp.array(config["gains"], jnp.float32)
        self.energy = 0.0

    def follow(self, scheduled):
        """Take the building schedule's setpoint once it has published one."""
        if scheduled is not None:
            self.setpoint = scheduled

    def tick(self):
        self.temperature, heat = control_step(self.temperature, self.setpoint, self.gains)
        self.energy += float(heat)
        return float(self.temperature)
