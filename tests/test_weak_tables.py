"""The weak-type tables say what jax does: measured here with ``jax.eval_shape``, no compilation."""

from __future__ import annotations

import importlib.util

import pytest

from retracelint.summarise.apis import _ARRAY_PRODUCTS, _KEEP_WEAK

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)


def _product(name: str, a: object, b: object) -> bool:
    """Whether ``jnp.<name>(a, b)`` is weakly typed (``einsum`` and ``tensordot`` as inner products)."""
    import jax
    import jax.numpy as jnp

    def run(x: object, y: object) -> object:
        if name == "einsum":
            return jnp.einsum("i,i->", x, y)
        if name == "tensordot":
            return jnp.tensordot(x, y, axes=1)
        return getattr(jnp, name)(x, y)

    return bool(jax.eval_shape(run, a, b).weak_type)


@pytest.mark.parametrize("name", sorted(_ARRAY_PRODUCTS))
def test_a_product_of_arrays_is_weak_only_of_weak_operands(name: str) -> None:
    import jax.numpy as jnp

    weak_vector = jnp.broadcast_to(jnp.asarray(2.0), (3,))
    strong = jnp.ones(3, dtype=jnp.float32)
    assert name in _KEEP_WEAK
    assert _product(name, weak_vector, weak_vector)
    assert not _product(name, weak_vector, strong)
    assert not _product(name, strong, weak_vector)


def test_full_is_as_weak_as_its_fill_value() -> None:
    """``jnp.full(shape, fill)`` takes its weak type from the fill alone (``_VALUE_OPERANDS``)."""
    import jax
    import jax.numpy as jnp

    from retracelint.summarise.apis import _VALUE_OPERANDS

    def full(fill: object) -> bool:
        return bool(jax.eval_shape(lambda f: jnp.full((3,), f), fill).weak_type)

    assert "full" in _KEEP_WEAK and _VALUE_OPERANDS["full"] == (1,)
    assert full(-1) and full(2.0)
    assert not full(jnp.int32(-1)) and not full(jnp.ones((), jnp.float32))
