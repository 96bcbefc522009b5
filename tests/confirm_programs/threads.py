"""Threads: no_tracing is thread-local. One thread re-traces `grow` while others make first calls
(which trace) and steady calls; only `grow` may be confirmed, and nothing may raise."""

import threading

import jax
import jax.numpy as jnp


@jax.jit
def grow(x):  # site: grow
    return x * 2


@jax.jit
def steady(x):  # site: steady
    return x - 1


def grower(errors):
    try:
        for n in range(1, 8):
            grow(jnp.ones(n))  # finding: RTL102 site=grow param=x expect=confirmed
    except Exception as exc:  # pragma: no cover - reported by the test through the exit code
        errors.append(exc)


def stayer(errors, k):
    try:
        x = jnp.ones(4)
        for i in range(40):
            steady(x)  # finding: RTL101 site=steady param=x expect=not re-traced
            if i % 10 == 0:  # tracing in this thread while another one probes
                fresh = jax.jit(lambda v, k=k: v + k)  # not flagged, so not guarded
                fresh(jnp.ones(k + i))
    except Exception as exc:  # pragma: no cover
        errors.append(exc)


def main():
    errors = []
    threads = [threading.Thread(target=grower, args=(errors,))]
    threads += [threading.Thread(target=stayer, args=(errors, k)) for k in (5, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(f"threads failed: {errors!r}")
    print("threads done")


if __name__ == "__main__":
    main()
