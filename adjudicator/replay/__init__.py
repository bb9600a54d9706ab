"""Rounds and whole games replayed move by move under one variant; the first illegal move is flagged with its
ruling.

:func:`replay` takes a round's log (:class:`~adjudicator.model.requests.Log`, read by
:func:`adjudicator.input.replay_log.replay_request`) -- the deal (hands in seat order as dealt, the discard
pile, the stock's count, who plays first) and what happened, in order: actions, each ``{player, action,
cards?}`` with the action exactly as ``/v1/adjudicate`` takes it and, for a draw, the cards it brought; and
events (:class:`~adjudicator.model.requests.Event`): red threes laid out and the cards that replaced them, the
question "may I go out?" and the partner's answer. It plays them on a table: hands, pile, each team's melds
and red threes, who has drawn, who melded before this turn, the partner's answer in force, the first time
round. Each action is ruled by the engine (:func:`adjudicator.rules.engine.rule`) in the situation the table
stands in -- the partner's answer as ``turn.partner_answer``, so the replay rules what follows an answer as
``/v1/adjudicate`` does -- then applied.

The replay stops at the first move the engine finds illegal, or that the log cannot hold (a card the player
does not hold, a move out of turn, a draw without its cards or bringing a card the deck cannot hold, an
answer nobody asked for, a move after the round ended): that move is ``first_illegal``, with its ruling or
its reason and where in the log the fault lies. It stops *undetermined* where what the rules leave open
decides whether the round goes on -- a draw from an empty stock the engine cannot rule, the stock's last card
a red three where the text does not say the round ends -- with the open point, never an invented outcome.

A turn's laying moves are one laying: the melds and additions a player writes as several moves after the
draw (and the discard that goes out, if the turn goes out) are ruled together as the one ``meld`` or
``go_out`` of the same cards, so that the two ways of writing a turn get the same verdict and the same score
(a concealed going-out written as melds and a discard earns its bonus).

A round ends where the rules say: a player goes out, a draw from an empty stock ends it, or the stock's last
card is a red three where the text stops the round there. An ended round is scored as ``/v1/score`` scores
its table (:func:`scored`, through the scorer the caller gives: this wing does not import scoring).
:func:`replay_game` replays a game's rounds in turn, each starting from the totals the last one left, and
scores the game as ``/v1/score`` scores its rounds.

Players take turns in seat order from the deal's first player; seats ``i`` and ``i + teams`` are one team
(seats 0 and 2 with four players). Red threes are laid out as the variants' texts say (``red_three.laid_out``,
``red_three.replaced``): drawn from the stock, each is laid out and, where the text replaces it, replaced by
the next card of the draw's ``cards``; taken with the pile, laid out without replacement; dealt, laid out by a
``lay_out`` event with the cards that replaced them. A log with no ``lay_out`` event (the form before events)
has the dealt red threes laid out before the first move, their replacements not in the log.
"""

from __future__ import annotations

from .events import event_step
from .moves import step
from .results import Entry, GameReplay, Replay, Scorer
from .rounds import replay, replay_game, scored
from .table import END_REASONS, End, Group, Stop, Table, new_table, situation_of

__all__ = ["END_REASONS", "End", "Entry", "GameReplay", "Group", "Replay", "Scorer", "Stop", "Table", "event_step",
           "new_table", "replay", "replay_game", "scored", "situation_of", "step"]
