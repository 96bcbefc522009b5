"""High-throughput screening: evaluate energies and max forces over a structure database."""

import jax.numpy as jnp

from calculator import PairCalculator
from dataset import make_demo_database


def screen(db, calc, fmax_limit=50.0):
    report = []
    for i in range(len(db)):
        structure = db.get(i)
        energy, forces = calc.calculate(structure)
        fmax = float(jnp.max(jnp.linalg.norm(forces, axis=1)))
        flagged = fmax > fmax_limit
        report.append((structure.name, len(structure.numbers), energy, fmax, flagged))
    return report


if __name__ == "__main__":
    db = make_demo_database()
    calc = PairCalculator(cutoff=5.0)
    for name, n, e, fmax, flagged in screen(db, calc):
        mark = " !" if flagged else ""
        print(f"{name:6s} n={n:2d}  E={e:10.4f}  fmax={fmax:9.3f}{mark}")
