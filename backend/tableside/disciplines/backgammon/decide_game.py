"""Deciders for the game: set-up, rolls and plays (KSI sections 4.1, 4.2)."""

from __future__ import annotations

from tableside.disciplines.backgammon import board, guards
from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.state import MatchState, other


def check_position(position: st.Sides) -> None:
    """A set-up that can be laid out: 26 counts a side, at most 15, no point shared."""
    if len(position) != 2 or any(len(s) != 26 for s in position):
        raise RuleViolation(
            k.SETUP,
            "a side is 26 counts (off, points 1-24, bar)",
            "position",
            code="bg_side_counts",
        )
    a, b = position
    if any(n < 0 for n in (*a, *b)) or sum(a) > 15 or sum(b) > 15:
        raise RuleViolation(
            k.SETUP, "0 to 15 checkers a side", "position", code="bg_checkers_per_side"
        )
    if any(a[p] and b[25 - p] for p in range(1, 25)):
        raise RuleViolation(k.SETUP, "both sides on one point", "position", code="bg_point_shared")


def start_game(state: MatchState, cmd: c.StartGame) -> list[ev.Event]:
    if not state.created:
        raise RuleViolation(k.RECORD, "no match has been created", code="bg_no_match_created")
    if state.over:
        raise RuleViolation(
            k.FINISH, "the match was played to its length", code="bg_match_played_out"
        )
    if state.game.phase != st.OVER:
        raise RuleViolation(
            k.FINISH, "the game in progress is played to its end", code="bg_game_in_progress"
        )
    position = cmd.position or (board.STANDARD, board.STANDARD)
    check_position(position)
    crawford = st.crawford_due(state)
    return [
        ev.GameStarted(
            game_no=state.games + 1,
            score=state.score,
            crawford=crawford,
            position=position,
            rule=k.CRAWFORD if crawford else k.CUBE_START,
        )
    ]


def roll_opening(state: MatchState, cmd: c.RollOpening) -> list[ev.Event]:
    guards.in_game(state)
    if state.game.phase != st.OPENING:
        raise RuleViolation(k.PLAY, "the opening roll is made", "die_a", code="bg_opening_rolled")
    guards.dice((cmd.die_a, cmd.die_b))
    starter = "" if cmd.die_a == cmd.die_b else ("A" if cmd.die_a > cmd.die_b else "B")
    return [ev.OpeningRolled(die_a=cmd.die_a, die_b=cmd.die_b, starter=starter, rule=k.PLAY)]


def roll(state: MatchState, cmd: c.Roll) -> list[ev.Event]:
    guards.in_game(state)
    guards.side(cmd.side)
    g = state.game
    if cmd.side != g.turn:
        return _early_roll(state, cmd)
    if g.phase not in (st.ROLL, st.ROLL_ONLY):
        raise RuleViolation(k.PLAY, "not the moment to roll", "side", code="bg_not_moment_to_roll")
    events = guards.implicit_accept(state, cmd.side)
    invalid = cmd.invalid or _left_of_bar(g, cmd)
    if invalid:
        return [*events, ev.InvalidRoll(side=cmd.side, reason=invalid, rule=k.LEGAL_ROLL)]
    guards.dice(cmd.dice)
    if _before_the_press(state, cmd.side):  # early, the reroll the opponent's (KSI 4.1.5.1)
        early = ev.DiceRolled(side=cmd.side, dice=cmd.dice, early=True, rule=k.COMPLETE_CLOCK)
        return [*events, early]
    return [*events, ev.DiceRolled(side=cmd.side, dice=cmd.dice, rule=k.LEGAL_ROLL)]


def _before_the_press(state: MatchState, side: str) -> bool:
    """With a clock a move is complete only when its player presses it (KSI 4.1.6.2): a roll
    is on time only while the roller's own time runs — before the opponent's press (his time
    still running, or nobody's yet) it comes before his move is complete."""
    clock = state.timer
    return clock is not None and not clock.stopped and clock.running != side


def _left_of_bar(g: st.GameState, cmd: c.Roll) -> str:
    """Left of the bar only with the opponent's permission (KSI 4.1.4.1)."""
    if cmd.left_of_bar and cmd.side not in g.left_of_bar:
        return "left of the bar without permission"
    return ""


def permit_left_of_bar(state: MatchState, cmd: c.PermitLeftOfBar) -> list[ev.Event]:
    guards.in_game(state)
    guards.side(cmd.side)
    if cmd.side in state.game.left_of_bar:
        raise RuleViolation(k.LEGAL_ROLL, "already permitted", "side", code="bg_already_permitted")
    return [ev.LeftOfBarPermitted(side=cmd.side, rule=k.LEGAL_ROLL)]


def end_left_of_bar(state: MatchState, cmd: c.EndLeftOfBar) -> list[ev.Event]:
    guards.in_game(state)
    if cmd.side not in state.game.left_of_bar:
        raise RuleViolation(
            k.LEGAL_ROLL, "no permission to end", "side", code="bg_no_permission_to_end"
        )
    return [ev.LeftOfBarEnded(side=cmd.side, rule=k.LEGAL_ROLL)]


