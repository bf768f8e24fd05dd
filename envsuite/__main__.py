"""``python -m envsuite`` runs the command line."""

from envsuite.cli import main

main()
