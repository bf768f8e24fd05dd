"""The numbers of a report, as rows: every one computed from records by the metrics package.

One row per (env configuration, run) in each table, so several runs of one protocol
compare agents side by side. Nothing here computes a statistic itself; it groups records
and calls :mod:`envsuite.evaluation.metrics`, recording how many records each number
came from and noting every number it could not compute, and why.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from envsuite.errors import EnvsuiteError
from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    Interval,
    bootstrap_interval,
)
from envsuite.evaluation.metrics.curve_band import CurveBand, curve_band
from envsuite.evaluation.metrics.exploration import exploration_from_records
from envsuite.evaluation.metrics.exploration_actions import integer_actions, min_frac_from_records
from envsuite.evaluation.metrics.pass_at_k import (
    PassAtKResult,
    count_attempts,
    pass_at_k_from_records,
)
from envsuite.evaluation.metrics.record_groups import (
    TaskKey,
    split_infra_errors,
    task_key,
    task_label,
)
from envsuite.evaluation.metrics.regret import (
    RegretSummary,
    regret_curves_by_seed,
    regret_summary,
)
from envsuite.evaluation.metrics.seed_means import (
    RecordValue,
    SeedMean,
    field_value,
    metric_value,
    seed_mean_interval,
)
from envsuite.evaluation.report.games import GameTables, game_rows
from envsuite.evaluation.report.items import ItemRow, item_rows
from envsuite.evaluation.report.load import Run, task_keys
from envsuite.records import EpisodeRecord
from envsuite.registry import registry

#: Distinct infrastructure error messages a report quotes per (task, run).
QUOTED_ERRORS = 3
#: Longest infrastructure error message quoted, in characters.
QUOTE_LENGTH = 160


@dataclass(frozen=True)
class Settings:
    """How intervals are drawn: one seed, one number of resamples, one coverage."""

    seed: int = 0
    reps: int = DEFAULT_REPS
    confidence: float = DEFAULT_CONFIDENCE


@dataclass(frozen=True)
class OutcomeRow:
    """Outcomes of one run on one env configuration.

    Attributes:
        task: The env configuration.
        run: The run's label.
        n_records: Records held (episodes that ran plus infrastructure errors).
        n_ran: Episodes that ran.
        n_infra_errors: Episodes lost to infrastructure errors (in no statistic).
        expected: Episodes the protocol asks for here (None when unknown).
        success: Success rate over seeds, or None when no episode defines success.
        mean_return: Mean return (None for multi-agent envs: see :class:`PlayerRow`).
        score: Mean score, or None when no episode defines one.
        players: The agents of a multi-agent env (empty for single-agent envs).
        efficiency: Mean of ``metrics["efficiency"]`` (the shortest win's length over
            the turns taken, 0 for a loss), or None where no episode records it.
        n_seeds: Distinct seeds among the episodes that ran.

    """

    task: TaskKey
    run: str
    n_records: int
    n_ran: int
    n_infra_errors: int
    expected: int | None
    success: SeedMean | None
    mean_return: SeedMean | None
    score: SeedMean | None
    players: tuple[str, ...]
    efficiency: SeedMean | None = None
    n_seeds: int = 0


@dataclass(frozen=True)
class PlayerRow:
    """One player's outcomes in a multi-agent env (``metrics["<player>/success"]``)."""

    task: TaskKey
    run: str
    player: str
    mean_return: SeedMean | None
    success: SeedMean | None


@dataclass(frozen=True)
class PassAtKRow:
    """pass@k and pass^k of one run on one env configuration for one k."""

    task: TaskKey
    run: str
    result: PassAtKResult


@dataclass(frozen=True)
class ExplorationRow:
    """Bandit exploration statistics of one run on one configuration.

    Attributes:
        n_episodes: Episodes they come from.
        opt_frac: Mean recorded OptFrac with its interval over seeds.
        suff_fail: SuffFailFreq (no optimal pull in the second half), a fraction.
        n_suff_fail: Episodes that suffix-failed.
        min_frac: Mean MinFrac (K-normalised) with its interval, or None.
        min_frac_note: Why MinFrac is missing, when it is.

    """

    n_episodes: int
    opt_frac: Interval | None
    suff_fail: float
    n_suff_fail: int
    min_frac: Interval | None
    min_frac_note: str | None


