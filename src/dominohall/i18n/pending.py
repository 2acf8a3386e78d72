"""Today's player-facing texts of the web client, for the catalogs.

The table and lobby branches wrap these in ``_()`` / ``t()`` where they are written
(the English text verbatim, placeholders named as below), so their translations are in
the catalogs before those branches land. Once they have landed, the extractor finds the
same messages where they are used and this list can shrink to nothing (``python -m
dominohall.i18n.scan`` lists what is still unwrapped).
"""

from __future__ import annotations

from . import N_, ngettext

WEB = (
    # games (api.js GAME_LABELS; the terminal's names)
    N_("Mexican Train"), N_("All Fives"), N_("Draw dominoes"), N_("Block dominoes"),
    N_("Draw Dominoes"), N_("Block Dominoes"),
    # the lobby (index.html, lobby.js)
    N_("lobby"), N_("Mexican Train and All Fives — with friends or bots"), N_("New table"),
    N_("Game"), N_("Players"), N_("Preset"), N_("Your name"), N_("e.g. Ana"), N_("Seats"),
    N_("Rules (house options)"), N_("Table"), N_("away seconds"),
    N_("a bot plays for a player who has been gone this long, until they return (0: never)"),
    N_("round summary seconds"),
    N_("after a round, bots wait until everyone clicks ready or this time runs out"),
    N_("turn seconds"),
    N_("turn timer: when a player's time runs out, the stand-in bot plays their turn "
       "(0: off)"),
    N_("Create table"), N_("Tables on this server"), N_("This preset sets {options}."),
    N_("seat {seat}"), N_("Seat {seat}"), N_("You"), N_("Open for a friend (invite link)"),
    N_("Bot: {bot}"), N_("default ({value})"), N_("number"), N_("{option} number"),
    N_("Your name, please."), N_("No tables yet."), N_("open seat"), N_("round {round}"),
    N_("waiting"), N_("playing"), N_("over"),
    # the table (table.html, table.js)
    N_("table"), N_("Invite"), N_("connection"), N_("board"), N_("players"), N_("Log"),
    N_("Scores"), N_("log"), N_("score sheet"), N_("your hand"), N_("Draw"), N_("Pass"),
    N_("End turn"), N_("connected"), N_("reconnecting…"), N_("Not connected — reconnecting…"),
    N_("You have one tile left!"), N_("{name} has one tile left!"),
    N_("{action} is not legal now"), N_("It is not your turn."), N_("{tile} has nowhere to go."),
    N_("Now click a lit target."), N_("Pick a tile from your hand first."),
    N_("{tile} cannot go there."), N_("Drop it on a lit target."),
    N_("Drop it on a lit target — or click one."), N_("waiting for players"),
    N_("match over"), N_("boneyard {n}"), N_("round {round}/{rounds}"), N_("hand {hand}"),
    N_("{seconds}s"), N_("{seconds}s left"), N_("time's up"),
    N_("time's up: the stand-in bot plays"), N_("{name}: {time}"),
    N_("Waiting for {seats} to join."), N_(" Send them their invite link (Invite)."),
    N_("You are watching: hands stay hidden until the round ends."), N_("you"),
    N_("bot · {bot}"), N_("away · bot plays"), N_("offline"), N_("team A"), N_("team B"),
    N_("score {score}"), N_("Mexican train"), N_("{name} (you)"),
    N_("{label} train, open end {end}"), N_("marker: open to everyone"), N_("marker: open"),
    N_("double to cover"), N_("not started"), N_("open end"), N_("engine"),
    N_("owed: {trains}"), N_("{name}'s train"), N_("end {end}: {value}"), N_("lead here"),
    N_("Count {count}"), N_("spinner {tile}"), N_("Spectating."),
    N_("Match over — {winners} won"), N_("Waiting for players to join"), N_("Your turn"),
    N_("{name}'s turn"), N_(" (round summary)"), N_("Round"), N_("Hand"), N_("Total"),
    N_("{name} went out"), N_("the game is blocked"), N_("target reached"),
    N_("Round {round} over"), N_("Round {round}: {reason}."), N_("Player"), N_("Tiles left"),
    N_("Pips"), N_("Points"), N_("Close"), N_("Back to the lobby"),
    N_("Waiting for the others…"), N_("Ready"), N_(" next round in {seconds}s"),
    N_("Continue"), N_("Copy"), N_("Link copied"), N_("Seat {seat} ({name})"),
    N_("Seat {seat} (open)"),
    N_("Each link opens one seat: send it only to the friend who should sit there."),
    N_("Spectators"), N_("Join the table"), N_("Display name "), N_("Take my seat"),
    N_("nobody"), N_("Language"),
    ngettext("{n} tile", "{n} tiles", 2), ngettext("Boneyard: {n} tile", "Boneyard: {n} tiles", 2),
)
