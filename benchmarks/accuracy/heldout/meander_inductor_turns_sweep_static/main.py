"""Pick the number of meander turns that puts a lumped-element resonator on its target frequency."""

from dataclasses import dataclass

import jax.numpy as jnp

from inductor import meander_inductance


@dataclass(frozen=True)
class MeanderLayout:
    turn_length: float = 200.0     # um
    wire_width: float = 2.0        # um
    wire_gap: float = 2.0          # um
    thickness: float = 0.2         # um
    sheet_inductance: float = 1e-12  # H / square (thin NbTiN)


class ResonatorDesigner:
    def __init__(self, layout, capacitance_ff, target_ghz):
        self.layout = layout
        self.capacitance = capacitance_ff * 1e-15
        self.target = target_ghz

    def inductance(self, n_turns):
        lay = self.layout
        return meander_inductance(  # expect: RTL201
            jnp.float32(lay.turn_length), jnp.float32(lay.wire_width), jnp.float32(lay.wire_gap),
            jnp.float32(lay.sheet_inductance), jnp.float32(lay.thickness), n_turns=n_turns,
        )

    def frequency_ghz(self, n_turns):
        lind = self.inductance(n_turns)
        return 1.0 / (2 * jnp.pi * jnp.sqrt(lind * self.capacitance)) / 1e9

    def sweep(self, turn_counts):
        table = []
        for n in turn_counts:
            f = float(self.frequency_ghz(n))  # expect: RTL201
            table.append((n, f))
        return table

    def best(self, turn_counts):
        table = self.sweep(turn_counts)
        return min(table, key=lambda row: abs(row[1] - self.target))


if __name__ == "__main__":
    designer = ResonatorDesigner(MeanderLayout(), capacitance_ff=400.0, target_ghz=6.0)
    n, f = designer.best(range(4, 9))
    print(f"{n} turns -> {f:.3f} GHz")
