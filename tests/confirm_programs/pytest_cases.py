"""A small test module for the pytest plugin tests (collected only when named explicitly).

`predict` is called with three shapes across parametrised tests, so it re-traces twice; `stable`
is called the same way everywhere, also from a thread, and must not be reported; `scaled` is jitted
anew by each test that uses it, which is one trace per test, not a re-trace."""

import threading

import jax
import jax.numpy as jnp
import pytest


@jax.jit
def predict(x):
    return x * 2


@jax.jit
def stable(x):
    return x + 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_predict_shapes(n):
    assert predict(jnp.ones(n)).shape == (n,)


@pytest.mark.parametrize("k", range(4))
def test_stable(k):
    x = jnp.ones(2)
    out = []
    worker = threading.Thread(target=lambda: out.append(stable(x)))
    worker.start()
    worker.join()
    assert float(stable(x)[0]) == float(out[0][0]) == 2.0


@pytest.mark.parametrize("k", [1.0, 2.0, 3.0])
def test_built_per_test(k):
    @jax.jit
    def scaled(x):
        return x * k

    assert float(scaled(jnp.ones(2))[0]) == k
