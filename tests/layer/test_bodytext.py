"""A body's summary line: the first paragraph of a section, one line of plain text."""

from generator.layer.bodytext import section_paragraph


def test_the_first_paragraph_of_the_section_joined_into_one_line():
    body = "# T\n\n## Decision\n\nWe keep the cache\nper station.\n\nMore.\n"
    assert section_paragraph(body, "Decision") == "We keep the cache per station."


def test_a_list_gives_its_items_without_their_markers():
    body = ("## Decision\n\n- `parse_feed` converts to SI,\n  as it reads.\n"
            "* `Reading` names its unit.\n1. numbered\n2) too\n\n## Next\n")
    assert section_paragraph(body, "Decision") == (
        "`parse_feed` converts to SI, as it reads. `Reading` names its unit. numbered too")


def test_a_wrapped_line_that_looks_like_an_item_stays_text_outside_a_list():
    body = "## Decision\n\nThe format changed in\n2024. It stays.\n- a dash, kept\n"
    assert section_paragraph(body, "Decision") == (
        "The format changed in 2024. It stays. - a dash, kept")


def test_no_such_section_and_an_empty_one_give_nothing():
    assert section_paragraph("## Context\n\ntext\n", "Decision") is None
    assert section_paragraph("## Decision\n\n## Next\n", "Decision") is None
