"""A tabular environment in the style of gym's toy_text DiscreteEnv: a transition table P[s][a]."""

import numpy as np


def categorical_sample(probs, np_random):
    """Sample an index from a categorical distribution given by probs."""
    cumulative = np.cumsum(np.asarray(probs))
    return (cumulative > np_random.random()).argmax()


class DiscreteEnv:
    """P[s][a] is a list of (probability, next_state, reward, done) tuples; isd the initial distribution."""

    def __init__(self, num_states, num_actions, P, isd, seed=0):
        self.num_states = num_states
        self.num_actions = num_actions
        self.P = P
        self.isd = isd
        self.np_random = np.random.default_rng(seed)
        self.s = None

    def reset(self):
        self.s = int(categorical_sample(self.isd, self.np_random))
        return self.s

    def step(self, action):
        transitions = self.P[self.s][action]
        i = categorical_sample([t[0] for t in transitions], self.np_random)
        prob, s, reward, done = transitions[i]
        self.s = s
        return s, reward, done, {"prob": prob}
