"""Run the rod to t = 5e-4 in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

from domain import Rod  # noqa: E402
from solver import run  # noqa: E402

if __name__ == "__main__":
    u, t = run(Rod(), steps=5)
    print(float(t), float(u.max()))
