"""``python -m twentynine`` runs the command line."""

from twentynine.cli import main

main()