def exchange_dice(state: MatchState, cmd: c.ExchangeDice) -> list[ev.Event]:
    """At the start of each game (KSI 4.1.3)."""
    guards.in_game(state)
    guards.side(cmd.side)
    if state.game.phase != st.OPENING:
        raise RuleViolation(
            k.DICE_EXCHANGE,
            "dice are exchanged at the start of a game",
            "side",
            code="bg_dice_exchange_at_start",
        )
    return [ev.DiceExchanged(side=cmd.side, rule=k.DICE_EXCHANGE)]


def _early_roll(state: MatchState, cmd: c.Roll) -> list[ev.Event]:
    """A roll before the opponent finished his move stands unless he asks (KSI 4.1.5.1)."""
    g = state.game
    if g.phase != st.MOVE or g.early_dice != (0, 0) or g.early_double:
        raise RuleViolation(k.PLAY, "it is the opponent's turn", "side", code="bg_opponents_turn")
    if cmd.invalid:
        return [ev.InvalidRoll(side=cmd.side, reason=cmd.invalid, rule=k.LEGAL_ROLL)]
    guards.dice(cmd.dice)
    return [ev.DiceRolled(side=cmd.side, dice=cmd.dice, early=True, rule=k.EARLY_ROLL)]


def require_reroll(state: MatchState, cmd: c.RequireReroll) -> list[ev.Event]:
    guards.in_game(state)
    g = state.game
    if not g.early_roll or g.phase != st.MOVE or cmd.side != other(g.turn):
        raise RuleViolation(
            k.EARLY_ROLL, "no early roll to reject", "side", code="bg_no_early_roll"
        )
    return [ev.RerollRequired(side=g.turn, rule=k.EARLY_ROLL)]


def play(state: MatchState, cmd: c.Play) -> list[ev.Event]:
    guards.in_game(state)
    g = state.game
    if cmd.side != g.turn or g.phase != st.MOVE:
        raise RuleViolation(k.PLAY, "not this player's move", "side", code="bg_not_players_move")
    me, opp = st.mine(state, cmd.side)
    board.check_physical(me, opp, cmd.moves)
    after = board.apply_play(me, opp, cmd.moves)
    legal = after in board.legal_plays(me, opp, g.dice)
    rule = (k.BAR_FIRST if me[board.BAR] else k.PLAY) if legal else k.ILLEGAL
    played = ev.PlayRecorded(
        side=cmd.side,
        dice=g.dice,
        moves=cmd.moves,
        legal=legal,
        position=st.as_sides(cmd.side, *after),
        rule=rule,
    )
    events: list[ev.Event] = [played]
    if not legal and g.early_double:  # the premature double accepts it (KSI 4.2.3.2)
        events.append(ev.IllegalPlayAccepted(side=g.early_double, rule=guards.accept_rule(state)))
    if legal or g.early_double:
        events += guards.end_if_borne_off(guards.then(state, events), cmd.side)
    return events


def accept_illegal(state: MatchState, cmd: c.AcceptIllegalPlay) -> list[ev.Event]:
    g = _pending_illegal(state, cmd.side)
    events: list[ev.Event] = [ev.IllegalPlayAccepted(side=cmd.side, rule=guards.accept_rule(state))]
    return events + guards.end_if_borne_off(guards.then(state, events), g.illegal[0])


def correct_illegal(state: MatchState, cmd: c.CorrectIllegalPlay) -> list[ev.Event]:
    """With a clock, the correction is asked for by stopping it (KSI 4.2.3.3, case 4.3.2.7)."""
    g = _pending_illegal(state, cmd.side)
    if state.timer is not None and not state.timer.stopped:
        raise RuleViolation(
            k.ILLEGAL_CLOCK,
            "stop the clock to ask for a correction",
            "side",
            code="bg_stop_clock_to_correct",
        )
    rule = guards.accept_rule(state)
    return [ev.IllegalPlayCorrected(side=cmd.side, position=g.illegal[1], rule=rule)]


def _pending_illegal(state: MatchState, side: str) -> st.GameState:
    guards.in_game(state)
    g = state.game
    if not g.illegal or side != other(g.illegal[0]) or g.phase not in (st.ROLL, st.MOVE):
        raise RuleViolation(
            k.ILLEGAL,
            "no illegal play of the opponent to answer",
            "side",
            code="bg_no_illegal_play",
        )
    if g.phase == st.MOVE and not g.early_roll:
        raise RuleViolation(
            k.ILLEGAL, "already accepted by rolling", "side", code="bg_accepted_by_rolling"
        )
    return g


def wrong_setup(state: MatchState, cmd: c.ReportWrongSetup) -> list[ev.Event]:
    """Found before the starter's second roll: corrected; after it: it stands (KSI 4.2.4)."""
    guards.in_game(state)
    g = state.game
    if g.setup_settled:
        raise RuleViolation(k.SETUP, "the set-up has already been settled", code="bg_setup_settled")
    if g.starter_rolls >= 2:
        return [ev.SetupStands(rule=k.SETUP)]
    position = cmd.position or (board.STANDARD, board.STANDARD)
    check_position(position)
    return [ev.SetupCorrected(position=position, rule=k.SETUP)]
