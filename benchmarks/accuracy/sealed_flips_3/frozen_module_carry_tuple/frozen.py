"""An immutable-attribute base class: lists and tuples assigned to a module are frozen into tuples."""

from types import MappingProxyType


def freeze(value):
    if isinstance(value, dict):
        return MappingProxyType({key: freeze(v) for key, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)  # expect: RTL403
    return value


class FrozenModule:
    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__}.{name} is frozen")
        object.__setattr__(self, name, freeze(value))
