"""Decision-making environments: bandits, online learning with experts, repeated games."""
