"""Players of a league and the games they played in each rating period."""

import jax.numpy as jnp
from glicko import update_player


class Player:
    def __init__(self, name, rating=1500.0, rd=350.0):
        self.name = name
        self.rating = jnp.float32(rating)
        self.rd = jnp.float32(rd)


class RatingPeriod:
    def __init__(self, games):
        self.games = games  # (winner, loser) pairs

    def games_of(self, name):
        return [game for game in self.games if name in game]  # expect: RTL104

    def results_of(self, player, players):
        opponents, scores = [], []
        for winner, loser in self.games_of(player.name):
            opponents.append(players[loser] if winner == player.name else players[winner])
            scores.append(1.0 if winner == player.name else 0.0)
        return opponents, scores


def opponent_arrays(opponents, scores):
    ratings = jnp.stack([p.rating for p in opponents])  # expect: RTL105
    rds = jnp.stack([p.rd for p in opponents])  # expect: RTL105
    return ratings, rds, jnp.asarray(scores, dtype=jnp.float32)  # expect: RTL105


def rate_period(period, players):
    updates = {}
    for player in players.values():
        opponents, scores = period.results_of(player, players)
        if not opponents:
            continue
        updates[player.name] = update_player(player.rating, player.rd, *opponent_arrays(opponents, scores))
    for name, (rating, rd) in updates.items():
        players[name].rating, players[name].rd = rating, rd
