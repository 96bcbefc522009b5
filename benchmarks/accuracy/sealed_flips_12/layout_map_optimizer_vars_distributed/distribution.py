"""Layout maps: which variable is split along which mesh axis."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P


class LayoutMap:
    def __init__(self, rules):
        self.rules = rules

    def spec_for(self, name):
        return P(*self.rules[name]) if name in self.rules else P()


class ModelParallel:
    def __init__(self, mesh, layout_map):
        self.mesh = mesh
        self.layout_map = layout_map

    def distribute(self, variables):
        return {
            name: jax.device_put(value, NamedSharding(self.mesh, self.layout_map.spec_for(name)))
            for name, value in variables.items()
        }
