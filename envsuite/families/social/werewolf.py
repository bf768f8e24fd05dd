"""Werewolf (PettingZoo AEC): 5-15 players, werewolves, a seer, a doctor and villagers."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium.utils import seeding

from envsuite.action_parsing import parse_index as parse_int_index
from envsuite.aec_env_base import EnvsuiteAECEnv, Turn
from envsuite.env_base import InvalidAction
from envsuite.families.social.belief_probes import UNIFORM_ANSWER, probe_prompt
from envsuite.families.social.listed_actions import Listed, ListedCache
from envsuite.families.social.social_env import (
    MAX_OBSERVATION_CHARS,
    ObservationMode,
    SocialAECEnv,
    checked_measure_options,
    checked_mode_and_penalty,
    checked_player_count,
)
from envsuite.families.social.social_measures import read_probe_answer
from envsuite.families.social.werewolf_actions import (
    PHASE_VERB,
    TARGET,
    action_index,
    action_text,
    parse_index,
    parse_text,
)
from envsuite.families.social.werewolf_measures import (
    MEASURE_KEYS,
    WerewolfMeasures,
    checked_probe_phases,
)
from envsuite.families.social.werewolf_observation import (
    TextObserver,
    VectorObserver,
    status_line,
    vector_size,
)
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import NAMES, ROLES, Action, Phase, WerewolfSetup
from envsuite.rendering import TEXT_RENDER_MODES

#: Named setups: their values fill the arguments left as None.
PRESETS: dict[str, dict[str, Any]] = {
    # Werewolf Arena (Bailis et al., 2024): 8 players, 2 werewolves, a seer, a doctor.
    "werewolf_arena": {"num_players": 8, "num_werewolves": 2, "seer": True, "doctor": True},
}
_CHANCE, _OVER = Phase.CHANCE, Phase.OVER  # (module names: quicker than Phase.X)
#: Text commands whose parse :meth:`WerewolfEnv._read_text` keeps before it starts over.
MAX_TEXTS_READ = 4096
#: Deals whose seat words :meth:`WerewolfEnv._new_game` keeps before it starts over.
MAX_DEALS_KEPT = 4096
#: No legal action found listed (see ``WerewolfEnv._listed_pick``).
_NO_PICK: tuple[WerewolfGame | None, int, Action | None] = (None, -1, None)


class WerewolfEnv(SocialAECEnv[Action]):
    """Werewolf: the village hunts the werewolves hidden among it; the werewolves kill by night.

    Description:
        ``num_players`` seats (``player_0`` ... , named Alice, Bob, ... in the text) are
        dealt roles by ``self.np_random``: ``num_werewolves`` werewolves (team
        ``werewolves``), and on team ``village`` a seer, a doctor and villagers. The
        werewolves know each other; nobody else knows any role but its own. Each night
        the werewolves choose a victim (in seat order, each sees the others' choices; the
        most named dies, a split going to the first named), the seer learns whether one
        player is a werewolf and the doctor protects one player (itself allowed unless
        ``doctor_self_save=False``) from that
        night's kill. Each day opens with the night's death (or none); then
        ``discussion_rounds`` rounds of speaking in round-robin order from a first speaker
        drawn uniformly among the living (one message per turn, at most
        ``max_speech_chars`` characters); then every living player votes to exile one
        other or abstains, votes secret until all are in. The most-voted player is
        exiled; a tie exiles nobody (``tie_rule="no_exile"``) or one of the tied drawn
        uniformly (``"random"``). With ``speaking_order="bidding"`` the discussion instead
        follows Werewolf Arena's bidding (Bailis et al., 2024): ``discussion_rounds`` times
        the living players speeches a day, each going to the highest of secret bids of
        urgency 0-4 (see Speaking order below). Dead players keep their seat but never act
        again. The village wins when no werewolf lives; the werewolves win once they are
        at least as many as the other living players. The rules engine is
        :class:`~envsuite.families.social.werewolf_rules.WerewolfGame`; its ``game_log``
        replays a game from the deal and the entries. ``preset="werewolf_arena"`` is
        Werewolf Arena's 8-player setup (2 werewolves, a seer, a doctor, 4 villagers).

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message: the
        rules in brief, the player's name and role, the players alive and dead, what the
        player knows of others' teams (the werewolves know each other, the seer its
        visions), every event it may read (public speeches, votes, deaths; its own night
        actions; the werewolves' choices for werewolves; older events dropped past
        60,000 characters), the reason its last action was refused, and whether and how
        it must act. ``observation_mode="vector"``: ``Box(0, 1)`` float32, seats ordered
        from the player itself ("mine, then the others'"): its role (one-hot), the phase
        (one-hot), its turn, the day over ``max_days``; per seat alive, known werewolf,
        known village; then per pair of seats (n x n each) the votes cast (over
        ``max_days``), accusations (over ``max_days``), claims of werewolf and claims of
        village. Hidden roles never appear in another player's observation or info
        before the game ends.

    Action:
        Text mode, a command of the grammar in
        :mod:`~envsuite.families.social.werewolf_actions`: ``kill NAME``, ``check NAME``,
        ``save NAME``, ``vote NAME``, ``abstain``, ``say: MESSAGE``, ``accuse NAME``,
        ``claim NAME werewolf`` / ``claim NAME village``, ``bid N`` (bidding order) or
        ``pass``; a player in brackets alone (``[Alice]``, ``[3]``) is the phase's action on
        it. The player to move finds ``info["legal_actions"]``: every legal command but
        ``say`` (any ``say:`` message is legal in the discussion too). Vector mode:
        ``Discrete(1 + 3n)`` indices relative to the player (see that module) and
        ``info["action_mask"]`` (all zeros off-turn; read-only, one array shared by every
        info that holds the same mask: copy it to change it); vector players cannot ``say``. A
        refused action is checked in this order, one reason each: not text (vector: not an
        int, out of range); no command; an unknown name; the command is not allowed in this
        phase; the target is dead, oneself or a fellow werewolf. Its reason is the player's
        ``info["parse_error"]``; it costs ``invalid_action_penalty`` and the player's turn
        is taken as ``pass`` (abstain in a vote, nothing said, no night action, bid 0): a
        bad action never stops the game. An action sent off-turn costs the penalty and
        changes nothing else.

    Reward:
        At the end, +1 to every player of the winning team and -1 to the others (0 each
        when the game ends undecided); ``-invalid_action_penalty`` per refused action.

    Termination:
        Every player terminates when a team wins; every player is truncated when day
        ``max_days`` ends undecided. Final infos hold ``outcome`` (``win`` / ``loss`` /
        ``draw``), ``role``, ``team`` (every info holds the player's own role and team,
        so records give win rates by role and team), ``winner`` and ``invalid_actions``.
        The env-level success (:meth:`episode_success`) is that a team won (the game
        did not end undecided).

    Arguments:
        num_players: Players, 5 to 15 (default 8).
        num_werewolves: Werewolves, 1 to fewer than half the players (default
            ``max(1, num_players // 4)``).
        seer: Whether one player is the seer (default True).
        doctor: Whether one player is the doctor (default True).
        preset: ``"werewolf_arena"`` or None; a preset's values fill the arguments above
            left as None.
        discussion_rounds: Speaking turns per living player each day (0 to 5).
        speaking_order: ``"round_robin"`` (default) or ``"bidding"`` (see Speaking order).
        max_speech_chars: Characters per message (1 to 2000); longer ones are cut.
        tie_rule: ``"no_exile"`` or ``"random"``.
        max_days: Days before the game ends undecided (default ``num_players``).
        reveal_roles_on_death: Whether a death announces the dead player's role.
        doctor_self_save: Whether the doctor may protect itself.
        names: The players' names (default Alice, Bob, ...; words of ASCII letters).
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_action_penalty: The cost of a refused action (>= 0).
        belief_probes: Phases (``"night"``, ``"discussion"``, ``"vote"``) at whose start
            every living player gets a probe turn (text mode only; default none): see
            Belief probes below.
        speaking_reward: Whether to score each speech by its effect on belief-tracking
            listeners, and each werewolf's cover at the votes (default False).
        render_mode: ``"ansi"`` (the moderator's view, roles included), ``"rgb_array"``,
            ``"human"`` or None.

    Speaking order:
        ``"round_robin"`` is the order described above. ``"bidding"`` is Werewolf Arena's
        (:mod:`~envsuite.families.social.turn_order`): a day opens with a budget of
        ``discussion_rounds`` times the living players speeches (as many as round-robin
        gives); before each speech every living player but the last speaker bids
        ``bid 0`` to ``bid 4`` (0 listen, 1 general thoughts, 2 something critical, 3
        urgent, 4 addressed and must answer), one at a time in seat order but secret: each
        player reads only its own bid, and ``info["legal_actions"]`` lists the five bids
        (vector mode: indices 0 to 4, masked). The highest bidder gets the floor (one
        turn: say, accuse, claim or pass); a tie is drawn from ``np_random`` among the
        highest bidders, each one the previous speech named (by name in a ``say``, or
        accused or claimed) counting twice. Everyone reads who has the floor and the
        speeches left. A refused bid costs the penalty and counts as ``bid 0``. The
        vector observation gets two more entries (a bid is due; speeches left over the
        day's budget). The game log holds every bid and draw, so it replays the game.

    Belief probes and speaking reward:
        Both are off by default (the game is then exactly as above). With
        ``belief_probes``, when the game enters a named phase each living player, in
        seat order, gets one extra turn before the phase's first action: its observation
        ends with the question, ``info["probe"]`` holds it as data (players, classes,
        phase, day) and ``info["legal_actions"]`` is ``["uniform"]`` (any answer in the
        format is accepted). The answer is ``Alice: 0.7, Bob: 0.1`` (the probability that
        each is on the killers' team), JSON, or a dict from a Python agent, read
        leniently; a player left out or unreadable counts as 0.5 and the answer as
        malformed; an answer where no player's probability can be read (not text or a
        dict, empty, no name) is also refused with a ``parse_error``. A probe never
        costs a penalty. Probe turns change nothing in the game, its log or
        its rewards. Final infos then hold ``probes``, ``probe_brier``, ``probe_log``,
        ``probe_accuracy`` and ``probe_malformed``; with ``speaking_reward``,
        ``speeches``, ``speaking_reward``, ``speaking_reward_total`` and, for werewolves,
        ``deception``; the runner records them per player as metrics. Definitions:
        :mod:`~envsuite.families.social.werewolf_measures` and
        :mod:`~envsuite.families.social.belief_probes`.

    Version history:
        v0: Initial version.

    """

    #: Final-info keys the runner stores as per-player metrics (present when measured).
    record_metrics: ClassVar[tuple[str, ...]] = MEASURE_KEYS
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "werewolf_v0",
        "is_parallelizable": False,
    }
    #: Whose words the game uses (:data:`~envsuite.families.social.game_words.GAME_WORDS`).
    GAME: ClassVar[str] = "werewolf"
    CHANCE: ClassVar[Phase] = Phase.CHANCE
    # The legal action parse_action last found listed: (game, its log length, action).
    _listed_pick: tuple[WerewolfGame | None, int, Action | None] = (None, -1, None)
    # The listing of the seat to move while the game stands still: (game, log length,
    # seat, listing); see :meth:`_listing`.
    _now: tuple[WerewolfGame | None, int, int, Listed | None] = (None, -1, -1, None)
    # The game whose seats' (role, team) words :meth:`_info` keeps, and those words.
    _seat_words: tuple[WerewolfGame | None, list[tuple[str, str]]] = (None, [])
    # The all-zero rewards the quick step last set: while ``rewards`` is still that dict
    # (nothing else assigns it in place), the next such step leaves it.
    _zero_step: dict[str, float] | None = None

    def __init__(
        self,
        num_players: int | None = None,
        num_werewolves: int | None = None,
        seer: bool | None = None,
        doctor: bool | None = None,
        preset: str | None = None,
        discussion_rounds: int = 1,
        speaking_order: str = "round_robin",
        max_speech_chars: int = 300,
        tie_rule: str = "no_exile",
        max_days: int | None = None,
        reveal_roles_on_death: bool = False,
        doctor_self_save: bool = True,
        names: list[str] | tuple[str, ...] | None = None,
        observation_mode: ObservationMode = "text",
        invalid_action_penalty: float = 0.1,
        belief_probes: list[str] | tuple[str, ...] | None = None,
        speaking_reward: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if preset is not None and preset not in PRESETS:
            raise ValueError(f"preset must be one of {sorted(PRESETS)} or None, got {preset!r}")
        chosen: dict[str, Any] = {
            "num_players": num_players,
            "num_werewolves": num_werewolves,
            "seer": seer,
            "doctor": doctor,
        }
        for key, value in (PRESETS[preset] if preset else {}).items():
            if chosen[key] is None:
                chosen[key] = value
        n = 8 if chosen["num_players"] is None else chosen["num_players"]
        n = checked_player_count(n, 5, len(NAMES))
        checked_mode_and_penalty(observation_mode, invalid_action_penalty)
        probe_phases = checked_probe_phases(belief_probes)
        checked_measure_options(
            probe_phases, observation_mode, speaking_reward, discussion_rounds, "discussion"
        )
        self.measures = WerewolfMeasures(probe_phases, speaking_reward)
        self.setup = WerewolfSetup(
            num_players=n,
            num_werewolves=max(1, n // 4)
            if chosen["num_werewolves"] is None
            else chosen["num_werewolves"],
            seer=True if chosen["seer"] is None else chosen["seer"],
            doctor=True if chosen["doctor"] is None else chosen["doctor"],
            discussion_rounds=discussion_rounds,
            max_speech_chars=max_speech_chars,
            tie_rule=tie_rule,  # type: ignore[arg-type]  # checked by WerewolfSetup
            max_days=n if max_days is None else max_days,
            reveal_roles_on_death=reveal_roles_on_death,
            doctor_self_save=doctor_self_save,
            names=tuple(NAMES[:n] if names is None else names),
            game=self.GAME,
            speaking_order=speaking_order,
        )
        bidding = self.setup.speaking_order == "bidding"
        self._init_seats(n, observation_mode, invalid_action_penalty, render_mode)
        self._init_spaces(vector_size(n, bidding), 1 + 3 * n)
        self.game = WerewolfGame(self.setup, self.setup.base_roles())
        self.invalid_actions = dict.fromkeys(self.possible_agents, 0)
        self._observer = VectorObserver(n, bidding)
        self._texts = TextObserver()
        self._listings = ListedCache(
            self._encode_for, None if observation_mode == "text" else 1 + 3 * n
        )
        self._listed_by_id = self._listings.by_id
        # The all-zero action mask of the players not to move (read-only, one for all).
        self._no_mask = np.zeros(1 + 3 * n, np.int8)
        self._no_mask.flags.writeable = False
        # Each deal's (role, team) words per seat (see _new_game).
        self._words_by_deal: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        # Whether the observations are vectors (for the env's life).
        self._vector = observation_mode == "vector"
        # Whether the measures are on (for the env's life).
        self._measured = self.measures.enabled
        # Text commands read lately, and what they parsed to (see :meth:`_read_text`).
        self._texts_read: dict[str, Action] = {}

    # -- episode -----------------------------------------------------------------------
    def _new_game(self, rng: np.random.Generator) -> WerewolfGame:
        """The roles dealt (a uniform permutation from ``rng``)."""
        game = WerewolfGame(self.setup, self._dealt_roles(rng))
        named = self._words_by_deal.get(game.roles)
        if named is None:  # (the words depend on the deal only: kept per deal)
            if len(self._words_by_deal) >= MAX_DEALS_KEPT:
                self._words_by_deal.clear()
            words = game.words
            named = [(words.role(each), words.team(ROLES[each].team)) for each in game.roles]
            self._words_by_deal[game.roles] = named
        self._seat_words = (game, named)
        return game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Seed ``self.np_random`` (when ``seed`` is given, or on first use); deal a new game.

        Without measures or ``"human"`` rendering, the base's ``reset`` with its infos
        written at once (each seat's role, team, no refused action, no parse error, and
        the legal actions or mask of the player to move, empty ones for the others, as the
        base's ``_mark_legal_actions`` writes them).
        """
        if not self._quick:
            super().reset(seed, options)
            return
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self._skip_agent_selection = None
        self.game = game = self._new_game(self.np_random)
        self.invalid_actions = dict.fromkeys(agents, 0)
        if game.phase is _CHANCE:
            self._resolve_chance()
        first = game.queue[0]  # (a new game opens with the werewolves' night)
        listed = self._listing(first)
        words = self._seat_words[1]  # (built with the game: see _new_game)
        vector = self._vector
        key = "action_mask" if vector else "legal_actions"
        self.infos = infos = {}
        self._marked_empty = marked = {}
        for seat, agent in enumerate(agents):
            role, team = words[seat]
            if seat == first:
                mask = listed.mask
                value: Any = list(listed.encoded) if mask is None else mask
            else:
                value = self._no_mask if vector else []
            info = {"role": role, "team": team, "invalid_actions": 0, "parse_error": None}
            info[key] = value
            infos[agent] = info
            if seat != first:
                marked[agent] = (info, value)
        self.agent_selection = agents[first]

    def _info(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        role = self.game.roles[seat]
        words = self.game.words
        role_word, team_word = self._words_of(seat)
        info: dict[str, Any] = {
            "role": role_word,
            "team": team_word,
            "invalid_actions": self.invalid_actions[agent],
        }
        if self.game.over:
            winner = self.game.winner
            info["winner"] = None if winner is None else words.team(winner)
            if winner is None:
                info["outcome"] = "draw"
            else:
                info["outcome"] = "win" if winner == ROLES[role].team else "loss"
            if self.measures.enabled:
                info.update(self.measures.final_info(seat))
        elif self.measures.probe_seat == seat:
            info["probe"] = self.measures.question(self.game, seat).as_info()
        return info

    def _words_of(self, seat: int) -> tuple[str, str]:
        """``seat``'s role and team words (kept per game)."""
        if self._seat_words[0] is not self.game:  # (a game not made by _new_game)
            words = self.game.words
            named = [(words.role(each), words.team(ROLES[each].team)) for each in self.game.roles]
            self._seat_words = (self.game, named)
        return self._seat_words[1][seat]

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> Action:
        """A command (text) or an index (vector) as a rule action, checked legal."""
        seat = self._seat[agent]
        if self._measured and self.measures.probe_seat == seat:
            return self._probe_answer(seat, action)
        listed = self._listed_action(seat, action)
        return listed if listed is not None else self._parse_command(seat, action)

    def _listed_action(self, seat: int, action: Any) -> Action | None:
        """The legal action ``action`` lists exactly (its str, or its int in vector mode), or None.

        It is what :meth:`_parse_command` returns for ``action``, found without parsing.
        """
        if type(action) is not (str if self.observation_mode == "text" else int):
            return None
        found = self._listing(seat).by_encoding.get(action)
        if found is not None:  # apply_action plays it unchecked if the state is the same
            self._listed_pick = (self.game, len(self.game.game_log.entries), found)
        return found

    def _parse_command(self, seat: int, action: Any, acting: Phase | None = None) -> Action:
        """Parse and check any action (the general path of :meth:`parse_action`).

        ``acting``: check it as ``seat``'s move in that phase, though ``seat`` is not the
        game's seat to move (a simultaneous block of the Parallel form).
        """
        n = self.setup.num_players
        phase = self.game.phase if acting is None else acting
        if self.observation_mode == "text":
            parsed = self._read_text(action)
        else:
            index = parse_int_index(action, 1 + 3 * n, "action")
            parsed = parse_index(index, seat, n, phase)
        if parsed.kind == TARGET:  # [Alice]: the phase's own action on Alice
            parsed = Action(PHASE_VERB.get(phase, "accuse"), parsed.target)
        if acting is None:
            reason = self.game.illegal_reason(seat, parsed)
        else:
            reason = self.game.reason_in(acting, seat, parsed)
        if reason is not None:
            raise InvalidAction(f"illegal action: {reason}")
        return parsed

    def _read_text(self, action: Any) -> Action:
        """:func:`parse_text` of ``action``, its result kept for text read before."""
        kept = self._texts_read.get(action) if type(action) is str else None
        if kept is not None:
            return kept
        parsed = parse_text(action, self.setup.names)
        if type(action) is str:  # (not a str subclass: its hash and equality are its own)
            if len(self._texts_read) >= MAX_TEXTS_READ:
                self._texts_read.clear()
            self._texts_read[action] = parsed
        return parsed

    def _probe_answer(self, seat: int, answer: Any) -> Action:
        """A probe turn's answer, refused only when no player's probability can be read."""
        question = self.measures.question(self.game, seat)
        return Action("probe", None, read_probe_answer(answer, question))

    def encode_action(self, agent: str, action: Action) -> Any:
        """``action`` of ``agent`` in this env's action form (text, or the vector index)."""
        if self.observation_mode == "text":
            return action_text(action, self.setup.names, self.game.words.claim_killer)
        return action_index(action, self._seat[agent], self.setup.num_players)

    def legal_actions(self, agent: str) -> list[Any] | None:
        """The legal actions of ``agent`` (the player to move), in the env's action form.

        ``say`` is left out (any message is legal in the discussion); on a belief-probe
        turn the list is ``["uniform"]`` (any answer in the format is read). The list is kept
        until the game moves on (the base and the text observation both ask for it each
        step); callers get a copy.
        """
        seat = self._seat[agent]
        if self.measures.probe_seat == seat:
            return [UNIFORM_ANSWER]
        return list(self._encoded_legal(agent, seat))

    def _encoded_legal(self, agent: str, seat: int) -> list[Any]:
        """The legal actions of ``seat`` (not on a probe turn), encoded: the kept list itself."""
        return self._listing(seat).encoded

    def _listing(self, seat: int) -> Listed:
        """The listing of ``seat``'s legal tuple now (kept while the game stands still)."""
        game = self.game
        version = len(game.game_log.entries)  # every move and chance draw adds an entry
        now = self._now
        if now[0] is game and now[1] == version and now[2] == seat:
            return now[3]  # type: ignore[return-value]  # (set with its game)
        queue = game.queue  # (legal_tuple's rule, without its own memo)
        legal = game.legal_in(game.phase, seat) if queue and queue[0] == seat else ()
        listed = self._listed_by_id.get(id(legal))  # (ListedCache.get's lookup, inlined)
        if listed is None or listed.legal is not legal:
            listed = self._listings.get(seat, legal)
        self._now = (game, version, seat, listed)
        return listed

    def _encode_for(self, seat: int, action: Action) -> Any:
        return self.encode_action(self.possible_agents[seat], action)

    def apply_action(self, agent: str, parsed: Action) -> Turn:
        """Play the action (or answer the probe); draw any chance event; pay out at the end."""
        seat = self._seat[agent]
        if parsed.kind == "probe":
            self.measures.answer(self.game, seat, parsed.value)
            self.measures.after_change(self.game)
            return self._turn(agent, {})
        self._play(seat, parsed)
        return self._turn(agent, {})

    def _play(self, seat: int, parsed: Action, listed: bool | None = None) -> None:
        """Play ``seat``'s legal action in the game (measured) and draw any chance event.

        ``listed``: whether ``parsed`` is known to be legal for ``seat``, the seat to move,
        in this very state (taken from its listing, or parsed and checked just now; None:
        whether :meth:`_listed_action` found it listed).
        """
        game: WerewolfGame = self.game
        measured = self._measured
        if measured:  # (else it holds nothing: the measures are off for the env's life)
            self.measures.before_action(game, seat, parsed)
        if listed is None:
            pick = self._listed_pick
            listed = (
                pick[2] is parsed
                and pick[0] is game
                and pick[1] == len(game.game_log.entries)
                and game.to_move == seat
            )
        self._listed_pick = _NO_PICK
        game.apply(seat, parsed, listed=listed)
        if game.phase is Phase.CHANCE:
            self._resolve_chance()
        if measured:
            self.measures.after_action(self.game, seat, parsed)
            self.measures.after_change(self.game)

    # -- the common step -----------------------------------------------------------------
    def step(self, action: Any, agent: str | None = None) -> None:
        """Apply ``action`` for the agent to move (the AEC base's rules, see its module).

        The common case (see :meth:`SocialAECEnv.step`) is played here, in the step
        itself: what the base's ``step`` does, without its general bookkeeping: only the
        mover's info and that of the player to move next change (their ``legal_actions``
        or ``action_mask``, as :meth:`_hand_over` writes them); the rewards are all 0
        until the last step, which goes through the base's ``_finish``. The helpers it
        would call each step are written out here (a Python call costs about as much as
        the lines it runs). Anything else goes the base's general way.
        """
        game: WerewolfGame = self.game
        queue = game.queue
        if agent is not None or not self._quick or not queue or not self.agents:
            EnvsuiteAECEnv.step(self, action, agent)  # (named, measured, over or not started)
            return
        seat, current = queue[0], self.agent_selection
        if self._seat[current] != seat:
            EnvsuiteAECEnv.step(self, action, agent)
            return
        parsed = None
        if type(action) is self._action_type:  # an exact listed action needs no parsing
            now = self._now  # (_listing's kept listing, read here)
            if now[0] is game and now[1] == len(game.game_log.entries) and now[2] == seat:
                listed = now[3]
            else:
                listed = self._listing(seat)
            parsed = listed.by_encoding.get(action)  # type: ignore[union-attr]
        if parsed is None:
            if type(action) is not str:
                EnvsuiteAECEnv.step(self, action, agent)  # (refused: the general path says why)
                return
            try:
                parsed = self.parse_action(current, action)
            except Exception:  # refused: the general path says why and applies the penalty
                EnvsuiteAECEnv.step(self, action, agent)
                return
        self._cumulative_rewards[current] = 0.0
        # (_play, unmeasured: the action was listed, or parsed and checked legal just now)
        game.apply(seat, parsed, True)
        if game.phase is _CHANCE:
            self._resolve_chance()
        if game.phase is _OVER:
            self._finish(current, self._final_turn({}, game.truncated), {current: None})
            return
        if self.rewards is not self._zero_step:  # (every agent is live until the end)
            self.rewards = self._zero_step = self._no_rewards.copy()
        # The infos after ``current`` played and the next seat is to move (_hand_over's).
        next_seat = game.queue[0]
        # (_listing for the seat to move, whose kept listing is never this one's; the
        # lookup of game.legal_in, inlined)
        legal = game._legal_now.get((game.phase._value_, next_seat))
        if legal is None:
            legal = game.legal_in(game.phase, next_seat)
        listed = self._listed_by_id.get(id(legal))
        if listed is None or listed.legal is not legal:
            listed = self._listings.get(next_seat, legal)
        self._now = (game, len(game.game_log.entries), next_seat, listed)
        words = self._seat_words  # (built with the game: see _new_game)
        role, team = words[1][seat] if words[0] is game else self._words_of(seat)
        mover = self.possible_agents[next_seat]
        infos, marked = self.infos, self._marked_empty
        mask = listed.mask
        handed: Any
        empty: Any
        if mask is None:
            key, handed, empty = "legal_actions", list(listed.encoded), []
        else:
            key, handed, empty = "action_mask", mask, self._no_mask
        if mover == current:
            played = {
                "role": role,
                "team": team,
                "invalid_actions": self.invalid_actions[current],
                "parse_error": None,
                key: handed,
            }
            infos[current] = played
        else:
            played = {
                "role": role,
                "team": team,
                "invalid_actions": self.invalid_actions[current],
                "parse_error": None,
                key: empty,
            }
            infos[current] = played
            marked[current] = (played, empty)
            infos[mover] = {**infos[mover], key: handed}
        marked.pop(mover, None)
        self.agent_selection = mover

    def _turn(self, agent: str, rewards: dict[str, float]) -> Turn:
        if not self.game.over:
            mover = self._mover()
            infos = {agent: self._info(agent)}
            if self.measures.enabled:  # a probe turn's question is in the prober's info
                infos[mover] = self._info(mover)
            return Turn(rewards=rewards, infos=infos, next_agent=mover)
        return self._final_turn(rewards, self.game.truncated)

    # -- observations ------------------------------------------------------------------
    def observe(self, agent: str) -> Any:
        """What ``agent`` may know, as text or as a vector (see Observation)."""
        seat = self._seat[agent]
        game: WerewolfGame = self.game
        if self._vector:
            return self._observer.view(game, seat)
        info = self.infos.get(agent) if self.infos else None
        error = None if info is None else info.get("parse_error")
        if self._measured and self.measures.probe_seat == seat:
            view = self._texts.view(game, seat, error, [], MAX_OBSERVATION_CHARS)
            return f"{view}\n{probe_prompt(self.measures.question(game, seat))}"
        queue = game.queue
        if not queue or queue[0] != seat:  # (not to move)
            return self._texts.view(game, seat, error, [], MAX_OBSERVATION_CHARS)
        now = self._now  # (_listing's kept listing, read here)
        if now[0] is game and now[1] == len(game.game_log.entries) and now[2] == seat:
            listed: Listed = now[3]  # type: ignore[assignment]
        else:
            listed = self._listing(seat)
        made_of = (game.phase, game.speeches_left)  # (with the listing, all the line shows)
        status = listed.status
        if status is None or status[0] != made_of:
            line = status_line(game, seat, listed.encoded, None, listed.options)
            status = listed.status = (made_of, line)
        return self._texts.view(
            game, seat, error, listed.encoded, MAX_OBSERVATION_CHARS, None, status[1]
        )

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to move's observation, cumulative reward, ends and info (PettingZoo's)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def render_text(self) -> str:
        """The ``ansi`` frame: the moderator's view (every role, who lives, the phase)."""
        game = self.game
        status = (
            f"{game.words.team(game.winner) if game.winner else 'nobody'} won"
            if game.over
            else f"day {game.day}, {game.phase.value}"
        )
        lines = [f"{game.words.title}: {status}"]
        for seat, name in enumerate(self.setup.names):
            mark = "alive" if game.alive[seat] else "dead"
            turn = " <- to move" if game.to_move == seat else ""
            lines.append(f"  {name:<8} {game.words.role(game.roles[seat]):<9} {mark}{turn}")
        return "\n".join(lines)
