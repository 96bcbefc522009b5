"""Encode a short batch of feature sequences with a zoneout LSTM."""

import jax

from cells import ZoneoutLSTMCell
from encoder import StreamingEncoder


def main():
    k_cell, k_data, k_run = jax.random.split(jax.random.PRNGKey(0), 3)
    encoder = StreamingEncoder(ZoneoutLSTMCell(features=5, hidden=8, key=k_cell))
    frames = jax.random.normal(k_data, (6, 2, 5))
    outputs = encoder.encode(frames, k_run)
    print("encoded:", outputs.shape, float(outputs[-1].mean()))


if __name__ == "__main__":
    main()
