"""Monthly rebalancing backtest: each month's weights come from that month's returns."""

import numpy as np
from calendar_data import business_days, daily_returns, month_bounds
from portfolio import min_variance_weights


class MonthlyBacktest:
    def __init__(self, returns, days, shrink=0.1):
        self.returns = returns
        self.months = month_bounds(days)
        self.shrink = shrink

    def window(self, start, end):
        return self.returns[start:end]  # expect: RTL101

    def run(self, n_months):
        pnl = []
        for (month, start, end), (_, nstart, nend) in zip(self.months[:n_months], self.months[1:]):
            weights = min_variance_weights(self.window(start, end), self.shrink)
            realised = self.returns[nstart:nend] @ np.asarray(weights)
            pnl.append((str(month), float(realised.sum())))
        return pnl


if __name__ == "__main__":
    days = business_days(2024)
    bt = MonthlyBacktest(daily_returns(len(days), n_assets=4), days)
    for month, ret in bt.run(n_months=4):
        print(month, round(ret, 4))
