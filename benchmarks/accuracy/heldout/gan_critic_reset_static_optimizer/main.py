"""A WGAN-style loop that deliberately re-initialises the critic (and its optimizer) every epoch."""

import jax
import jax.numpy as jnp
from models import Critic, adam, mlp_init
from train import generator_step, train_critic_epoch


class GANTrainer:
    def __init__(self, key, latent=3, batch=16, batches_per_epoch=4):
        self.gen_params = mlp_init(key, [latent, 16, 2])
        self.latent, self.batch, self.batches_per_epoch = latent, batch, batches_per_epoch

    def reset_critic(self, key):
        self.critic = Critic(hidden=16, opt=adam(1e-3))
        self.critic_params, self.critic_state = self.critic.init(key)

    def run_epoch(self, key):
        k_critic, k_real, k_noise, k_gen = jax.random.split(key, 4)
        self.reset_critic(k_critic)
        shape = (self.batches_per_epoch, self.batch)
        real = jax.random.normal(k_real, shape + (2,)) * 0.5 + jnp.array([2.0, -1.0])
        noise = jax.random.normal(k_noise, shape + (self.latent,))
        out = train_critic_epoch(self.gen_params, self.critic_params, self.critic_state, real, noise, critic=self.critic)  # expect: RTL204
        self.critic_params, self.critic_state, critic_loss = out
        z = jax.random.normal(k_gen, (self.batch, self.latent))
        self.gen_params, gen_loss = generator_step(self.gen_params, self.critic_params, z, 1e-2)
        return float(critic_loss), float(gen_loss)


if __name__ == "__main__":
    trainer = GANTrainer(jax.random.PRNGKey(0))
    for epoch in range(3):
        print(epoch, trainer.run_epoch(jax.random.PRNGKey(epoch + 1)))
