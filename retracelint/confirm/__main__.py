"""`python -m retracelint.confirm [PATHS]... -- COMMAND...`, the same as `retracelint confirm`."""

from retracelint.confirm.cli import confirm_command

if __name__ == "__main__":
    confirm_command(prog_name="retracelint confirm")
