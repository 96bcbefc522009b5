"""The serving pipeline: a request names a size and a quality level."""

from dataclasses import dataclass

import jax
from sampler import sample

QUALITY_STEPS = {"draft": 4, "normal": 8, "high": 12}


@dataclass
class Request:
    seed: int
    height: int = 8
    width: int = 8
    quality: str = "normal"


class Pipeline:
    def __init__(self, params):
        self.params = params

    def steps_for(self, request):
        return QUALITY_STEPS[request.quality]

    def __call__(self, request):
        key = jax.random.PRNGKey(request.seed)
        steps = self.steps_for(request)
        return sample(self.params, key, request.height, request.width, steps)  # expect: RTL201
