"""Fit one latent dynamics model across sessions that recorded different numbers of neurons."""

import jax
import jax.numpy as jnp

from model import init_common, init_session, session_update
from sessions import load_sessions


class MultiSessionFitter:
    def __init__(self, sessions, seed=0):
        key = jax.random.PRNGKey(seed)
        key, sub = jax.random.split(key)
        self.sessions = sessions
        self.common = init_common(sub)
        keys = jax.random.split(key, len(sessions))
        self.per_session = {s.name: init_session(k, s.n_neurons) for s, k in zip(sessions, keys)}

    def fit_epoch(self):
        losses = []
        for sess in self.sessions:
            params = self.per_session[sess.name]
            self.common, params, loss = session_update(self.common, params, jnp.asarray(sess.spikes))
            self.per_session[sess.name] = params
            losses.append(float(loss))
        return losses


def main():
    fitter = MultiSessionFitter(load_sessions())
    for epoch in range(3):
        losses = fitter.fit_epoch()
        print(epoch, [round(l, 3) for l in losses])


if __name__ == "__main__":
    main()
