"""A tiny sequence classifier: project each frame, then summarise the sequence with an RNN."""

import jax

from layers import SimpleRNN, TimeDistributedDense


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    project = TimeDistributedDense(features=6, units=8, key=k1)
    summarise = SimpleRNN(features=8, units=4, key=k2)
    sequences = jax.random.normal(k3, (5, 3, 6))  # (time, batch, features)
    summary = summarise(project(sequences))
    print("summary:", summary.shape, [round(float(v), 3) for v in summary[0]])


if __name__ == "__main__":
    main()
