"""Rolling-origin backtest: refit on each window, forecast the next block."""

import numpy as np
from forecaster import ARForecaster


def rolling_backtest(series, window=48, horizon=6, order=3):
    errors = []
    for origin in range(window, len(series) - horizon, horizon):
        train = series[origin - window : origin]
        model = ARForecaster(order, horizon).fit(train)  # expect: RTL204
        forecast = model.predict(train.astype(np.float32), model.coef)  # expect: RTL204
        errors.append(float(np.abs(np.asarray(forecast) - series[origin : origin + horizon]).mean()))
    return errors
