"""Account names: unique after the display-name clean-up and case folding, look-alikes
refused through the skeleton."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from dominohall.community import names, passwords
from dominohall.server.protocol import clean_name


def test_look_alikes_share_a_skeleton():
    base = names.skeleton("Pavel")
    for other in ("pavel", "PAVEL", "\u0420\u0430vel", "Pave1", "P\u0430vel\u200b",
                  "\uff30avel", "Pa\u0301vel", "Pa vel"):
        assert names.skeleton(other) == base, other


def test_different_names_do_not():
    plain = ["Ann", "Ben", "Anna", "Anne", "Ivan", "Олег", "Әлия", "Иван", "Мария", "Bob",
             "Dmitry", "Yerlan", "Жанна", "Zhanna", "Pablo", "Pedro"]
    assert len({names.skeleton(n) for n in plain}) == len(plain)


def test_lowercase_latin_letters_stay_apart_except_known_pairs():
    reps = {names.skeleton(ch) for ch in string.ascii_lowercase}
    assert len(reps) == 26              # no two Latin letters are one another's look-alike
    assert names.skeleton("l") == names.skeleton("1")


@given(st.text(max_size=40))
def test_key_and_skeleton_never_fail_and_agree_with_the_clean_up(text):
    key, skel = names.name_key(text), names.skeleton(text)
    assert key == names.name_key(clean_name(text))
    assert skel == names.skeleton(clean_name(text))
    if len(key) <= 24:                            # (folding may lengthen: ß -> ss)
        assert names.skeleton(key) == skel        # folding never changes the skeleton
    problem = names.name_problem(text)
    assert problem in (None, "account_name_short", "account_name_long")
    if problem is None:
        shown = names.display_name(text)
        assert 3 <= len(shown) <= 24 and shown == shown.strip()


@settings(deadline=None, max_examples=15)      # argon2 is slow on purpose
@given(st.text(min_size=8, max_size=30))
def test_password_hash_round_trip(password):
    if passwords.password_problem(password) is None:
        stored = passwords.hash_password(password)
        assert passwords.verify(stored, password)
        assert not passwords.verify(stored, password + "x")


def test_verify_never_raises_on_odd_stored_hashes():
    for stored in ("", "$argon2id$nonsense", "plain", "\x00"):
        assert passwords.verify(stored, "whatever123") is False
