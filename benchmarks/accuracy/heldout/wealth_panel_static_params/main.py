"""Final-wealth inequality in a small simulated panel."""

from experiment import CONFIG, gini, simulate_panel

if __name__ == "__main__":
    finals = simulate_panel(CONFIG, households=6)
    print("mean", round(finals.mean(), 3), "gini", round(gini(finals), 3))
