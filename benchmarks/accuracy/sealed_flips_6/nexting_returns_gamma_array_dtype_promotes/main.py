"""Track discounted predictions of a robot's light sensors, one window of readings at a time."""

from predictor import HorizonPredictor, sensor_windows
from returns import forward_view_returns


def main():
    predictor = HorizonPredictor(n_sensors=4, gamma=0.9)
    for i, window in enumerate(sensor_windows(n_windows=6, length=16, n_sensors=4, seed=3)):
        estimate = predictor.update(forward_view_returns, window)
        print(f"window {i}: predictions {[round(float(v), 2) for v in estimate]}")


if __name__ == "__main__":
    main()
