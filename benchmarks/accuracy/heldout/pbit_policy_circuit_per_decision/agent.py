"""An agent whose action distribution is the marginal of a p-bit circuit."""

import jax.numpy as jnp
from circuit import Circuit, ring, sample_marginals


class CircuitAgent:
    def __init__(self, n_actions, thetas):
        self.n_actions = n_actions
        self.thetas = thetas

    def build_circuit(self):
        return Circuit(self.n_actions, ring(self.n_actions))  # expect: RTL204

    def decide(self, observation, key):
        circuit = self.build_circuit()  # expect: RTL204
        thetas = self.thetas.at[: self.n_actions].add(observation)
        probs = sample_marginals(thetas, key, circuit)  # expect: RTL204
        return int(jnp.argmax(probs)), probs