@dataclass(frozen=True)
class RegretRow:
    """Regret of one run (one player, in games) on one configuration.

    Attributes:
        task: The env configuration.
        run: The run's label.
        curve: The recorded per-step series (``regret`` or ``<player>/regret``).
        player: The player whose regret it is, for multi-agent envs.
        summary: Final regret, mean curve and sublinearity verdict.
        band: The mean cumulative regret curve with its pointwise interval.
        exploration: Bandit exploration statistics, where the env records OptFrac.

    """

    task: TaskKey
    run: str
    curve: str
    player: str | None
    summary: RegretSummary
    band: CurveBand
    exploration: ExplorationRow | None

    @property
    def who(self) -> str:
        """The run's label, with the player for multi-agent envs."""
        return self.run if self.player is None else f"{self.run} · {self.player}"


@dataclass(frozen=True)
class InfraRow:
    """Infrastructure errors of one run on one configuration, with the commonest messages."""

    task: TaskKey
    run: str
    count: int
    messages: tuple[tuple[str, int], ...]


@dataclass
class ReportTables:
    """Every table of a report, and the notes that go with them.

    Attributes:
        settings: How intervals were drawn.
        tasks: The env configurations, in protocol order (see ``load.task_keys``).
        outcomes: One row per (task, run) with records.
        players: Per-player rows of multi-agent tasks.
        pass_at_k: One row per (task, run, k), when a run has more than one attempt.
        max_attempts: Attempts per problem the runs ask for (k goes up to it).
        regret: One row per (task, run, regret curve).
        infra: Infrastructure errors per (task, run).
        items: Per-item rows, for envs that name the item each seed picks (see
            :mod:`~envsuite.evaluation.report.items`).
        games: Win rates and ratings of games with winners (see
            :mod:`~envsuite.evaluation.report.games`).
        notes: Remarks on partial runs, skipped numbers and their reasons.
        warnings: Remarks that call the results themselves into question.

    """

    settings: Settings
    tasks: list[TaskKey]
    outcomes: list[OutcomeRow] = field(default_factory=list)
    players: list[PlayerRow] = field(default_factory=list)
    pass_at_k: list[PassAtKRow] = field(default_factory=list)
    max_attempts: int = 1
    regret: list[RegretRow] = field(default_factory=list)
    infra: list[InfraRow] = field(default_factory=list)
    items: list[ItemRow] = field(default_factory=list)
    games: GameTables = field(default_factory=GameTables)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _by_task(records: Sequence[EpisodeRecord]) -> dict[TaskKey, list[EpisodeRecord]]:
    groups: dict[TaskKey, list[EpisodeRecord]] = defaultdict(list)
    for record in records:
        groups[task_key(record)].append(record)
    return groups


def _players(records: Sequence[EpisodeRecord]) -> tuple[str, ...]:
    names = {
        name for r in records if isinstance(r.episode_return, dict) for name in r.episode_return
    }
    return tuple(sorted(names))


def _outcome(
    task: TaskKey, run: Run, records: list[EpisodeRecord], settings: Settings
) -> tuple[OutcomeRow, list[PlayerRow]]:
    normal, errors = split_infra_errors(records)
    players = _players(normal)

    def mean(value: RecordValue) -> SeedMean | None:
        return seed_mean_interval(
            records, value, reps=settings.reps, confidence=settings.confidence, seed=settings.seed
        )

    row = OutcomeRow(
        task=task,
        run=run.label,
        n_records=len(records),
        n_ran=len(normal),
        n_infra_errors=len(errors),
        expected=run.expected_by_task().get(task),
        success=mean(field_value("success")),
        mean_return=None if players else mean(field_value("return")),
        score=mean(field_value("score")),
        players=players,
        efficiency=mean(metric_value("efficiency")),
        n_seeds=len({record.seed for record in normal}),
    )
    player_rows = [
        PlayerRow(
            task=task,
            run=run.label,
            player=player,
            mean_return=mean(field_value("return", player)),
            success=mean(metric_value(f"{player}/success")),
        )
        for player in players
    ]
    return row, player_rows


