"""What is fitted on real games: the contract model (its features, its predictions, its fit)."""
