"""Mafia (PettingZoo AEC): TextArena SecretMafia's setup on the Werewolf rules engine."""

from __future__ import annotations

from typing import Any, ClassVar

from envsuite.env_base import InvalidAction
from envsuite.families.social.werewolf import ObservationMode, WerewolfEnv
from envsuite.families.social.werewolf_actions import NO_COMMAND
from envsuite.families.social.werewolf_setup import Action, Phase
from envsuite.rendering import TEXT_RENDER_MODES


class MafiaEnv(WerewolfEnv):
    """Mafia: the village hunts the mafia hidden among it; the mafia eliminates by night.

    Description:
        The game of TextArena's SecretMafia on envsuite's social engine (the rules of
        :class:`~envsuite.families.social.werewolf.WerewolfEnv` in Mafia's words):
        ``num_players`` seats (``player_0`` ..., named Alice, Bob, ... in the text) are
        dealt roles by ``self.np_random``: ``num_mafia`` mafia members (team ``mafia``; by
        default SecretMafia's ``max(1, round(num_players * mafia_ratio))``), and on team
        ``village`` a detective, a doctor and villagers. The mafia know each other. Each
        night the mafia choose whom to eliminate (each member in seat order; the most named
        dies, a split going to the first named), the detective learns whether one player is
        mafia and the doctor protects another player (as in SecretMafia, not itself). Each
        day the night's death is announced; ``discussion_rounds`` rounds (SecretMafia's
        default 3) of speaking in round-robin order from a first speaker drawn among the
        living; then every living player votes, secretly until all are in; the most voted is
        eliminated, a tie eliminates one of the tied drawn uniformly (``tie_rule="random"``,
        SecretMafia's rule) or nobody (``"no_exile"``). Unlike SecretMafia, a player may not
        vote for itself and may abstain, and speaking order is round-robin from a drawn
        first speaker rather than a fresh shuffle each day (or, with
        ``speaking_order="bidding"``, Werewolf Arena's bidding for each speech, as in
        Werewolf-v0). The village wins when no mafia
        member lives; the mafia wins once it is at least as many as the others. Seeded
        throughout (SecretMafia draws roles, speaking order and ties from Python's global
        ``random``).

    Observation:
        As Werewolf-v0's, in Mafia's words: ``observation_mode="text"`` gives the rules in
        brief, the player's name and role, who lives, what the player knows of others'
        teams (the mafia know each other, the detective its investigations), every event
        it may read, the reason its last action was refused and whether and how it must
        act; ``"vector"`` gives the same ``Box(0, 1)`` vector as Werewolf-v0 (role one-hot
        in engine order: mafia, detective, doctor, villager). Hidden roles never appear in
        another player's observation or info before the game ends.

    Action:
        Werewolf-v0's grammar with Mafia's words, plus SecretMafia's forms: a player in
        square brackets, ``[Alice]``, ``[3]`` or ``[Player 3]`` (seats from 0), is the
        phase's action on that player (eliminate, investigate, protect, accuse or vote);
        during the discussion any text that is not a command is said to everyone, as in
        SecretMafia; ``claim NAME mafia`` / ``claim NAME village`` states a team. The
        player to move finds ``info["legal_actions"]`` (text commands) or
        ``info["action_mask"]`` (vector, ``Discrete(1 + 3n)``). A refused action costs
        ``invalid_action_penalty`` and the turn (taken as ``pass``), never the game.

    Reward:
        At the end, +1 to every player of the winning team and -1 to the others (0 each
        when the game ends undecided); ``-invalid_action_penalty`` per refused action.

    Termination:
        Every player terminates when a team wins; every player is truncated when day
        ``max_days`` ends undecided. Final infos hold ``outcome``, ``role`` (``mafia``,
        ``detective``, ``doctor``, ``villager``), ``team`` (``mafia`` / ``village``),
        ``winner`` and ``invalid_actions``. The env-level success is that a team won.

    Arguments:
        num_players: Players, 5 to 15 (default 6).
        num_mafia: Mafia members, 1 to fewer than half the players (default
            ``max(1, round(num_players * mafia_ratio))``).
        mafia_ratio: The mafia's share of the players when ``num_mafia`` is None (SecretMafia's
            0.25; the result must leave the mafia fewer than half).
        detective: Whether one player is the detective.
        doctor: Whether one player is the doctor.
        discussion_rounds: Speaking turns per living player each day (0 to 5; default 3).
        speaking_order: ``"round_robin"`` (default) or ``"bidding"`` (``bid 0`` to ``bid
            4`` before each speech; see Werewolf-v0's Speaking order).
        max_speech_chars: Characters per message (1 to 2000); longer ones are cut.
        tie_rule: ``"random"`` (default) or ``"no_exile"``.
        max_days: Days before the game ends undecided (default ``num_players``).
        reveal_roles_on_death: Whether an elimination announces the player's role.
        names: The players' names (default Alice, Bob, ...; words of ASCII letters).
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_action_penalty: The cost of a refused action (>= 0).
        belief_probes: Probe phases, as in Werewolf-v0 (the killers' team is ``mafia``).
        speaking_reward: Speaking reward and deception, as in Werewolf-v0.
        render_mode: ``"ansi"`` (the moderator's view), ``"rgb_array"``, ``"human"`` or
            None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "mafia_v0",
        "is_parallelizable": False,
    }
    GAME: ClassVar[str] = "mafia"

    def __init__(
        self,
        num_players: int = 6,
        num_mafia: int | None = None,
        mafia_ratio: float = 0.25,
        detective: bool = True,
        doctor: bool = True,
        discussion_rounds: int = 3,
        speaking_order: str = "round_robin",
        max_speech_chars: int = 300,
        tie_rule: str = "random",
        max_days: int | None = None,
        reveal_roles_on_death: bool = False,
        names: list[str] | tuple[str, ...] | None = None,
        observation_mode: ObservationMode = "text",
        invalid_action_penalty: float = 0.1,
        belief_probes: list[str] | tuple[str, ...] | None = None,
        speaking_reward: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if num_mafia is None:
            if not isinstance(mafia_ratio, int | float) or not 0 < mafia_ratio < 0.5:
                raise ValueError(f"mafia_ratio must be a number in (0, 0.5), got {mafia_ratio!r}")
            if isinstance(num_players, int) and not isinstance(num_players, bool):
                num_mafia = max(1, round(num_players * mafia_ratio))
        super().__init__(
            num_players=num_players,
            num_werewolves=num_mafia,
            seer=detective,
            doctor=doctor,
            discussion_rounds=discussion_rounds,
            speaking_order=speaking_order,
            max_speech_chars=max_speech_chars,
            tie_rule=tie_rule,
            max_days=max_days,
            reveal_roles_on_death=reveal_roles_on_death,
            doctor_self_save=False,
            names=names,
            observation_mode=observation_mode,
            invalid_action_penalty=invalid_action_penalty,
            belief_probes=belief_probes,
            speaking_reward=speaking_reward,
            render_mode=render_mode,
        )

    def parse_action(self, agent: str, action: Any) -> Action:
        """Werewolf's parsing; in the discussion, text that is no command is a speech."""
        try:
            return super().parse_action(agent, action)
        except InvalidAction as refused:
            speech = (
                self.observation_mode == "text"
                and isinstance(action, str)
                and self.game.phase is Phase.DISCUSSION
                and str(refused).startswith(NO_COMMAND)
            )
            if not speech:
                raise
            return Action("say", None, " ".join(action.split()))
