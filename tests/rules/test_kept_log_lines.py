"""Log lines described once and kept (reading.Loaded.lines, issue 18) give
every viewer the log described afresh, at the end of every match the rules
tests script: a kept line is taken only once its event passed the viewer's
check, so a line private to one seat never reaches the other or a spectator."""

from __future__ import annotations

import pytest

from tracker.rules.visibility import log_for, log_line

from .test_fast_offers import play_scripted, recording


@pytest.fixture(scope="module")
def games():
    with pytest.MonkeyPatch.context() as monkeypatch, recording(monkeypatch) as (_states, made):
        play_scripted()
    return made


def kept(events) -> dict:
    return {seq: log_line(seq, event) for seq, event in events}


def test_kept_lines_give_each_viewer_the_log_described_afresh(games):
    private_lines = 0
    for game in games:
        events = list(enumerate(game.events, 1))
        lines = kept(events)
        for viewer in ("A", "B", None):
            assert log_for(game.state, events, viewer, lines) == log_for(game.state, events, viewer)
        private_lines += sum(1 for seq, event in events if event.private_to and lines[seq])
    assert private_lines > 10, "the matches log lines only one seat may read"


def test_a_kept_private_line_reaches_its_owner_alone(games):
    for game in games:
        events = list(enumerate(game.events, 1))
        lines = kept(events)
        for viewer in ("A", "B", None):
            shown = {line.seq for line in log_for(game.state, events, viewer, lines)}
            for seq, event in events:
                if event.private_to and lines[seq] is not None:
                    assert (seq in shown) == (viewer == event.private_to)


def test_the_check_finds_a_stale_kept_line(games):
    """A kept line that is not its event's (another seq's) is told apart."""
    game = max(games, key=lambda g: len(g.events))
    events = list(enumerate(game.events, 1))
    lines = kept(events)
    described = [seq for seq, line in lines.items() if line is not None]
    lines[described[-1]] = lines[described[-2]]
    assert log_for(game.state, events, "A", lines) != log_for(game.state, events, "A")
