"""Fold a small batch of short chains; each is padded to its token bucket first."""

import jax
import jax.numpy as jnp
from featurize import ALPHABET, featurize
from trunk import trunk

CHAINS = {
    "peptide_a": "MKTAYIAKQRQISFVKSHFSRQ",
    "peptide_b": "GSHMSLFDFFKNKGSAAATPSGLVAQWLGSKL",
    "peptide_c": "MADEEKLPPGWEKRMSRSSGRVYYFNHITNASQWERPSGNSSSG",
    "peptide_d": "MSEQNNTEMTFQIQRIYTKDISFEAPNAPHVFQKDW",
}

if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {"embed": 0.1 * jax.random.normal(k1, (len(ALPHABET), 16)), "proj": 0.01 * jax.random.normal(k2, (64, 64))}
    for name, sequence in CHAINS.items():
        one_hot, mask = featurize(sequence)
        score = trunk(params, jnp.asarray(one_hot), jnp.asarray(mask))
        print(name, len(sequence), one_hot.shape[0], round(float(score), 4))
