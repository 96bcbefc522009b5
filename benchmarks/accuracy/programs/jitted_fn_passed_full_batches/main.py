"""Grade a recording with a pluggable metric, full segments only."""

import numpy as np
from grading import grade_segments
from metrics import histogram_l2


def report(recording, reference, width=16):
    return grade_segments(metric=histogram_l2, recording=recording, reference=reference, width=width)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    print(report(rng.random(40).astype(np.float32), np.ones(40, np.float32)))
