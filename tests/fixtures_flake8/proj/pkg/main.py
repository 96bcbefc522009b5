"""The driver: its loops make the values that vary."""

# The noqa comments below are for flake8 (RTL codes); ruff must leave them alone.
# ruff: noqa: RUF100, RUF102

import numpy as np

from pkg import kernels, pipeline


def main():
    données = np.ones(64)
    for n in range(8, 64, 8):
        pipeline.summarise(données[:n])  # expect: RTL101
        pipeline.prefix_total(données, n)
        pipeline.ramp(n)
    for depth in range(1, 4):
        pipeline.deepen(données, depth)  # expect: RTL201
    # Suppressed for flake8 as flake8 defines noqa; `--disable-noqa` shows both.
    for n in range(1, 4):
        kernels.total(données[:n])  # noqa  # without noqa: RTL101
    for n in range(2, 5):
        kernels.total(données[:n])  # noqa: RTL101  # without noqa: RTL101


if __name__ == "__main__":
    main()
