"""What a program can see of jax: the same objects, pickles and errors with and without
`retracelint confirm` (and its output, printed here, must be the same line for line)."""

import functools
import pickle
import traceback

import jax
import jax.numpy as jnp
from jax._src import api
from jax._src import config as jax_config
from jax._src import pmap as pmap_module


def shout(kind, call):
    try:
        call()
    except Exception as exc:  # the message and the frames JAX shows (filtered as usual)
        shown = f"{type(exc).__name__}: {exc}"
        frames = [f.name for f in traceback.extract_tb(exc.__traceback__)]
        print(kind, "raises", shown, "through", frames)
    else:
        print(kind, "does not raise")


def main():
    print("jax.jit is api.jit:", jax.jit is api.jit)
    print("jax.pmap is pmap:", jax.pmap is pmap_module.pmap)
    maker = functools.partial(jax.jit, static_argnums=1)
    print("partial(jax.jit) pickles:", pickle.loads(pickle.dumps(maker)).func is jax.jit)
    try:
        import cloudpickle
    except ImportError:
        print("cloudpickle: not installed")
    else:
        print("cloudpickle:", cloudpickle.loads(cloudpickle.dumps(maker)).func is jax.jit)
    shout("jax.jit(bogus=1)", lambda: jax.jit(bogus=1))
    shout("jax.jit(f, static_argnums='n')", lambda: jax.jit(abs, static_argnums="n"))
    shout("jax.pmap(f, devices=[])", lambda: jax.pmap(abs, devices=[]))
    power = maker(lambda x, n: x**n)  # site: power
    print("power:", power(jnp.arange(3.0), 2).tolist(), power(jnp.arange(3.0), 3).tolist())
    # A jit traced inside another, and a rematted one, under JAX's leak checker.
    with jax.checking_leaks():

        @jax.jit
        def outer(x):
            @jax.jit
            def inner(y):
                return y * 2

            return inner(x) + 1

        print("nested:", outer(jnp.arange(3)).tolist())
        with jax_config.remat3(True):
            print("remat3:", jax.jit(jax.remat(lambda x: x + 1))(jnp.arange(3)).tolist())
    print("jax_untouched done")


if __name__ == "__main__":
    main()
