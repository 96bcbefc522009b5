"""Least-squares fit of a single emission line (Lorentzian plus continuum)."""

import jax
import jax.numpy as jnp
from jax import lax


def lorentzian(params, wavelength):
    amplitude, center, width, continuum = params
    return amplitude * width**2 / ((wavelength - center) ** 2 + width**2) + continuum


def line_loss(params, wavelength, flux, ivar):
    resid = lorentzian(params, wavelength) - flux
    return 0.5 * jnp.sum(ivar * resid**2) / jnp.sum(ivar)


class LineFitter:
    """Gradient descent with momentum, stopped on a gradient tolerance, all inside lax.while_loop."""

    def __init__(self, learning_rate=0.05, momentum=0.9, max_iter=200, gtol=1e-6):
        self.learning_rate = learning_rate
        self.momentum = momentum
        self.max_iter = max_iter
        self.gtol = gtol
        self._value_and_grad = jax.value_and_grad(line_loss)

    def fit(self, wavelength, flux, ivar, init_params):
        lr, beta, max_iter, gtol = self.learning_rate, self.momentum, self.max_iter, self.gtol

        def continuing_criterion(carry):
            _, _, it, gnorm, _ = carry
            return (it < max_iter) & (gnorm > gtol)

        def step(carry):
            params, velocity, it, _, _ = carry
            loss, grad = self._value_and_grad(params, wavelength, flux, ivar)
            velocity = beta * velocity - lr * grad
            return params + velocity, velocity, it + 1, jnp.linalg.norm(grad), loss

        init_carry = (
            init_params,
            jnp.zeros_like(init_params),
            jnp.asarray(0, jnp.int32),
            jnp.asarray(jnp.inf, jnp.float32),
            jnp.asarray(jnp.inf, jnp.float32),
        )
        run = jax.jit(lambda carry: lax.while_loop(continuing_criterion, step, carry))  # expect: RTL301
        params, _, n_iter, gnorm, loss = run(init_carry)
        return params, int(n_iter), float(loss)
