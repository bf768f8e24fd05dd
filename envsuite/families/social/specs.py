"""Registry entries of the social family (imports nothing heavy)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.social"

#: The specs of the family, registered below; one turn-based (AEC) spec per game.
SOCIAL_SPECS: list[EnvSpec] = []
#: The native PettingZoo Parallel forms of the games with simultaneous phases.
SOCIAL_PARALLEL_SPECS: list[EnvSpec] = []


def _register(spec: EnvSpec) -> None:
    (SOCIAL_PARALLEL_SPECS if spec.api == "parallel" else SOCIAL_SPECS).append(spec)
    register(spec)


_register(
    EnvSpec(
        id="envsuite/Werewolf-v0",
        entry_point=f"{_PACKAGE}.werewolf:WerewolfEnv",
        family="social",
        api="aec",
        description="Werewolf, 5-15 players (AEC): wolves, seer, doctor; text or vector.",
        oracle=f"{_PACKAGE}.werewolf_oracle:werewolf_oracle",
        # Belief-tracking bots in every seat decide 97-100% of games (200 seeds per test
        # variant; the rest run out of days, mostly split votes under "no_exile" ties).
        oracle_success=0.9,
        test_kwargs={"num_players": 6},
        test_variants=(
            {"observation_mode": "vector"},
            {"preset": "werewolf_arena", "tie_rule": "random", "discussion_rounds": 2},
            {"num_players": 5, "discussion_rounds": 0, "reveal_roles_on_death": True},
            {"num_players": 7, "belief_probes": ["night", "vote"], "speaking_reward": True},
            {"speaking_order": "bidding", "discussion_rounds": 2},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/WerewolfParallel-v0",
        entry_point=f"{_PACKAGE}.werewolf_parallel:WerewolfParallelEnv",
        family="social",
        api="parallel",
        description="Werewolf (PettingZoo Parallel): night, votes and bids simultaneous.",
        oracle=f"{_PACKAGE}.werewolf_parallel_oracle:werewolf_parallel_oracle",
        # Belief bots in every seat decided 100 of 100 seeds of each test variant.
        oracle_success=0.9,
        test_kwargs={"num_players": 6},
        test_variants=(
            {"observation_mode": "vector", "speaking_order": "bidding"},
            {"preset": "werewolf_arena", "speaking_order": "bidding", "tie_rule": "random"},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/Mafia-v0",
        entry_point=f"{_PACKAGE}.mafia:MafiaEnv",
        family="social",
        api="aec",
        description="Mafia (SecretMafia's setup), 5-15 players (AEC), on the Werewolf engine.",
        oracle=f"{_PACKAGE}.werewolf_oracle:werewolf_oracle",
        # The same belief-tracking bots: 200 seeds of each test variant, all decided.
        oracle_success=0.9,
        test_kwargs={"discussion_rounds": 1},
        test_variants=(
            {"observation_mode": "vector"},
            {"num_players": 9, "tie_rule": "random", "discussion_rounds": 3},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/MafiaParallel-v0",
        entry_point=f"{_PACKAGE}.werewolf_parallel:MafiaParallelEnv",
        family="social",
        api="parallel",
        description="Mafia (PettingZoo Parallel): night, votes and bids simultaneous.",
        oracle=f"{_PACKAGE}.werewolf_parallel_oracle:werewolf_parallel_oracle",
        # Belief bots in every seat decided 100 of 100 seeds of each test variant.
        oracle_success=0.9,
        test_kwargs={"discussion_rounds": 1},
        test_variants=(
            {"observation_mode": "vector"},
            {"num_players": 7, "speaking_order": "bidding"},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/Avalon-v0",
        entry_point=f"{_PACKAGE}.avalon:AvalonEnv",
        family="social",
        api="aec",
        description="The Resistance: Avalon, 5-10 players (AEC): Merlin, the assassin, quests.",
        oracle=f"{_PACKAGE}.avalon_oracle:avalon_oracle",
        # Every Avalon game is decided (at most five quests of five proposals each).
        oracle_success=1.0,
        test_kwargs={"num_players": 5},
        test_variants=(
            {"observation_mode": "vector"},
            {
                "num_players": 7,
                "special_roles": ["merlin", "percival", "morgana", "mordred", "assassin"],
                "discussion_rounds": 0,
            },
            {"num_players": 6, "belief_probes": ["proposal", "quest"], "speaking_reward": True},
        ),
    )
)

_register(
    EnvSpec(
        id="envsuite/AmongUs-v0",
        entry_point=f"{_PACKAGE}.amongus:AmongUsEnv",
        family="social",
        api="aec",
        description="Among Us-like, 4-10 players (AEC): rooms, tasks, kills, meetings.",
        oracle=f"{_PACKAGE}.amongus_oracle:amongus_oracle",
        # Belief-tracking bots in every seat decided every game (200 seeds each of 5 and
        # 7 players, 60 of 4 and 10): the crew wins 61% at 5 players, 8% at 7 (2 impostors).
        oracle_success=0.9,
        test_kwargs={"num_players": 5},
        test_variants=(
            {"observation_mode": "vector"},
            {"num_players": 7, "tie_rule": "random", "discussion_rounds": 2},
            {"num_players": 4, "discussion_rounds": 0, "reveal_role_on_eject": False},
            {"belief_probes": ["meeting", "vote"], "speaking_reward": True},
        ),
    )
)
