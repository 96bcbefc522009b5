"""Boundary optimization with a penalty continuation on the aspect-ratio weight."""

import jax
import jax.numpy as jnp

from objectives import AspectRatio, ElongationSmoothness


class GradientOptimizer:
    def __init__(self, objectives, step_size=1e-3):
        self.objectives = objectives
        self.step_size = step_size

    def set_weight(self, name, weight):
        self.objectives = [
            obj.replace(weight=weight) if obj.name == name else obj  # expect: RTL202
            for obj in self.objectives
        ]

    def cost(self, coeffs):
        return sum(0.5 * jnp.sum(obj.compute_scaled(coeffs) ** 2) for obj in self.objectives)

    def run(self, coeffs, maxiter=3):
        grad_fn = jax.grad(self.cost)
        for _ in range(maxiter):
            coeffs = coeffs - self.step_size * grad_fn(coeffs)
        return coeffs


def continuation(coeffs, optimizer, weights):
    history = []
    for w in weights:
        optimizer.set_weight("aspect", w)
        coeffs = optimizer.run(coeffs)
        history.append(float(optimizer.cost(coeffs)))
    return coeffs, history


def main():
    # R = 10 + cos(theta), Z = 1.2 sin(theta): a slightly elongated torus section
    coeffs = jnp.array([10.0, 1.0, 0.05, 0.0, 0.0, 1.2, 0.05, 0.0])
    aspect = AspectRatio(target=8.0, weight=1.0, name="aspect")
    smooth = ElongationSmoothness(target=0.0, weight=0.1, name="smoothness")
    optimizer = GradientOptimizer([aspect, smooth])
    weights = [1.0 * 2.0 ** k for k in range(4)]
    coeffs, history = continuation(coeffs, optimizer, weights)
    for w, c in zip(weights, history):
        print(f"aspect weight {w:5.1f}: cost {c:.4f}")
    print("final aspect ratio", float(aspect.compute(coeffs)[0]))


if __name__ == "__main__":
    main()
