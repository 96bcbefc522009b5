"""Rate a small chess club over a few rating periods."""

from league import Player, RatingPeriod, rate_period

SCHEDULE = [
    [("ana", "ben"), ("ana", "cleo"), ("dev", "ben")],
    [("cleo", "ana"), ("ben", "dev"), ("cleo", "dev"), ("ana", "dev")],
    [("dev", "ana"), ("ben", "cleo")],
]

if __name__ == "__main__":
    players = {name: Player(name) for name in ("ana", "ben", "cleo", "dev")}
    for games in SCHEDULE:
        rate_period(RatingPeriod(games), players)
    for player in players.values():
        print(player.name, float(player.rating), float(player.rd))
