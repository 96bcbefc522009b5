"""Fit the membrane to a recorded voltage, refining the integration step as training goes on."""

from cell import train_step


class Fitter:
    def __init__(self, params, lr=1e-3, coarse_dt=0.2, refine_every=2):
        self.params = params
        self.lr = lr
        self.coarse_dt = coarse_dt
        self.refine_every = refine_every
        self.history = []

    def dt_for(self, epoch):
        # coarse and cheap first, accurate at the end: halve the step every few epochs
        return self.coarse_dt / 2 ** (epoch // self.refine_every)

    def fit(self, current, target, epochs=6):
        for epoch in range(epochs):
            dt = self.dt_for(epoch)
            self.params, loss = train_step(self.params, current, target, self.lr, dt=dt)  # expect: RTL202
            self.history.append(float(loss))
        return self.params
