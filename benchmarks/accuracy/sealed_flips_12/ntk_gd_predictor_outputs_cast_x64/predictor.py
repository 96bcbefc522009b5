"""Function-space gradient descent under the empirical NTK: f <- f - lr * K (f - y) / n."""

import jax
import jax.numpy as jnp


def empirical_ntk(net, params, x):
    jac = jax.jacobian(lambda p: net.apply(p, x)[:, 0])(params)
    flat = jnp.concatenate([j.reshape(x.shape[0], -1) for j in jax.tree.leaves(jac)], axis=1)
    return (flat @ flat.T).astype(jnp.float64)


def _gd_step(kernel, fx, y, learning_rate):
    return fx - learning_rate * kernel @ (fx - y) / y.shape[0]


class GradientDescentPredictor:
    def __init__(self, net, params, x_train, y_train, learning_rate):
        self.net = net
        self.params = params
        self.x_train = x_train
        self.y_train = y_train
        self.learning_rate = learning_rate
        self.kernel = empirical_ntk(net, params, x_train)
        self._step = jax.jit(_gd_step)

    def initial_outputs(self):
        return self.net.apply(self.params, self.x_train).astype(self.kernel.dtype)

    def advance(self, fx, steps):
        for _ in range(steps):
            fx = self._step(self.kernel, fx, self.y_train, self.learning_rate)
        return fx
