"""Sample clock of the acquisition card: time stamps of one chunk of samples."""

import jax.numpy as jnp
import numpy as np

SAMPLE_RATE = 2000.0  # Hz, from the card's datasheet
CHUNK = 256
SAMPLE_PERIOD = np.float32(1.0 / SAMPLE_RATE)  # what the card's driver reports


def first_chunk_times():
    return jnp.arange(CHUNK) / SAMPLE_RATE  # expect: RTL401


def chunk_duration():
    return CHUNK * SAMPLE_PERIOD
