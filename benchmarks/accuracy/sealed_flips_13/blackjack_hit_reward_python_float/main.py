"""Learn to play blackjack with SARSA over a handful of hands."""

from blackjack import BlackjackEnv
from learner import SarsaLearner


def play_hand(env, learner):
    obs = env.reset()
    action = learner.policy(obs)
    while True:
        next_obs, reward, done, _ = env.step(action)
        next_action = learner.policy(next_obs)
        learner.observe(obs, action, reward, next_obs, next_action, done)
        if done:
            return reward
        obs, action = next_obs, next_action


def main():
    env = BlackjackEnv(seed=7)
    learner = SarsaLearner()
    results = [play_hand(env, learner) for _ in range(12)]
    print(f"won {sum(r > 0 for r in results)} of {len(results)} hands")


if __name__ == "__main__":
    main()
