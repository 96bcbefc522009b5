"""A minimal module system in the style of Equinox. Modules are immutable pytrees whose fields are
their annotations. A module's __init__ and __post_init__ run on an instance of a mutable
"initable" subclass (registered as a pytree of its own), which becomes the module's own class
once construction is finished."""

import functools
import inspect

import jax


def _field_names(cls):
    names = {}
    for klass in reversed(cls.__mro__):
        if klass is not object:
            names.update(inspect.get_annotations(klass))
    return tuple(names)


def _flatten(module):
    names = _field_names(type(module))
    return tuple(getattr(module, name) for name in names), names


def _unflatten(cls, names, children):
    module = object.__new__(cls)
    for name, value in zip(names, children):
        object.__setattr__(module, name, value)
    return module


@functools.cache
def _initable(cls):
    return type(cls)(f"Initable{cls.__name__}", (cls,), {"__setattr__": object.__setattr__})


class _ModuleMeta(type):
    def __call__(cls, *args, **kwargs):
        module = object.__new__(_initable(cls))
        cls.__init__(module, *args, **kwargs)
        post_init = getattr(module, "__post_init__", None)
        if post_init is not None:
            post_init()
        object.__setattr__(module, "__class__", cls)
        return module


class Module(metaclass=_ModuleMeta):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, _flatten, functools.partial(_unflatten, cls))

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable; use replace()")

    def replace(self, **changes):
        children, names = _flatten(self)
        values = dict(zip(names, children))
        values.update(changes)
        return _unflatten(type(self), names, tuple(values[name] for name in names))
