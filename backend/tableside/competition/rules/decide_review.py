"""Withdrawals (EKML §32(3), NOVUS08 3.2), protests (EKML §9(7)), corrections, the finish."""

from . import commands as cmd
from . import events as ev
from .bracket_view import playable
from .clock import minutes_between
from .decide_entrants import entrant_of, guide_of
from .decide_play import withdrawal_forfeit
from .errors import require
from .evolve import evolve, fold
from .matches import all_slots, games_for, pairings, play_all_for, sides
from .placings import final_placings
from .result_check import check_length
from .results import forfeit_result
from .rulesets import policy, results_stand
from .state import Competition
from .teams import team_result
from .walkovers import walkovers


def withdraw(state: Competition, c: cmd.WithdrawEntrant) -> tuple:
    """A withdrawal: at the line results stand and unplayed matches are lost; below it
    everything is annulled and the entrant is not placed (EKML §32(3), NOVUS08 3.2)."""
    rules = policy(guide_of(state).ruleset)
    require(
        entrant_of(state, c.entrant_id).status != "withdrawn",
        rules.withdrawal_rule,
        "gone",
        "entrant_withdrawn",
    )
    played, total = _share(state, c.entrant_id)
    stand = state.bracket is not None or results_stand(rules, played, total)
    if not (state.order or state.bracket):
        return (ev.EntrantWithdrew(c.entrant_id, 0, 0, False, "EKML §9(4)", c.at),)
    rule = "EKML §9(4)" if _in_elimination(state, c.entrant_id) else rules.withdrawal_rule
    out: list = [ev.EntrantWithdrew(c.entrant_id, played, total, stand, rule, c.at)]
    out += _forfeits(state, c.entrant_id, c.at, rules.withdrawal_rule)
    return (*out, *walkovers(fold(out, state), c.at))


def _in_elimination(state: Competition, entrant: str) -> bool:
    """Whether the entrant stands in an elimination bracket or play-off: leaving it, they
    are removed and not placed (EKML §9(4)); their matches played stand."""
    seeded = [b.seeds for b in (state.bracket, state.playoff) if b is not None]
    return any(entrant in seeds for seeds in seeded)


def _share(state: Competition, entrant: str) -> tuple[int, int]:
    """Matches (round robin) or rounds (Swiss) played, out of all the event has; a match
    won because the opponent did not appear counts as played, one not appeared for does not."""
    played = sum(
        1
        for mid, rec in state.results.items()
        if entrant in (rec.a, rec.b)
        and not rec.result.withdrawal
        and state.no_shows.get(mid) != entrant
    )
    if state.bracket is not None:
        return played, played
    if state.guide.format == "round_robin":
        total = sum(1 for p in pairings(state).values() if entrant in (p.a, p.b))
        return played, total
    byes = sum(1 for r in state.rounds.values() if r.bye == entrant)
    return played + byes, state.guide.rounds


def _forfeits(state: Competition, entrant: str, at: str, rule: str) -> list:
    """Every paired match of the entrant still unplayed becomes a forfeit (a minus for
    them); bracket matches follow as they come up (walkovers)."""
    return [
        withdrawal_forfeit(p.match_id, p.a, p.b, entrant, games_for(state, p.match_id), at, rule)
        for p in pairings(state).values()
        if entrant in (p.a, p.b) and p.match_id not in state.results
    ]


def confirm_forfeit(state: Competition, c: cmd.ConfirmForfeit) -> tuple:
    """The head judge confirms the no-show as a lost match (EKML §9(3), §16(17)); under
    NOVUS08 3.2 a second such loss puts the player out, as a withdrawal."""
    rules = policy(guide_of(state).ruleset)
    absent = state.no_shows.get(c.match_id)
    require(
        absent is not None, rules.no_show_rule, "no no-show was reported", "no_no_show_reported"
    )
    require(
        c.match_id not in state.results,
        rules.no_show_rule,
        "the match has a result",
        "match_has_result",
    )
    a, b = sides(state, c.match_id)
    result = forfeit_result("b" if absent == a else "a", games_for(state, c.match_id))
    lost = ev.ResultRecorded(c.match_id, a, b, result, c.at, rules.no_show_rule)
    after = evolve(state, lost)
    count = sum(1 for m, who in after.no_shows.items() if who == absent and m in after.results)
    if rules.no_show_limit is None or count < rules.no_show_limit:
        return (lost, *walkovers(after, c.at))
    return (lost, *withdraw(after, cmd.WithdrawEntrant(absent, c.at)))


def file_protest(state: Competition, c: cmd.FileProtest) -> tuple:
    """A written protest about a result: cites a rule, follows an appeal made at once, and
    (EKML) comes within 1 hour of the match end (EKML §9(7); NOVUS08 3.4 sets no hour)."""
    rules = policy(guide_of(state).ruleset)
    rule = rules.protest_rule
    rec = state.results.get(c.match_id)
    require(rec is not None, rule, "the match has no result to protest", "nothing_to_protest")
    require(
        c.by in (rec.a, rec.b), rule, "only a player of the match may protest", "protest_by_player"
    )
    require(c.protest_id not in state.protests, rule, "protest already filed", "protest_filed")
    require(
        bool(c.rule_cited.strip()),
        rule,
        "the protest must cite the rule paragraph",
        "protest_cites_rule",
    )
    require(
        c.appealed_at_once,
        rule,
        "no appeal to the head judge at the disputed moment",
        "no_appeal_at_once",
    )
    if rules.protest_minutes is not None:
        late = minutes_between(rec.at, c.at) > rules.protest_minutes
        require(not late, rule, "more than 1 hour after the match ended", "protest_too_late")
    return (ev.ProtestFiled(c.protest_id, c.match_id, c.by, c.rule_cited, c.text, c.at),)


