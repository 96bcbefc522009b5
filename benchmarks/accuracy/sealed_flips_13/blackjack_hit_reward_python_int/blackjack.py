"""Simple blackjack in the style of gym's Blackjack-v0: draw with replacement, dealer sticks on 17."""

import numpy as np

DECK = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def cmp(a, b):
    return float(a > b) - float(a < b)


def usable_ace(hand):
    return 1 in hand and sum(hand) + 10 <= 21


def sum_hand(hand):
    return sum(hand) + 10 if usable_ace(hand) else sum(hand)


def is_bust(hand):
    return sum_hand(hand) > 21


def score(hand):
    return 0 if is_bust(hand) else sum_hand(hand)


class BlackjackEnv:
    """Actions: 0 stick, 1 hit. Observations: (player sum, dealer's showing card, usable ace)."""

    def __init__(self, seed=0):
        self.np_random = np.random.default_rng(seed)
        self.player = []
        self.dealer = []

    def draw_card(self):
        return int(self.np_random.choice(DECK))

    def draw_hand(self):
        return [self.draw_card(), self.draw_card()]

    def observation(self):
        return sum_hand(self.player), self.dealer[0], usable_ace(self.player)

    def reset(self):
        self.player = self.draw_hand()
        self.dealer = self.draw_hand()
        return self.observation()

    def step(self, action):
        if action:
            self.player.append(self.draw_card())
            if is_bust(self.player):
                done = True
                reward = -1  # expect: RTL402
            else:
                done = False
                reward = 0  # expect: RTL402
        else:
            done = True
            while sum_hand(self.dealer) < 17:
                self.dealer.append(self.draw_card())
            reward = cmp(score(self.player), score(self.dealer))
        return self.observation(), reward, done, {}
