"""Primal heuristics: a fractional dive that projected-gradient solves each relaxation."""

import jax.numpy as jnp

from evaluator import NLPEvaluator


def solve_relaxation(evaluator, x0, lb, ub, steps=8, lr=0.05):
    x = x0
    for _ in range(steps):
        _, g = evaluator.evaluate(x)
        x = jnp.clip(x - lr * g, lb, ub)
    return x


def fractional_dive(model, x_start, max_depth=3):
    evaluator = NLPEvaluator(model)
    lb, ub = evaluator.variable_bounds()
    lb, ub = jnp.asarray(lb), jnp.asarray(ub)
    x = solve_relaxation(evaluator, x_start, lb, ub)
    for _ in range(max_depth):
        frac = jnp.abs(x - jnp.round(x))
        j = int(jnp.argmax(frac))
        if float(frac[j]) < 1e-3:
            break
        fixed = float(jnp.round(x[j]))
        lb = lb.at[j].set(fixed)
        ub = ub.at[j].set(fixed)
        x = solve_relaxation(evaluator, jnp.clip(x, lb, ub), lb, ub)
    value, _ = evaluator.evaluate(x)
    return x, float(value)
