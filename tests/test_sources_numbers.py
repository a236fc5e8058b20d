import math

import pytest

from kraftstokk.sources.numbers import NotANumber, guess_decimal_mark, parse_number


@pytest.mark.parametrize(
    ("text", "decimal", "expected"),
    [
        ("960", ".", 960.0),
        ("2158.191", ".", 2158.191),
        ("1,234.5", ".", 1234.5),
        ("3 800,5", ",", 3800.5),
        ("1.234,5", ",", 1234.5),
        ("536,5", ",", 536.5),
        ("1\u00a0240", ",", 1240.0),
        ("-3", ".", -3.0),
        ("  ", ".", None),
        ("", ",", None),
        (None, ".", None),
        (12, ".", 12.0),
        (0.25, ",", 0.25),
    ],
)
def test_parse_number_reads_both_decimal_marks(text, decimal, expected):
    assert parse_number(text, decimal) == expected


@pytest.mark.parametrize(
    ("text", "decimal"),
    [
        ("ukjent", "."),
        ("12,5", "."),  # comma decimal in a '.' file: not guessed
        ("12.5", ","),  # point decimal in a ',' file: not guessed
        ("1.2.3", "."),
        ("nan", "."),
        ("inf", "."),
        (True, "."),
        (math.inf, "."),
    ],
)
def test_parse_number_refuses_ambiguous_or_non_numbers(text, decimal):
    with pytest.raises(NotANumber):
        parse_number(text, decimal)


@pytest.mark.parametrize(
    ("cells", "default", "expected"),
    [
        (["960", "536,5", "12"], ".", ","),
        (["960", "536.5"], ",", "."),
        (["1.234", "2.000"], ",", ","),  # only 3-digit groups: ambiguous, default wins
        (["1.234", "2.000"], ".", "."),
        (["1.234,5"], ".", ","),
        (["1,234.5"], ",", "."),
        ([], ".", "."),
    ],
)
def test_guess_decimal_mark(cells, default, expected):
    assert guess_decimal_mark(cells, default) == expected
