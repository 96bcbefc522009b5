"""Mark a small option book to market with a Monte Carlo pricer, plus a vega bump."""

from pricing import MCConfig, MonteCarloPricer

BOOK = [
    {"kind": "call", "strike": 95.0, "maturity": 0.25},
    {"kind": "put", "strike": 100.0, "maturity": 0.5},
    {"kind": "call", "strike": 110.0, "maturity": 1.0},
    {"kind": "put", "strike": 90.0, "maturity": 0.75},
]


def mark_book(pricer, spot, rate, vol, bump=0.01):
    rows = []
    for option in BOOK:
        value = float(pricer.price(option, spot, rate, vol))
        bumped = float(pricer.price(option, spot, rate, vol + bump))
        rows.append((option, value, (bumped - value) / bump))
    return rows


def main():
    pricer = MonteCarloPricer(MCConfig(n_paths=256, n_steps=16), seed=7)
    for option, value, vega in mark_book(pricer, spot=100.0, rate=0.03, vol=0.2):
        print(f"{option['kind']:>4s} K={option['strike']:6.1f} T={option['maturity']:.2f}: "
              f"{value:7.3f}  vega~{vega:7.2f}")


if __name__ == "__main__":
    main()
