"""The trading book: share counts per ticker, rebalanced to an equal-weight top-k."""

from dataclasses import dataclass, field


@dataclass
class Book:
    cash: float
    shares: dict = field(default_factory=dict)

    def nav(self, prices):
        return self.cash + sum(q * prices[t] for t, q in self.shares.items())

    def rebalance(self, scores, prices, top_k):
        keep = sorted(scores, key=scores.get, reverse=True)[:top_k]
        for t in list(self.shares):
            if t not in keep:
                self.cash += self.shares.pop(t) * prices[t]
        target = self.nav(prices) / top_k
        for t in keep:
            held = self.shares.get(t, 0.0) * prices[t]
            trade = (target - held) / prices[t]
            self.shares[t] = self.shares.get(t, 0.0) + trade
            self.cash -= trade * prices[t]
        return keep

    def weights(self, prices):
        """Portfolio weights of the names currently held."""
        nav = self.nav(prices)
        return {t: q * prices[t] / nav for t, q in self.shares.items()}  # expect: RTL403
