"""Compartment models of drug disposition, registered by name."""
import jax.numpy as jnp


def one_compartment(state, params):
    (central,) = state
    return jnp.stack([-params["ke"] * central])


def two_compartment(state, params):
    central, peripheral = state
    k12, k21, ke = params["k12"], params["k21"], params["ke"]
    d_central = -(k12 + ke) * central + k21 * peripheral
    d_peripheral = k12 * central - k21 * peripheral
    return jnp.stack([d_central, d_peripheral])


MODELS = {"one_compartment": one_compartment, "two_compartment": two_compartment}


class VectorField:
    """Wraps a right-hand side so it can be handed to jit as a static argument.

    Two wrappers of the same model compare and hash equal, so jit's cache sees
    the same key no matter how many wrappers are made.
    """

    def __init__(self, fun):
        self.fun = fun

    def __call__(self, state, params):
        return self.fun(state, params)

    def __hash__(self):
        return hash(self.fun)

    def __eq__(self, other):
        return isinstance(other, VectorField) and self.fun is other.fun