def decide_protest(state: Competition, c: cmd.DecideProtest) -> tuple:
    """The head judge decides a protest (EKML §12(2)3); upheld, it may correct the result."""
    guide_of(state)
    protest = state.protests.get(c.protest_id)
    require(protest is not None, "EKML §12(2)3", "no such protest", "no_such_protest")
    require(not protest.decided, "EKML §9(7)", "the decision is final", "decision_final")
    out: list = [ev.ProtestDecided(c.protest_id, c.upheld, c.note, c.at)]
    if c.upheld and c.corrected is not None:
        fix = cmd.CorrectResult(protest.match_id, c.corrected, f"protest {c.protest_id}", c.at)
        out += correct_result(fold(out, state), fix)
    return tuple(out)


def correct_result(state: Competition, c: cmd.CorrectResult) -> tuple:
    """Correct a result; bracket matches that no longer have the same entrants are voided
    (history is never rewritten: a correction is a new event, ARCHITECTURE.md)."""
    guide = guide_of(state)
    require(
        c.match_id in state.results, "EKML §12(3)5", "no result to correct", "no_result_to_correct"
    )
    check_length(guide, c.result, games_for(state, c.match_id), play_all_for(state, c.match_id))
    corrected = ev.ResultCorrected(c.match_id, c.result, c.reason, c.at)
    out = [corrected, *_invalidations(evolve(state, corrected), c.match_id)]
    return (*out, *walkovers(fold(out, state), c.at))


def correct_board(state: Competition, c: cmd.CorrectBoardResult) -> tuple:
    """A board's result corrected (EKML §12(3)5); a recorded team result that the boards no
    longer give is corrected with it (EKML §29(3): the boards add up), forfeits stand."""
    require(
        guide_of(state).teams is not None,
        "EKML §6(3)",
        "not a team competition",
        "not_team_competition",
    )
    boards = {**state.boards.get(c.match_id, {})}
    require(
        c.board in boards, "EKML §12(3)5", "the board has no result to correct", "board_no_result"
    )
    fixed = ev.BoardResultCorrected(c.match_id, c.board, c.result, c.reason, c.at)
    boards[c.board] = c.result
    recorded = state.results.get(c.match_id)
    team = team_result(boards)
    if recorded is None or recorded.result.forfeit or recorded.result == team:
        return (fixed,)
    corrected = ev.ResultCorrected(c.match_id, team, c.reason, c.at)
    out = [fixed, corrected, *_invalidations(fold([fixed, corrected], state), c.match_id)]
    return (*out, *walkovers(fold(out, state), c.at))


def _invalidations(state: Competition, source: str) -> list[ev.MatchInvalidated]:
    """Void, until nothing changes, every later match whose entrants the correction moved."""
    out: list[ev.MatchInvalidated] = []
    while True:
        stale = _stale(state)
        if not stale:
            return out
        void = ev.MatchInvalidated(
            stale, f"entrants changed after {source} was corrected", "EKML §12(3)5"
        )
        out.append(void)
        state = evolve(state, void)


def _stale(state: Competition) -> str | None:
    """The first bracket match (result or call) whose entrants differ from the bracket's."""
    current = all_slots(state)
    for mid, slot in current.items():
        rec = state.results.get(mid)
        if rec is not None and (rec.a, rec.b) != (slot.a, slot.b):
            return mid
        called = state.called_sides.get(mid)
        if rec is None and called is not None and called != (slot.a, slot.b):
            return mid
    return None


def finish(state: Competition, c: cmd.FinishCompetition) -> tuple:
    """The head judge confirms the results and the placings (EKML §12(2)6)."""
    guide_of(state)
    placed = final_placings(state)
    require(
        bool(placed),
        "EKML §12(2)6",
        "the competition has no final placings yet",
        "no_final_placings",
    )
    require(_all_played(state), "EKML §12(2)6", "matches are still unplayed", "matches_unplayed")
    return (ev.CompetitionFinished(placed, c.at),)


def _all_played(state: Competition) -> bool:
    """Every paired match has a result, unless it involves an annulled entrant; no bracket
    or play-off match (a third-place or consolation match too) is left to play."""
    gone = {e for e, w in state.withdrawals.items() if not w.results_stand}
    rounds_ok = all(
        p.match_id in state.results or gone & {p.a, p.b} for p in pairings(state).values()
    )
    swiss_done = state.guide.format not in ("swiss", "swiss_playoff") or (
        state.current_round >= state.guide.rounds
    )
    return rounds_ok and swiss_done and not playable(all_slots(state))
