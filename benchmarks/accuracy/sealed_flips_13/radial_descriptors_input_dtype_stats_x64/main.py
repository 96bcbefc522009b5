"""Collect descriptor statistics over a float32 molecular-dynamics trajectory (x64 is on for energies)."""

import jax

jax.config.update("jax_enable_x64", True)

import numpy as np  # noqa: E402

from descriptors import RadialSpectrum  # noqa: E402
from normalizer import RunningStandardizer  # noqa: E402


def trajectory(n_frames=6, n_atoms=10, seed=0):
    rng = np.random.default_rng(seed)
    frame = rng.uniform(0.0, 5.0, (n_atoms, 3)).astype(np.float32)
    for _ in range(n_frames):
        frame = frame + rng.normal(0.0, 0.05, frame.shape).astype(np.float32)
        yield frame


def main():
    calculator = RadialSpectrum()
    standardizer = RunningStandardizer(n_features=8)
    for positions in trajectory():
        standardizer.update(calculator.compute(positions))
    print(f"mean variance {float(standardizer.variance().mean()):.4f} ({standardizer.stats['mean'].dtype})")


if __name__ == "__main__":
    main()