def _pass_at_k(task: TaskKey, run: Run, records: list[EpisodeRecord], tables: ReportTables) -> None:
    counts = count_attempts(records)
    if not any(problem.n for problem in counts):
        return
    k_max = min(problem.n for problem in counts)
    where = f"{run.label} on {task_label(task)}"
    if k_max < tables.max_attempts:
        short = min(counts, key=lambda problem: problem.n)
        tables.notes.append(
            f"pass@k of {where} stops at k = {k_max}: seed {short.problem[-1]} has {short.n} "
            f"attempt(s) that ran of {tables.max_attempts} ({short.infra_errors} infrastructure "
            "errors; a partial run holds fewer)"
        )
    settings = tables.settings
    for k in range(1, k_max + 1):
        result = pass_at_k_from_records(
            records, k, reps=settings.reps, confidence=settings.confidence, seed=settings.seed
        )
        tables.pass_at_k.append(PassAtKRow(task, run.label, result))


def _num_arms(task: TaskKey, records: Sequence[EpisodeRecord]) -> int | None:
    try:
        value = registry[task[1]].canonical_kwargs(records[0].env_kwargs).get("num_arms")
    except EnvsuiteError:
        return None
    return value if isinstance(value, int) else None


def _exploration(
    task: TaskKey, records: list[EpisodeRecord], summary: RegretSummary, settings: Settings
) -> ExplorationRow | None:
    normal, _ = split_infra_errors(records)
    if not normal or not all("opt_frac" in record.metrics for record in normal):
        return None
    _, suff_fail = exploration_from_records(records)
    num_arms = _num_arms(task, normal)
    min_frac: Interval | None = None
    note: str | None = None
    if num_arms is None:
        note = "the number of arms is unknown for this env"
    elif any(integer_actions(record) is None for record in normal):
        note = "needs the arm pulled per step (an arm curve or integer actions)"
    else:
        try:
            min_frac = bootstrap_interval(
                min_frac_from_records(records, num_arms),
                reps=settings.reps,
                confidence=settings.confidence,
                seed=settings.seed,
            )
        except ValueError as exc:
            note = str(exc)
    return ExplorationRow(
        n_episodes=len(normal),
        opt_frac=summary.opt_frac,
        suff_fail=suff_fail,
        n_suff_fail=round(suff_fail * len(normal)),
        min_frac=min_frac,
        min_frac_note=note,
    )


def _regret(task: TaskKey, run: Run, records: list[EpisodeRecord], tables: ReportTables) -> None:
    normal, _ = split_infra_errors(records)
    names = sorted(
        {name for r in normal for name in r.curves if name == "regret" or name.endswith("/regret")}
    )
    settings = tables.settings
    reps, confidence, seed = settings.reps, settings.confidence, settings.seed
    for name in names:
        try:
            summary = regret_summary(records, name, reps=reps, confidence=confidence, seed=seed)
            band = curve_band(
                regret_curves_by_seed(records, name), reps=reps, confidence=confidence, seed=seed
            )
        except ValueError as exc:
            tables.notes.append(
                f"regret ({name}) of {run.label} on {task_label(task)} not summarised: {exc}"
            )
            continue
        player = name.rsplit("/", 1)[0] if "/" in name else None
        exploration = _exploration(task, records, summary, settings) if player is None else None
        tables.regret.append(RegretRow(task, run.label, name, player, summary, band, exploration))


