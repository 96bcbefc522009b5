"""Microscopy cell tracks: per-frame step lengths, one track per cell, ragged."""
import numpy as np

MAX_FRAMES = 48  # longest track the acquisition protocol can produce


def simulate_tracks(n_cells, rng):
    tracks = []
    for _ in range(n_cells):
        n_frames = int(rng.integers(12, MAX_FRAMES + 1))
        moving = rng.random(n_frames) < 0.4
        steps = np.where(moving, rng.gamma(4.0, 0.8, n_frames), rng.gamma(1.5, 0.3, n_frames))
        tracks.append(np.log(steps).astype(np.float32))
    return tracks


def pad_track(track, max_frames=MAX_FRAMES):
    """Right-pad a track to the protocol length; return it with its true length."""
    track = track[:max_frames]
    n = len(track)
    padded = np.zeros(max_frames, dtype=np.float32)
    padded[:n] = track
    return padded, np.int32(n)


def batches(tracks, batch_size):
    """Yield (emissions, lengths) with a fixed batch shape; the last batch is filled with empty tracks."""
    for start in range(0, len(tracks), batch_size):
        chunk = tracks[start:start + batch_size]
        chunk = chunk + [np.zeros(0, dtype=np.float32)] * (batch_size - len(chunk))
        padded, lengths = zip(*(pad_track(t) for t in chunk))
        yield np.stack(padded), np.array(lengths, dtype=np.int32)
