"""The report's main tables as rich renderables, for the terminal."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from envsuite.evaluation.metrics.game_outcomes import DIMENSION_TITLES
from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.metrics.sublinearity import LINEAR_EXPONENT
from envsuite.evaluation.report.formatting import interval, number, percent, seed_mean, short_task
from envsuite.evaluation.report.labels import one_line_labels
from envsuite.evaluation.report.tables import ReportTables


def _table(title: str, headers: list[str]) -> Table:
    table = Table(title=title, title_justify="left")
    for header in headers:
        table.add_column(header, overflow="fold")
    return table


def env_labels(tables: ReportTables) -> dict[TaskKey, str]:
    """The env column: env name and the kwargs that tell configurations apart."""
    return one_line_labels(tables.tasks, always_env=True)


def _row(table: Table, *cells: object) -> None:
    # Text, not markup: env kwargs hold brackets that rich would read as styles.
    table.add_row(*(Text(str(cell)) for cell in cells))


def outcome_table(tables: ReportTables) -> Table:
    """Outcomes per (env configuration, run)."""
    names = env_labels(tables)
    coverage = percent(tables.settings.confidence)
    efficiency = any(row.efficiency for row in tables.outcomes)
    table = _table(
        f"outcomes ({coverage} CI, bootstrap seed {tables.settings.seed})",
        ["env", "agent", "ran", "infra", "success rate", "mean return", "mean score"]
        + (["efficiency"] if efficiency else []),
    )
    for row in tables.outcomes:
        _row(
            table,
            names[row.task],
            row.run,
            row.n_ran,
            row.n_infra_errors,
            seed_mean(row.success, row.n_ran),
            "per player" if row.players else seed_mean(row.mean_return, row.n_ran),
            seed_mean(row.score, row.n_ran),
            *([seed_mean(row.efficiency, row.n_ran)] if efficiency else []),
        )
    return table


def player_table(tables: ReportTables) -> Table | None:
    """Per-player returns of multi-agent envs (None without any)."""
    names = env_labels(tables)
    if not tables.players:
        return None
    table = _table("per player", ["env", "agent", "player", "mean return", "success rate"])
    for row in tables.players:
        n = row.mean_return.n_episodes if row.mean_return else 0
        _row(
            table,
            names[row.task],
            row.run,
            row.player,
            seed_mean(row.mean_return, n),
            seed_mean(row.success, n),
        )
    return table


def pass_at_k_table(tables: ReportTables) -> Table | None:
    """pass@k and pass^k per k (None without repeated attempts)."""
    names = env_labels(tables)
    if not tables.pass_at_k:
        return None
    table = _table("pass@k", ["env", "agent", "k", "problems", "pass@k", "pass^k"])
    for row in tables.pass_at_k:
        result = row.result
        _row(
            table,
            names[row.task],
            row.run,
            result.k,
            result.n_problems,
            interval(result.pass_at_k),
            interval(result.pass_hat_k),
        )
    return table


def regret_table(tables: ReportTables) -> Table | None:
    """Final regret, log-log slope and verdict per regret curve (None without any)."""
    names = env_labels(tables)
    if not tables.regret:
        return None
    table = _table(
        "regret",
        [
            "env",
            "agent",
            "episodes",
            "final regret",
            "slope",
            f"R_t/t^{LINEAR_EXPONENT:g} trend",
            "verdict",
        ],
    )
    for row in tables.regret:
        verdict = row.summary.sublinearity
        _row(
            table,
            names[row.task],
            row.who,
            row.summary.n_episodes,
            interval(row.summary.final_regret),
            number(verdict.slope),
            verdict.scaled_trend.trend,
            verdict.verdict,
        )
    return table


def agent_return_table(tables: ReportTables) -> Table | None:
    """Mean returns by agent, seat, role and team of multi-agent runs (None without any)."""
    names = env_labels(tables)
    rows = tables.games.returns
    if not rows:
        return None
    coverage = percent(tables.settings.confidence)
    table = _table(
        f"mean return by agent ({coverage} CI resampling episodes)",
        ["env", "agent (run)", "by", "group", "trials", "mean return"],
    )
    for row in rows:
        mean = row.mean
        _row(
            table,
            names[row.task],
            row.run,
            DIMENSION_TITLES[mean.dimension],
            mean.group,
            mean.trials,
            interval(mean.mean_return),
        )
    return table


def win_rate_table(tables: ReportTables) -> Table | None:
    """Win rates of games by agent, seat, role and team (None without game outcomes)."""
    names = env_labels(tables)
    rows = tables.games.win_rates
    if not rows:
        return None
    coverage = percent(tables.settings.confidence)
    table = _table(
        f"win rates ({coverage} Wilson CI; draws are not wins)",
        ["env", "agent (run)", "by", "group", "trials", "W/D/L", "win rate"],
    )
    for row in rows:
        rate = row.rate
        _row(
            table,
            names[row.task],
            row.run,
            DIMENSION_TITLES[rate.dimension],
            rate.group,
            rate.trials,
            f"{rate.wins}/{rate.draws}/{rate.losses}",
            interval(rate.win_rate),
        )
    return table


def measure_table(tables: ReportTables) -> Table | None:
    """Per-player measures of games by role and team (report.md has every grouping)."""
    names = env_labels(tables)
    rows = [row for row in tables.games.measures if row.measure.dimension in ("role", "team")]
    if not rows:
        return None
    coverage = percent(tables.settings.confidence)
    table = _table(
        f"per-player measures by role and team ({coverage} CI resampling episodes)",
        ["env", "agent (run)", "measure", "by", "group", "seats", "mean"],
    )
    for row in rows:
        measure = row.measure
        _row(
            table,
            names[row.task],
            row.run,
            measure.key,
            DIMENSION_TITLES[measure.dimension],
            measure.group,
            measure.seats,
            interval(measure.mean),
        )
    return table


def rating_table(tables: ReportTables) -> Table | None:
    """Bradley–Terry and Elo ratings of the agents of games (None without any)."""
    names = env_labels(tables)
    rows = tables.games.ratings
    if not rows:
        return None
    coverage = percent(tables.settings.confidence)
    table = _table(
        f"ratings (Bradley–Terry, {coverage} CI resampling episodes; sequential Elo)",
        ["env", "agent", "matches", "score", "Bradley–Terry", "Elo"],
    )
    for row in rows:
        rating = row.rating
        _row(
            table,
            names[row.task],
            rating.agent,
            rating.matches,
            number(rating.score),
            interval(rating.bradley_terry),
            f"{rating.elo:.1f}",
        )
    return table


def item_tables(tables: ReportTables) -> list[Table]:
    """Episodes that succeeded per item, one table per env configuration that names items."""
    found = []
    for task in tables.tasks:
        rows = [row for row in tables.items if row.task == task]
        if not rows:
            continue
        runs = [result.run for result in rows[0].results]
        table = _table(f"per item (succeeded/ran): {short_task(task)}", ["item", *runs])
        for row in rows:
            _row(table, row.item, *(result.cell() for result in row.results))
        found.append(table)
    return found


def main_tables(tables: ReportTables) -> list[Table]:
    """The tables printed after a report is written, in order."""
    found = [
        player_table(tables),
        pass_at_k_table(tables),
        regret_table(tables),
        agent_return_table(tables),
        win_rate_table(tables),
        measure_table(tables),
        rating_table(tables),
    ]
    return [
        outcome_table(tables),
        *[table for table in found if table is not None],
        *item_tables(tables),
    ]
