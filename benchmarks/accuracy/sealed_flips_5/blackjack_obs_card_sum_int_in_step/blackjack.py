"""Blackjack as a JAX environment: observation = (player sum, dealer's up card, usable ace), float32 per its space."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

MAX_CARDS = 8
CARD_VALUES = jnp.array([11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], jnp.int32)  # ace first


class EnvState(NamedTuple):
    cards: jax.Array  # card indices, -1 where no card yet
    dealer_card: jax.Array
    key: jax.Array


class Observation(NamedTuple):
    player_sum: jax.Array
    dealer_card: jax.Array
    usable_ace: jax.Array


def card_value_sum(cards):
    values = jnp.where(cards >= 0, CARD_VALUES[jnp.maximum(cards, 0)], 0)
    total = jnp.sum(values)
    n_aces = jnp.sum(cards == 0)
    return jnp.where((total > 21) & (n_aces > 0), total - 10, total), (n_aces > 0) & (total <= 21)


def _get_observation(state):
    total, soft = card_value_sum(state.cards)
    return Observation(
        player_sum=jnp.array([total]),  # expect: RTL402
        dealer_card=CARD_VALUES[state.dealer_card][None].astype(jnp.float32),
        usable_ace=soft[None].astype(jnp.float32),
    )


def reset(key):
    key, k1, k2 = jax.random.split(key, 3)
    first = jax.random.randint(k1, (2,), 0, 13)
    cards = jnp.full(MAX_CARDS, -1, jnp.int32).at[:2].set(first)
    state = EnvState(cards, jax.random.randint(k2, (), 0, 13), key)
    total, soft = card_value_sum(cards)
    obs = Observation(
        player_sum=jnp.array([total], dtype=jnp.float32),  # expect: RTL402
        dealer_card=CARD_VALUES[state.dealer_card][None].astype(jnp.float32),
        usable_ace=soft[None].astype(jnp.float32),
    )
    return state, obs


@jax.jit
def step(state, hit):
    key, draw_key = jax.random.split(state.key)
    n_cards = jnp.sum(state.cards >= 0)
    card = jax.random.randint(draw_key, (), 0, 13)
    cards = jnp.where(hit, state.cards.at[n_cards].set(card), state.cards)
    state = EnvState(cards, state.dealer_card, key)
    total, _ = card_value_sum(cards)
    done = (total > 21) | ~hit
    return state, _get_observation(state), done
