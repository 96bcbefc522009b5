"""Solve a small life-cycle consumption-savings model by backward induction."""

from bellman import BackwardInduction
from household import Household


def main():
    household = Household()
    value = BackwardInduction(household).solve()
    print("value at the lowest and highest assets:", value[0].tolist(), value[-1].tolist())


if __name__ == "__main__":
    main()
