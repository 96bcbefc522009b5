"""An exact GP regression model with an RBF kernel."""

import jax.numpy as jnp


class GP:
    def __init__(self, likelihood, X, Y):
        self.X = jnp.asarray(X, jnp.float32)
        self.Y = jnp.asarray(Y, jnp.float32)
        self.likelihood = likelihood
        self.log_lengthscale = jnp.zeros((), jnp.float32)
        self.log_amplitude = jnp.zeros((), jnp.float32)

    def parameters(self):
        return {
            "likelihood": self.likelihood.parameters(),
            "log_lengthscale": self.log_lengthscale,
            "log_amplitude": self.log_amplitude,
        }

    def assign(self, values):
        self.likelihood.assign(values["likelihood"])
        self.log_lengthscale = values["log_lengthscale"]
        self.log_amplitude = values["log_amplitude"]


def neg_log_marginal_likelihood(params, X, Y):
    ls = jnp.exp(params["log_lengthscale"])
    amp = jnp.exp(params["log_amplitude"])
    d2 = (X[:, None] - X[None, :]) ** 2
    K = amp * jnp.exp(-0.5 * d2 / ls**2) + jnp.abs(params["likelihood"]["variance"]) * jnp.eye(X.shape[0])
    L = jnp.linalg.cholesky(K)
    alpha = jnp.linalg.solve(L.T, jnp.linalg.solve(L, Y))
    return 0.5 * Y @ alpha + jnp.sum(jnp.log(jnp.diag(L)))
