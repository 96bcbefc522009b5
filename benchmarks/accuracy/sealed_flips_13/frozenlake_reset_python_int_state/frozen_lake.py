"""A small slippery frozen lake built on DiscreteEnv: S start, F frozen, H hole, G goal."""

from discrete_env import DiscreteEnv

LEFT, DOWN, RIGHT, UP = range(4)

MAP_4x4 = ["SFFF", "FHFH", "FFFH", "HFFG"]


def _move(row, col, action, size):
    if action == LEFT:
        col = max(col - 1, 0)
    elif action == DOWN:
        row = min(row + 1, size - 1)
    elif action == RIGHT:
        col = min(col + 1, size - 1)
    elif action == UP:
        row = max(row - 1, 0)
    return row, col


class FrozenLakeEnv(DiscreteEnv):
    def __init__(self, desc=MAP_4x4, is_slippery=True, seed=0):
        size = len(desc)
        num_states, num_actions = size * size, 4
        isd = [1.0 if desc[s // size][s % size] == "S" else 0.0 for s in range(num_states)]
        P = {s: {a: [] for a in range(num_actions)} for s in range(num_states)}
        for row in range(size):
            for col in range(size):
                s = row * size + col
                for a in range(num_actions):
                    letter = desc[row][col]
                    if letter in "GH":
                        P[s][a].append((1.0, s, 0.0, True))
                        continue
                    slips = [(a - 1) % 4, a, (a + 1) % 4] if is_slippery else [a]
                    for b in slips:
                        new_row, new_col = _move(row, col, b, size)
                        new_s = new_row * size + new_col
                        new_letter = desc[new_row][new_col]
                        reward = 1.0 if new_letter == "G" else 0.0
                        P[s][a].append((1.0 / len(slips), new_s, reward, new_letter in "GH"))
        super().__init__(num_states, num_actions, P, isd, seed)
