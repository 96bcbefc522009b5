"""Evaluate one ego agent against a pool of held-out partners."""

import jax
from policies import init_mlp, make_partner_policy
from rollout import run_episodes


def load_partner_pool(key, n_partners):
    # several partners are checkpoints of the same policy; each gets its own params
    return [init_mlp(jax.random.fold_in(key, i % 2)) for i in range(n_partners)]


def heldout_eval(ego_params, partner_pool, key):
    scores = []
    for i, partner_params in enumerate(partner_pool):
        policy = make_partner_policy(partner_params)
        scores.append(float(run_episodes(ego_params, jax.random.fold_in(key, i), partner_policy=policy)))  # expect: RTL204
    return scores


if __name__ == "__main__":
    ego = init_mlp(jax.random.PRNGKey(7))
    pool = load_partner_pool(jax.random.PRNGKey(1), n_partners=4)
    print([round(s, 3) for s in heldout_eval(ego, pool, jax.random.PRNGKey(2))])
