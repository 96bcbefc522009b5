"""One epoch of critic training (a scan over batches) and one generator update."""

from functools import partial

import jax
import jax.numpy as jnp
from models import mlp_apply


@partial(jax.jit, static_argnames=("critic",))
def train_critic_epoch(gen_params, critic_params, critic_state, real, noise, critic):
    def critic_step(carry, batch):
        params, state = carry
        real_batch, z = batch
        fake = mlp_apply(gen_params, z)
        loss_fn = lambda p: jnp.mean(mlp_apply(p, fake)) - jnp.mean(mlp_apply(p, real_batch))
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, state = critic.opt.update(grads, state)
        params = jax.tree.map(jnp.add, params, updates)
        return (params, state), loss

    carry, losses = jax.lax.scan(critic_step, (critic_params, critic_state), (real, noise))
    critic_params, critic_state = carry
    return critic_params, critic_state, losses.mean()


@jax.jit
def generator_step(gen_params, critic_params, z, lr):
    loss, grads = jax.value_and_grad(lambda g: -jnp.mean(mlp_apply(critic_params, mlp_apply(g, z))))(gen_params)
    return jax.tree.map(lambda p, g: p - lr * g, gen_params, grads), loss
