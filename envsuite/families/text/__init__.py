"""Text games: word games, logic puzzles and chess endgames, each with a provably good oracle.

Every game is a :class:`~envsuite.families.text.text_game.TextGameEnv`: text observations
for language agents (history modes ``last`` / ``summary`` / ``full``), a vector mode for
classic RL where it makes sense, one forgiving answer grammar
(:mod:`~envsuite.families.text.answer_grammar`) and train / val / test splits by hashing
(:mod:`~envsuite.families.text.splits`). Nothing here touches the network.
"""
