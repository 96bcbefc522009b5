"""Month-end risk report for a momentum equity book.

Each month the book rotates into the top-3 names by 3-month momentum, then the
risk desk computes annualised volatility, 95% historical VaR and expected
shortfall of the new book over the trailing quarter of daily returns.
"""

import jax
import jax.numpy as jnp

from book import Book
from market import MarketData

LOOKBACK = 63
WINDOW = 63
TOP_K = 3
CONFIDENCE = 0.95


@jax.jit
def risk_report(weights, returns):
    """weights: {ticker: weight}; returns: {ticker: (WINDOW,) daily returns}."""
    pnl = sum(w * returns[t] for t, w in weights.items())
    losses = -pnl
    var = jnp.quantile(losses, CONFIDENCE)
    tail = losses >= var
    es = jnp.sum(jnp.where(tail, losses, 0.0)) / jnp.maximum(jnp.sum(tail), 1)
    return {
        "ann_vol": jnp.std(pnl) * jnp.sqrt(252.0),
        "var95": var,
        "es95": es,
        "mean_daily": jnp.mean(pnl),
    }


def month_ends(first, n_months, days_per_month=21):
    return [first + k * days_per_month for k in range(n_months)]


def run(n_months=5):
    market = MarketData(n_days=LOOKBACK + 21 * n_months + 1)
    book = Book(cash=1_000_000.0)
    history = []
    for day in month_ends(LOOKBACK, n_months):
        prices = market.close(day)
        held = book.rebalance(market.momentum(day, LOOKBACK), prices, TOP_K)
        report = risk_report(book.weights(prices), market.window(day, WINDOW))
        report = {k: float(v) for k, v in report.items()}
        history.append((day, held, report))
        print(f"day {day:3d}  {'/'.join(sorted(held)):15s}  vol {report['ann_vol']:.3f}  "
              f"VaR {report['var95']:.4f}  ES {report['es95']:.4f}")
    return history


if __name__ == "__main__":
    run()
