"""``report.md``: the tables, how each number was computed and from how many records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.metrics.sublinearity import LINEAR_EXPONENT, verdict_rule
from envsuite.evaluation.report.formatting import (
    MISSING,
    interval,
    markdown_table,
    number,
    percent,
    seed_mean,
    short_task,
)
from envsuite.evaluation.report.games_markdown import games_section
from envsuite.evaluation.report.load import Run
from envsuite.evaluation.report.screens import ScreenStrip, screens_section
from envsuite.evaluation.report.tables import RegretRow, ReportTables


@dataclass(frozen=True)
class Figures:
    """File names (relative to the report) of the figures that were drawn."""

    outcomes: str | None = None
    pass_at_k: str | None = None
    ratings: Mapping[TaskKey, str] = field(default_factory=dict)
    regret: Mapping[TaskKey, str] = field(default_factory=dict)
    screens: Sequence[ScreenStrip] = ()


def _protocol_line(runs: Sequence[Run]) -> list[str]:
    protocol = next((run.protocol for run in runs if run.protocol is not None), None)
    if protocol is None:
        return [
            f"Task: `{runs[0].records[0].task_id or '(ad hoc)'}` (no run.json: protocol unknown).",
            "",
        ]
    seeds = protocol.seed_values()
    shown = (
        f"{seeds[0]}..{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else str(seeds)
    )
    rotation = (
        ""
        if protocol.seat_rotation == "none"
        else f" Seat rotation `{protocol.seat_rotation}`: every seed is played once per seating "
        "of the agents (recorded as the episode's agent id)."
    )
    return [
        f"Task protocol: `{protocol.id}` v{protocol.version}: {len(protocol.envs)} env "
        f"configuration(s), {len(seeds)} seed(s) ({shown}), {protocol.attempts} attempt(s) per "
        f"seed.{rotation}",
        "",
    ]


def _runs(runs: Sequence[Run], tables: ReportTables) -> list[str]:
    settings = tables.settings
    rows = [
        [
            run.label,
            run.agent,
            f"`{run.path}`",
            run.run_id or MISSING,
            len(run.records),
            MISSING if run.expected_episodes is None else run.expected_episodes,
        ]
        for run in runs
    ]
    return [
        "## Runs",
        "",
        *markdown_table(
            ["run", "agent", "directory", "run id", "records", "episodes the protocol asks for"],
            rows,
        ),
        "Every number below is computed from these records only. Every interval is a "
        f"{percent(settings.confidence)} percentile bootstrap interval with "
        f"{settings.reps} resamples drawn by a generator seeded with **{settings.seed}** "
        "(`--seed`), except the Wilson intervals of game win rates; the same records and "
        "seed give the same numbers.",
        "",
    ]


def _remarks(tables: ReportTables) -> list[str]:
    lines: list[str] = []
    if tables.warnings:
        lines += ["## Warnings", "", *[f"- **Warning:** {w}" for w in tables.warnings], ""]
    if tables.notes:
        lines += ["## Notes", "", *[f"- {note}" for note in tables.notes], ""]
    return lines


def _outcomes(tables: ReportTables, figures: Figures) -> list[str]:
    efficiency = any(row.efficiency for row in tables.outcomes)
    rows = [
        [
            short_task(row.task),
            row.run,
            row.n_records if row.expected is None else f"{row.n_records} of {row.expected}",
            row.n_ran,
            row.n_infra_errors,
            row.n_seeds,
            seed_mean(row.success, row.n_ran),
            "per player (below)" if row.players else seed_mean(row.mean_return, row.n_ran),
            seed_mean(row.score, row.n_ran),
            *([seed_mean(row.efficiency, row.n_ran)] if efficiency else []),
        ]
        for row in tables.outcomes
    ]
    lines = [
        "## Outcomes per env configuration",
        "",
        "Success rate, mean return and mean score of each row come from its `ran` episodes: "
        "the attempts at each seed are averaged, then the seeds; intervals resample seeds "
        "(rliable's stratified bootstrap, one stratum per row). Infrastructure errors are "
        "counted apart and are in no statistic. A number defined by fewer episodes than "
        "`ran` shows its own n; — means no episode defines it."
        + (
            " Efficiency (where the env knows the shortest win) is the shortest win's "
            "length over the turns taken, 0 for an episode not won."
            if efficiency
            else ""
        ),
        "",
        *markdown_table(
            [
                "env configuration",
                "agent",
                "records",
                "ran",
                "infra errors",
                "seeds",
                "success rate",
                "mean return",
                "mean score",
                *(["efficiency"] if efficiency else []),
            ],
            rows,
        ),
    ]
    if figures.outcomes:
        lines += [f"![outcomes per env configuration]({figures.outcomes})", ""]
    if tables.players:
        ran = {(row.task, row.run): row.n_ran for row in tables.outcomes}
        player_rows = [
            [
                short_task(p.task),
                p.run,
                p.player,
                MISSING if p.mean_return is None else p.mean_return.n_episodes,
                seed_mean(p.mean_return, ran[(p.task, p.run)]),
                seed_mean(p.success, ran[(p.task, p.run)]),
            ]
            for p in tables.players
        ]
        lines += [
            "### Per player",
            "",
            "Each player's return, and its success where the env records "
            '`metrics["<player>/success"]`, computed as above.',
            "",
            *markdown_table(
                ["env configuration", "agent", "player", "episodes", "mean return", "success rate"],
                player_rows,
            ),
        ]
    return lines


def _pass_at_k(tables: ReportTables, figures: Figures) -> list[str]:
    if not tables.pass_at_k:
        return []
    rows = [
        [
            short_task(row.task),
            row.run,
            row.result.k,
            row.result.n_problems,
            row.result.n_attempts,
            row.result.n_successes,
            interval(row.result.pass_at_k),
            interval(row.result.pass_hat_k),
        ]
        for row in tables.pass_at_k
    ]
    lines = [
        "## pass@k",
        "",
        f"k = 1..{tables.max_attempts}. A problem is an env configuration and a seed; per "
        "problem with n attempts that ran and c successes, pass@k = 1 − C(n−c, k)/C(n, k) "
        "(Chen et al., 2021) and pass^k = C(c, k)/C(n, k) (Yao et al., 2024), averaged over "
        "problems; intervals resample problems. Infrastructure errors are in neither n nor c.",
        "",
        *markdown_table(
            [
                "env configuration",
                "agent",
                "k",
                "problems",
                "attempts",
                "successes",
                "pass@k",
                "pass^k",
            ],
            rows,
        ),
    ]
    if figures.pass_at_k:
        lines += [f"![pass@k over k]({figures.pass_at_k})", ""]
    return lines


def _p_value(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.3g}"


def _verdict_rows(rows: Sequence[RegretRow]) -> list[list[object]]:
    table: list[list[object]] = []
    for row in rows:
        verdict = row.summary.sublinearity
        trend = verdict.scaled_trend
        table.append(
            [
                row.who,
                f"`{row.curve}`",
                row.summary.n_episodes,
                row.summary.mean_curve.size,
                interval(row.summary.final_regret),
                number(verdict.slope),
                f"{trend.trend} (S = {trend.s}, z = {trend.z:.2f}, {_p_value(trend.p_value)})",
                f"**{verdict.verdict}**",
            ]
        )
    return table


def _exploration_rows(rows: Sequence[RegretRow]) -> list[list[object]]:
    table: list[list[object]] = []
    for row in rows:
        found = row.exploration
        if found is None:
            continue
        min_frac = interval(found.min_frac) if found.min_frac else f"— ({found.min_frac_note})"
        table.append(
            [
                row.who,
                found.n_episodes,
                interval(found.opt_frac),
                min_frac,
                f"{number(found.suff_fail)} ({found.n_suff_fail} of {found.n_episodes})",
            ]
        )
    return table


def _regret(tables: ReportTables, figures: Figures) -> list[str]:
    if not tables.regret:
        return []
    lines = [
        "## Regret",
        "",
        "R_t = Σ_{s≤t} r_s from each episode's recorded per-step series (`curves`); the "
        "attempts at one seed are averaged first, the curve is the mean over seeds, its band "
        "a pointwise interval resampling seeds. Final regret: mean R_T with an interval "
        "resampling seeds. Tests on the mean curve. " + verdict_rule(),
        "",
    ]
    for task in tables.tasks:
        rows = [row for row in tables.regret if row.task == task]
        if not rows:
            continue
        lines += [f"### {short_task(task)}", ""]
        if task in figures.regret:
            lines += [f"![regret on {short_task(task)}]({figures.regret[task]})", ""]
        lines += markdown_table(
            [
                "agent",
                "curve",
                "episodes",
                "T",
                "final regret R_T",
                "log-log slope",
                f"trend of R_t / t^{LINEAR_EXPONENT:g} (Mann–Kendall)",
                "verdict",
            ],
            _verdict_rows(rows),
        )
        exploration = _exploration_rows(rows)
        if exploration:
            lines += [
                "Exploration: OptFrac = fraction of pulls of an optimal arm (recorded per "
                "episode; interval resamples episodes); MinFrac = K × the least-pulled arm's "
                "share (1: uniform, 0: an arm never tried); SuffFailFreq = share of episodes "
                "with no optimal pull in their second half.",
                "",
                *markdown_table(
                    ["agent", "episodes", "OptFrac", "MinFrac", "SuffFailFreq"], exploration
                ),
            ]
    return lines


def _items(tables: ReportTables) -> list[str]:
    if not tables.items:
        return []
    lines = [
        "## Per item",
        "",
        "Episodes that succeeded of those that ran, per item (the problem each seed's episode "
        "works on, as its env names it: an SWE task's instance id, ...).",
        "",
    ]
    for task in tables.tasks:
        rows = [row for row in tables.items if row.task == task]
        if not rows:
            continue
        runs = [result.run for result in rows[0].results]
        solved = [sum(row.results[i].successes > 0 for row in rows) for i in range(len(runs))]
        summary = ", ".join(
            f"{run}: {n} of {len(rows)}" for run, n in zip(runs, solved, strict=True)
        )
        lines += [f"### {short_task(task)}", "", f"Items solved at least once: {summary}.", ""]
        table = [
            [f"`{row.item}`", ", ".join(map(str, row.seeds)), *(r.cell() for r in row.results)]
            for row in rows
        ]
        lines += markdown_table(["item", "seeds", *runs], table)
    return lines


def _infra(tables: ReportTables) -> list[str]:
    if not tables.infra:
        return []
    rows = [
        [
            short_task(row.task),
            row.run,
            row.count,
            "; ".join(f"{count} × `{message}`" for message, count in row.messages),
        ]
        for row in tables.infra
    ]
    return [
        "## Infrastructure errors",
        "",
        "Episodes lost to the infrastructure (env crash, unreachable endpoint, ...), not to "
        "the agent; they are left out of every number above.",
        "",
        *markdown_table(["env configuration", "agent", "episodes", "commonest messages"], rows),
    ]


def render_markdown(runs: Sequence[Run], tables: ReportTables, figures: Figures) -> str:
    """The whole ``report.md``.

    Args:
        runs: The runs reported.
        tables: Their tables (see :func:`~envsuite.evaluation.report.tables.build_tables`).
        figures: The figures drawn, by file name relative to the report.

    Returns:
        Markdown text ending in a newline.

    """
    title = "envsuite report" if len(runs) == 1 else f"envsuite report: {len(runs)} runs compared"
    lines = [
        f"# {title}",
        "",
        *_protocol_line(runs),
        *_runs(runs, tables),
        *_remarks(tables),
        *_outcomes(tables, figures),
        *_pass_at_k(tables, figures),
        *_regret(tables, figures),
        *games_section(tables, figures.ratings),
        *screens_section(figures.screens),
        *_items(tables),
        *_infra(tables),
    ]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"
