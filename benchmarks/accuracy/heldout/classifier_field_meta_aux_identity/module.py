"""A small Module base class that registers every subclass as a pytree.

Fields listed in `static_fields` go to the treedef; all other attributes are leaves.
Per-field annotations (kind, trainable) are collected when the instance is built.
"""
import jax


class FieldInfo:
    def __init__(self, name, kind, trainable):
        self.name = name
        self.kind = kind
        self.trainable = trainable

    def __repr__(self):
        return f"FieldInfo({self.name!r}, {self.kind!r})"


class Module:
    static_fields = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls._flatten, cls._unflatten)

    def _annotate(self):
        """Record what each attribute is, after __init__ has set them."""
        names = tuple(sorted(vars(self)))
        self._field_info = tuple(  # expect: RTL204
            FieldInfo(n, "static" if n in self.static_fields else "param", n not in self.static_fields)
            for n in names if not n.startswith("_"))

    def _flatten(self):
        dynamic = [f.name for f in self._field_info if f.kind == "param"]
        static = tuple((f.name, getattr(self, f.name)) for f in self._field_info if f.kind == "static")
        children = [getattr(self, n) for n in dynamic]
        return children, (tuple(dynamic), static, self._field_info)

    @classmethod
    def _unflatten(cls, aux, children):
        dynamic, static, field_info = aux
        obj = object.__new__(cls)
        for n, v in zip(dynamic, children):
            setattr(obj, n, v)
        for n, v in static:
            setattr(obj, n, v)
        obj._field_info = field_info
        return obj
