"""A small jit-compiled gradient-descent minimiser that takes the objective as an argument."""
import jax
import jax.numpy as jnp


@jax.jit
def minimize(objective, params0, learning_rate):
    grad_fn = jax.grad(objective)

    def body(_, p):
        return p - learning_rate * grad_fn(p)

    params = jax.lax.fori_loop(0, 200, body, params0)
    return params, objective(params)


def gaussian_line(params, wavelengths):
    amp, centre, log_width, continuum = params
    width = jnp.exp(log_width)
    return continuum + amp * jnp.exp(-0.5 * ((wavelengths - centre) / width) ** 2)


def chi_square(params, wavelengths, flux, ivar):
    resid = flux - gaussian_line(params, wavelengths)
    return jnp.sum(ivar * resid ** 2) / wavelengths.shape[0]
