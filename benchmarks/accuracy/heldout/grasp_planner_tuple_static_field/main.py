"""Refine a three-finger grasp on a sphere by nudging the contacts and re-scoring."""

import dataclasses

import numpy as np

from planner import grasp_quality, make_config

HAND = {"fingers": ["thumb", "index", "middle"], "friction": 0.5}


def sphere_contacts(azimuths, radius=0.04):
    az = np.asarray(azimuths)
    points = np.stack([radius * np.cos(az), radius * np.sin(az), np.zeros_like(az)], axis=1)
    return points, -points / radius


def refine(n_iters=5, step=0.15):
    azimuths = np.array([0.0, 1.7, 3.9])
    best = None
    for it in range(n_iters):
        points, normals = sphere_contacts(azimuths)
        # the hand description is re-read every cycle: a fresh list of names each time
        config = make_config(list(HAND["fingers"]), points, normals)
        quality = float(grasp_quality(config, HAND["friction"]))
        if best is None or quality > best[0]:
            best = (quality, azimuths.copy())
        # spread the fingers towards an even 120-degree grasp
        target = azimuths[0] + np.array([0.0, 2 * np.pi / 3, 4 * np.pi / 3])
        azimuths = azimuths + step * (target - azimuths)
        shifted = dataclasses.replace(config, contact_points=config.contact_points * 1.01)
        print(f"iter {it}: quality={quality:.4f} (scaled {float(grasp_quality(shifted, HAND['friction'])):.4f})")
    return best


if __name__ == "__main__":
    q, az = refine()
    print("best quality", round(q, 4), "at azimuths", np.round(az, 3))
