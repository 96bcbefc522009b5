"""Execution records of a one-choice generative model: simulate it, or constrain its choice."""

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class ChoiceRecord(NamedTuple):
    mean: Any
    value: Any
    log_weight: Any


def normal_logpdf(x, mean):
    return -0.5 * (x - mean) ** 2 - 0.5 * jnp.log(2 * jnp.pi)


def simulate(key, mean):
    value = mean + jax.random.normal(key)
    return ChoiceRecord(mean, value, normal_logpdf(value, mean))


def constrain(record, value):
    value = jnp.asarray(value)  # expect: RTL401
    return record._replace(value=value, log_weight=normal_logpdf(value, record.mean))
