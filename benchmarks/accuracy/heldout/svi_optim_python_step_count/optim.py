"""A minimal Adam whose state carries the iteration count next to the moments."""

import jax
import jax.numpy as jnp

_MAX_COUNT = jnp.int32(2**31 - 1)


class Adam:
    def __init__(self, step_size, b1=0.9, b2=0.999, eps=1e-8):
        self.step_size, self.b1, self.b2, self.eps = step_size, b1, b2, eps

    def init(self, params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return 0, (params, zeros, zeros)  # expect: RTL401

    def update(self, grads, state):
        i, (params, m, v) = state
        m = jax.tree.map(lambda m_, g: self.b1 * m_ + (1 - self.b1) * g, m, grads)
        v = jax.tree.map(lambda v_, g: self.b2 * v_ + (1 - self.b2) * g * g, v, grads)
        t = i + 1
        m_hat = jax.tree.map(lambda m_: m_ / (1 - self.b1**t), m)
        v_hat = jax.tree.map(lambda v_: v_ / (1 - self.b2**t), v)
        params = jax.tree.map(
            lambda p, mh, vh: p - self.step_size * mh / (jnp.sqrt(vh) + self.eps), params, m_hat, v_hat
        )
        # saturate rather than wrap around on very long runs
        return jnp.where(i < _MAX_COUNT, t, _MAX_COUNT), (params, m, v)

    def get_params(self, state):
        return state[1][0]
