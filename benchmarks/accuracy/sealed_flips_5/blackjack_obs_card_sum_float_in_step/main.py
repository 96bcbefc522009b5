"""Play hands of blackjack with the policy and report how often it busts."""

import jax

import agent
import blackjack


def play_hand(params, key):
    key, reset_key = jax.random.split(key)
    state, obs = blackjack.reset(reset_key)
    while True:
        key, act_key = jax.random.split(key)
        hit = agent.act(params, obs, act_key)
        state, obs, done = blackjack.step(state, hit)
        if bool(done) or int((state.cards >= 0).sum()) == blackjack.MAX_CARDS:
            return float(obs.player_sum[0])


def main(n_hands=20, seed=0):
    params = agent.init_params()
    totals = [play_hand(params, k) for k in jax.random.split(jax.random.PRNGKey(seed), n_hands)]
    print(f"busted {sum(t > 21 for t in totals)} of {n_hands}, mean total {sum(totals) / n_hands:.1f}")


if __name__ == "__main__":
    main()
