"""Integrate a decay model, then swap in an oscillator on the same stepper."""

import jax.numpy as jnp
from models import decay, oscillator
from stepper import Stepper

if __name__ == "__main__":
    stepper = Stepper(dt=0.1)
    stepper.set_rhs(decay)
    y = jnp.array([1.0, 0.0])
    for _ in range(3):
        y = stepper.advance(y)
    print("decay", y)
    stepper.set_rhs(oscillator)
    for _ in range(3):
        y = stepper.advance(y)
    print("after swap (still the decay trace)", y)
