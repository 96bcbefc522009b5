"""Calibrate the volatility to a quoted price by bisection, then re-check the fitted price more precisely."""

import jax

from pricing import mc_price

SPOT, STRIKE, QUOTE = 100.0, 105.0, 8.0


def calibrate(key, lo=0.05, hi=0.8, iters=12):
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        price, _ = mc_price(key, SPOT, STRIKE, mid)
        lo, hi = (mid, hi) if float(price) < QUOTE else (lo, mid)
    return 0.5 * (lo + hi)


def main():
    key = jax.random.PRNGKey(0)
    vol = calibrate(key)
    # Accumulate the final check in double precision.
    with jax.enable_x64():  # expect: RTL405
        price, stderr = mc_price(key, SPOT, STRIKE, vol)
        check = float(price)
    print(f"vol {vol:.4f}: price {check:.4f} +- {float(stderr):.4f} (quote {QUOTE})")


if __name__ == "__main__":
    main()
