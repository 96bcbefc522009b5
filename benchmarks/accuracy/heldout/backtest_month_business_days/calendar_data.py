"""Synthetic daily returns on the business days of a year, and their month boundaries."""

import numpy as np


def business_days(year):
    days = np.arange(f"{year}-01-01", f"{year + 1}-01-01", dtype="datetime64[D]")
    return days[np.is_busday(days)]


def month_bounds(days):
    months = days.astype("datetime64[M]")
    starts = np.flatnonzero(np.r_[True, months[1:] != months[:-1]])
    ends = np.r_[starts[1:], len(days)]
    return list(zip(months[starts], starts, ends))


def daily_returns(n_days, n_assets, seed=0):
    rng = np.random.default_rng(seed)
    vol = np.linspace(0.01, 0.03, n_assets)
    return (rng.standard_normal((n_days, n_assets)) * vol).astype(np.float32)
