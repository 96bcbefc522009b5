"""Scan the pressure of a toy equilibrium and follow the q = 2 and q = 3 surfaces."""

from dcon import StabilityScan
from equilibrium import Equilibrium


def main():
    scan = StabilityScan(Equilibrium())
    for scale, surfaces in scan.run([0.5, 1.0, 1.5, 2.0]):
        print(f"pressure x{scale}: rational surfaces at {surfaces}")


if __name__ == "__main__":
    main()
