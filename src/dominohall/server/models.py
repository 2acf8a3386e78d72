"""The REST API's bodies: what a client sends (strict: ``"5"`` is not 5) and what it gets
back (documented at ``/docs``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _no_surrogates(value: Any) -> Any:
    """Lone surrogates (invalid UTF-16 halves in JSON) are dropped from a display name."""
    if isinstance(value, str):
        return "".join(ch for ch in value if not 0xD800 <= ord(ch) <= 0xDFFF)
    return value


#: a display name as sent: cleaned by protocol.clean_name before anyone sees it
Name = Annotated[str, BeforeValidator(_no_surrogates)]


# --- requests ------------------------------------------------------------------------------

class Strict(BaseModel):
    model_config = ConfigDict(strict=True)     # "5" is not 5, true is not 1


class SeatSpec(Strict):
    kind: Literal["human", "bot"] = Field(description="'human': open for a friend; 'bot'")
    bot: str | None = Field(None, max_length=40,
                            description="bot level for a bot seat, e.g. 'greedy'")
    name: Name | None = Field(None, max_length=200,
                              description="display name (for the creator's own seat)")


class CreateTable(Strict):
    game: str = Field(max_length=40, description="mexican_train | all_fives | draw | block")
    preset: str | None = Field(None, max_length=40, description="an option preset, e.g. 'puremco'")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="RULES.md option name -> value")
    seats: list[SeatSpec] = Field(max_length=16)
    take_seat: int | None = Field(None, ge=0, lt=16,
                                  description="the creator sits here (a human seat)")
    name: Name | None = Field(None, max_length=200, description="the creator's display name")
    away_seconds: int = Field(30, description="an absent player's seat is played by a bot "
                                              "after this many seconds (0: never)")
    ready_seconds: int = Field(20, description="pause after a round for the summary (0: none)")
    turn_seconds: int = Field(0, description="turn timer: when a player's turn lasts this long "
                                             "the stand-in bot plays it for them (0: no timer)")
    away_bot: str = Field("greedy", max_length=40,
                          description="the bot that stands in for absent players "
                                      "and for turns that run out of time")
    seed: int | None = Field(None, ge=0, lt=2**256,
                             description="deal seed, only for a table without another human "
                                         "seat (random, 128 bits, when omitted)")
    public: bool = Field(False, description="list the table in the lobby (otherwise "
                                            "only its link leads to it)")
    hints: bool | None = Field(None, strict=True, description="allow the Hint button "
                               "(default: only when at most one human sits)")


class JoinSeat(Strict):
    token: str = Field(max_length=200, description="the invite token (or your seat secret, "
                                                   "to rename)")
    name: Name = Field(max_length=200)


class ActionIn(Strict):
    action: str = Field(max_length=200, description="action text, e.g. '12-5>t0', 'draw'")
    version: int = Field(ge=0, lt=2**31,
                         description="the version of the view the action was chosen from")
    seat: int | None = Field(None, ge=0, lt=16)
    token: str | None = Field(None, max_length=200,
                              description="seat secret (or header X-Seat-Token / cookie)")


# --- responses -----------------------------------------------------------------------------

class Out(BaseModel):
    """A response: exactly the keys the server sets (none added, none dropped)."""

    model_config = ConfigDict(extra="allow")


class PlayerRange(Out):
    min: int
    max: int
    default: int


class OptionInfo(Out):
    name: str
    default: Any = Field(description="the engine's default value")
    choices: list[Any]
    label: str
    help: str
    int_range: tuple[int, int] | None = Field(description="whole-number options: lowest, highest")
    choice_labels: dict[str, str] = Field(
        default_factory=dict, description="a value (as text) -> its English words for players")


class GameInfo(Out):
    name: str = Field(description="mexican_train | all_fives | draw | block")
    label: str
    players: PlayerRange
    presets: dict[str, dict[str, Any]] = Field(description="preset -> the options it sets")
    preset_labels: dict[str, dict[str, Any]]
    bots: list[str] = Field(description="bot levels, weakest first")
    bot_labels: dict[str, str]
    options: list[OptionInfo]


class Fairness(Out):
    commitment: str | None = Field(description="sha256 of the seed and nonce (see scheme)")
    scheme: str
    seed_chosen: bool = Field(description="the creator chose the seed (solo or all-bot table)")
    seed: str | None = Field(None, description="once the match is over")
    nonce: str | None = Field(None, description="once the match is over")
    ending: Literal["over", "expired"] | None = Field(None, description="once the match "
                                                      "is over: how the table ended")
    record_hash: str | None = Field(None, description="once the match is over: the final "
                                    "record's hash (see record_scheme), which "
                                    "python -m dominohall.server.fair checks")
    record_scheme: str | None = None


class SeatInfo(Out):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    connected: bool = Field(description="a bot, or a device of the seat is connected")
    controller: Literal["human", "bot", "away"] = Field(
        description="'away': the stand-in bot plays for an absent player")


class TurnClock(Out):
    seat: int
    left: float = Field(description="seconds left (0: the stand-in bot plays the turn)")


class Notice(Out):
    type: str
    seat: int | None = None
    time: int | None = None


class Invite(Out):
    seat: int
    kind: Literal["human", "bot"]
    name: str | None
    claimed: bool
    token: str | None = Field(None, description="the invite (only while nobody claimed it)")
    invite_url: str | None = None


class You(Out):
    seat: int | None = Field(description="your seat (None: a spectator)")
    host: bool = Field(description="you created this table")


class InviteCheck(Out):
    valid: bool = Field(description="the invite still opens a seat (False: used or retired)")
    seat: int | None = Field(None, description="the seat it opens, while valid")
    host: str | None = Field(None, description="the display name of the player who created "
                             "the table and sat down (the one who invites), while valid")


class AgainInfo(Out):
    from_: str = Field(alias="from", description="the finished table this one follows")
    by: int | None = Field(description="the seat (there and here) whose player asked first")
    name: str | None = Field(description="that player's name")
    left: float = Field(description="seconds until the seats still reserved are freed")
    reserved: list[int] = Field(description="seats kept for their players, not taken yet")
    free_as: Literal["bot", "invite"] = Field(description="what a seat not taken becomes")


class TableInfo(Out):
    id: str
    game: str
    status: Literal["waiting", "playing", "over", "expired"]
    seats: list[SeatInfo]
    spectators: int
    away_seconds: int
    ready_seconds: int
    turn_seconds: int
    turn: TurnClock | None
    hints: bool
    pause: float = Field(description="seconds the round-end pause still lasts")
    ready: list[int] = Field(description="the seats done reading the round's end")
    paused: bool = Field(description="nobody is connected: the bots wait")
    fairness: Fairness
    notices: list[Notice]
    next_table: str | None = Field(description="Play again's table, once made")
    again: AgainInfo | None = Field(None, description="a Play again table: its reservations")
    round: int
    players: int
    version: int | None = Field(None, description="in the lobby list: the table's version")
    you: You | None = None
    invites: list[Invite] | None = Field(None, description="for the host: every seat")
    invite: InviteCheck | None = Field(None, description="with ?invite=TOKEN: is it still good")


class Created(Out):
    id: str
    url: str
    spectator_url: str
    seat: int | None
    admin: str = Field(description="the host's token (also the dh_admin_ID cookie)")
    seats: list[Invite]
    fairness: Fairness
    seat_token: str | None = Field(None, description="your seat secret (take_seat)")


class Joined(Out):
    seat: int
    token: str = Field(description="your seat secret (also the dh_seat_ID cookie)")


class Reinvited(Out):
    seat: int
    token: str
    invite_url: str


class AgainIn(Strict):
    free_as: Literal["bot", "invite"] | None = Field(
        None, description="the host's choice, when the next table is made: a seat its "
                          "player does not take before the countdown ends is played by the "
                          "stand-in bot ('bot', the default) or gets an invite link ('invite')")


class Again(Out):
    id: str
    url: str
    seat: int | None
    seat_token: str | None = None


class Played(Out):
    version: int = Field(description="the table's version after your action")
