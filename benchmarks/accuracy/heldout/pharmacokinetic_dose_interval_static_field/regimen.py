"""Dosing regimens read from the ward's prescription records."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Regimen:
    dose_mg: jax.Array
    clearance_l_h: jax.Array
    volume_l: jax.Array
    interval_h: float = jax.tree.static()  # expect: RTL202


PRESCRIPTIONS = [
    {"patient": "A-104", "dose": 500.0, "every": "q8h", "cl": 5.1, "v": 38.0},
    {"patient": "A-117", "dose": 750.0, "every": "q12h", "cl": 4.2, "v": 45.0},
    {"patient": "B-020", "dose": 1000.0, "every": "q12h", "cl": 6.3, "v": 52.0},
    {"patient": "B-031", "dose": 250.0, "every": "q6h", "cl": 3.8, "v": 30.0},
]


def parse_interval(code):
    return float(code.lstrip("q").rstrip("h"))


def regimen_from_record(rec):
    return Regimen(
        dose_mg=jnp.float32(rec["dose"]),
        clearance_l_h=jnp.float32(rec["cl"]),
        volume_l=jnp.float32(rec["v"]),
        interval_h=parse_interval(rec["every"]),  # expect: RTL202
    )
