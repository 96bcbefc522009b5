"""Time-dependent single-qubit drive Hamiltonians for pulse-level simulation."""

import functools

import jax.numpy as jnp

SIGMA_X = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
SIGMA_Y = jnp.array([[0.0, -1.0j], [1.0j, 0.0]], dtype=jnp.complex64)
SIGMA_Z = jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)


def gaussian_envelope(params, t, t_center, width):
    """In-phase drive: a Gaussian of amplitude params[0] (rad/ns)."""
    return params[0] * jnp.exp(-0.5 * ((t - t_center) / width) ** 2)


def drag_envelope(params, t, t_center, width):
    """Quadrature DRAG correction: -beta * d/dt of the Gaussian, beta = params[1]."""
    gauss = gaussian_envelope(params, t, t_center, width)
    return -params[1] * (t - t_center) / width**2 * gauss


def _hamiltonian_at(params, t, *, terms, detuning):
    h = 0.5 * detuning * SIGMA_Z
    for coeff_fn, op in terms:
        h = h + 0.5 * coeff_fn(params, t) * op
    return h


class DriveHamiltonian:
    """H(p, t) = delta/2 Z + Omega_x(p, t)/2 X + Omega_y(p, t)/2 Y for one transmon."""

    def __init__(self, duration, width, detuning=0.0):
        self.duration = duration
        self.width = width
        self.detuning = detuning

    def terms(self):
        centre = 0.5 * self.duration
        x_coeff = functools.partial(gaussian_envelope, t_center=centre, width=self.width)
        y_coeff = functools.partial(drag_envelope, t_center=centre, width=self.width)
        return ((x_coeff, SIGMA_X), (y_coeff, SIGMA_Y))

    def generator(self):
        """The Hamiltonian as one callable H(params, t), for the propagator."""
        return functools.partial(_hamiltonian_at, terms=self.terms(), detuning=self.detuning)  # expect: RTL204
