"""Social-deduction games (PettingZoo AEC) on one seeded rule engine, with scripted bots.

The engine's parts hold no Gymnasium, PettingZoo, text generation or random generator:
:mod:`~envsuite.families.social.roles` (roles and teams as data),
:mod:`~envsuite.families.social.channels` (messages tagged with sender, kind and
audience, so each player reads exactly what its role may know),
:mod:`~envsuite.families.social.voting` (tallies and documented tie rules),
:mod:`~envsuite.families.social.turn_order` (speaking orders) and
:mod:`~envsuite.families.social.game_log` (a game replays from its deal and its entries).
A game's rules (``werewolf_rules``, ``avalon_rules``, ``amongus_rules``) build on them;
its envs (``werewolf``; ``mafia``: the same rules in Mafia's words,
:mod:`~envsuite.families.social.game_words`; ``avalon``; ``amongus``) translate between
the rules and agents; chance (the deal, a first speaker or leader, a tie) is drawn by the
env from ``self.np_random`` and written into the log. Nothing here touches the network.
"""