def _infra(task: TaskKey, run: Run, records: list[EpisodeRecord]) -> InfraRow | None:
    _, errors = split_infra_errors(records)
    if not errors:
        return None
    counts = Counter(str(record.infra_error) for record in errors)
    quoted = tuple(
        (message if len(message) <= QUOTE_LENGTH else message[: QUOTE_LENGTH - 1] + "…", count)
        # equal counts in message order, not in the order the records came in
        for message, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[
            :QUOTED_ERRORS
        ]
    )
    return InfraRow(task, run.label, len(errors), quoted)


def _run_notes(run: Run, tables: ReportTables) -> None:
    tables.notes.extend(run.notes)
    expected = run.expected_episodes
    held = len(run.records)
    if expected is not None and held < expected:
        tables.notes.append(
            f"{run.label} ({run.path}) is a partial run: it holds {held} of the {expected} "
            "episodes its protocol asks for; every number is computed from the episodes it "
            "holds (running the evaluation again on the directory resumes it)"
        )
    if expected is not None:
        held_tasks = {task_key(record) for record in run.records}
        for task in run.expected_by_task():
            if task not in held_tasks:
                tables.notes.append(f"{run.label} holds no episode of {task_label(task)} yet")
    if all(record.infra_error is not None for record in run.records):
        tables.warnings.append(
            f"every one of the {held} episodes of {run.label} ({run.path}) is an "
            "infrastructure error: the run says nothing about the agent"
        )


def _spec_hash_notes(runs: Sequence[Run], tables: ReportTables) -> None:
    for task in tables.tasks:
        hashes = {r.spec_hash for run in runs for r in run.records if task_key(r) == task}
        if len(hashes) > 1:
            tables.warnings.append(
                f"records of {task_label(task)} carry {len(hashes)} different spec hashes: "
                "the env or its data changed between episodes, so they may not be comparable"
            )


def _rotated(run: Run) -> bool:
    """Whether the run's plays of a seed are seatings (``seat_rotation``), not attempts."""
    return run.protocol is not None and run.protocol.seat_rotation != "none"


def _max_attempts(runs: Sequence[Run]) -> int:
    asked = [run.protocol.attempts for run in runs if run.protocol is not None]
    held = [record.attempt + 1 for run in runs if not _rotated(run) for record in run.records]
    return max(asked + held)


def build_tables(runs: Sequence[Run], settings: Settings) -> ReportTables:
    """Compute every table of a report from the runs' records.

    Args:
        runs: Loaded runs of one task protocol (see
            :func:`~envsuite.evaluation.report.load.load_runs`).
        settings: Seed, resamples and coverage of every interval.

    Returns:
        The :class:`ReportTables`.

    """
    tables = ReportTables(settings=settings, tasks=task_keys(runs))
    tables.max_attempts = _max_attempts(runs)
    for run in runs:
        _run_notes(run, tables)
    _spec_hash_notes(runs, tables)
    grouped = [(run, _by_task(run.records)) for run in runs]
    for task in tables.tasks:
        for run, groups in grouped:
            records = groups.get(task)
            if not records:
                continue
            outcome, players = _outcome(task, run, records, settings)
            tables.outcomes.append(outcome)
            tables.players.extend(players)
            if tables.max_attempts > 1 and not _rotated(run):
                _pass_at_k(task, run, records, tables)
            _regret(task, run, records, tables)
            infra = _infra(task, run, records)
            if infra is not None:
                tables.infra.append(infra)
        games = game_rows(
            task,
            [(run.label, groups.get(task, [])) for run, groups in grouped],
            reps=settings.reps,
            confidence=settings.confidence,
            seed=settings.seed,
        )
        tables.games.returns.extend(games.returns)
        tables.games.win_rates.extend(games.win_rates)
        tables.games.ratings.extend(games.ratings)
        tables.games.exploitability.extend(games.exploitability)
        tables.games.measures.extend(games.measures)
        tables.games.rated_runs.update(games.rated_runs)
        tables.notes.extend(games.notes)
        items, note = item_rows(
            task, [(run.label, groups.get(task, [])) for run, groups in grouped]
        )
        tables.items.extend(items)
        if note is not None:
            tables.notes.append(note)
    return tables
