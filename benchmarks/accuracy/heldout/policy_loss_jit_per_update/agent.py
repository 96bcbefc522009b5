"""A linear softmax policy trained with REINFORCE."""

import jax
import jax.numpy as jnp


def init_policy(key, obs_dim, num_actions):
    return {"w": 0.01 * jax.random.normal(key, (obs_dim, num_actions)), "b": jnp.zeros(num_actions)}


def log_probs(params, obs):
    return jax.nn.log_softmax(obs @ params["w"] + params["b"])


class PolicyGradientAgent:
    def __init__(self, key, obs_dim, num_actions, learning_rate=0.05):
        self.params = init_policy(key, obs_dim, num_actions)
        self.learning_rate = learning_rate

    def act(self, key, obs):
        return jax.random.categorical(key, log_probs(self.params, obs))

    def update(self, observations, actions, returns):
        @jax.jit  # expect: RTL301
        def loss_and_grads(params, obs, acts, advantages):
            def loss(p):
                chosen = jnp.take_along_axis(log_probs(p, obs), acts[:, None], axis=1)[:, 0]
                return -jnp.mean(chosen * advantages)

            return jax.value_and_grad(loss)(params)

        advantages = returns - returns.mean()
        loss, grads = loss_and_grads(self.params, observations, actions, advantages)
        self.params = jax.tree_util.tree_map(lambda p, g: p - self.learning_rate * g, self.params, grads)
        return loss
