"""Run an LSTM over a stream of audio feature frames one frame at a time, as a streaming detector would."""

import jax
import jax.numpy as jnp

from cell import LSTMCell, lstm_update

N_FEATURES, N_HIDDEN = 13, 32


@jax.jit
def stream_step(weights, carry, frame):
    carry = lstm_update(weights, carry, frame)
    score = jnp.tanh(carry.h).mean()
    return carry, score


def main(n_frames=40, seed=0):
    key_cell, key_audio = jax.random.split(jax.random.PRNGKey(seed))
    cell = LSTMCell(key_cell, N_FEATURES, N_HIDDEN)
    frames = jax.random.normal(key_audio, (n_frames, N_FEATURES))
    carry = cell.initial_carry
    detections = 0
    for frame in frames:
        carry, score = stream_step(cell.weights(), carry, frame)
        detections += int(score > 0.05)
    print(f"{detections} frames above threshold, final |h| {float(jnp.linalg.norm(carry.h)):.3f}")


if __name__ == "__main__":
    main()
