"""Sample occupations of a small chain in double precision and watch the hopping elements settle."""

import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

from hamiltonian import BoseHubbardChain, hop_elements  # noqa: E402


def main(samples=4):
    chain = BoseHubbardChain(sites=6, hopping=0.25)
    mels = jnp.zeros(chain.sites)  # expect: RTL402
    key = jax.random.PRNGKey(0)
    for _ in range(samples):
        key, sub = jax.random.split(key)
        mels, moved = hop_elements(chain.occupations(sub), mels, chain.hopping)
        print(float(moved))


if __name__ == "__main__":
    main()
