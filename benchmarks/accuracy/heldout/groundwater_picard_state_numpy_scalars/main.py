"""Steady water table between a river (left) and a canal (right) under recharge."""

import numpy as np
import jax.numpy as jnp

from solver import PicardSolver, make_step

N_NODES = 21


def run_case(step, solver, left_head, right_head, max_iter=6):
    head = jnp.linspace(left_head, right_head, N_NODES, dtype=jnp.float32)
    state = solver.init_state()
    left = jnp.float32(left_head)
    right = jnp.float32(right_head)
    while int(state.iter_num) < max_iter:
        head, state = step(head, state, left, right)
        if float(state.error) < solver.tol:
            break
    return head, state


def main():
    solver = PicardSolver(conductivity=12.0, recharge=2e-3, dx=50.0)
    step = make_step(solver)
    for left_head, right_head in [(10.0, 8.0), (11.5, 7.5), (9.0, 9.0)]:
        head, state = run_case(step, solver, left_head, right_head)
        mound = float(head.max())
        print(
            f"river={left_head:4.1f} canal={right_head:4.1f}: "
            f"iters={int(state.iter_num)} err={float(state.error):.2e} mound={mound:.3f}"
        )
    print("nodes above river stage:", int(np.sum(np.asarray(head) > 9.0)))


if __name__ == "__main__":
    main()
