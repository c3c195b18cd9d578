from generator.layer.yamlish import parse_yaml


def test_plain_scalar_with_colon_space_is_accepted_and_reported():
    result = parse_yaml("id: I1105\ntitle: Phase 4: the shell tool's knowledge\n")
    assert result.problem is None
    assert result.value["title"] == "Phase 4: the shell tool's knowledge"
    assert result.dialect_lines == [2]


def test_colon_value_folds_its_continuation_lines():
    text = "- id: workers\n  summary: Several agents: claimed scopes,\n    overlap, and who\n  order: 30\n"
    result = parse_yaml(text)
    assert result.value == [
        {"id": "workers", "summary": "Several agents: claimed scopes, overlap, and who", "order": 30}
    ]


def test_core_schema_scalars_dates_stay_text_and_leading_zeros_are_not_octal():
    result = parse_yaml(
        "date: 2026-09-15\nat: 2026-10-08T23:43:45Z\nn: 0052\nyes_word: yes\nb: true\nv: 2\nf: 0.5\nnil: ~\n"
    )
    assert result.value == {
        "date": "2026-09-15", "at": "2026-10-08T23:43:45Z", "n": "0052", "yes_word": "yes",
        "b": True, "v": 2, "f": 0.5, "nil": None,
    }


def test_broken_yaml_reports_line_and_column_with_offset():
    result = parse_yaml("a: 1\nb: [1, 2\nc: 3\n", line_offset=1)
    assert result.value is None
    assert result.problem is not None
    assert result.problem.line == 4 and result.problem.column == 2
    assert "flow sequence" in result.problem.message


def test_duplicate_keys_are_reported_last_wins():
    result = parse_yaml("a: 1\nb: 2\na: 3\n")
    assert result.value == {"a": 3, "b": 2}
    assert result.duplicate_keys == [("a", 3)]


def test_colon_inside_quoted_or_flow_values_needs_no_repair():
    result = parse_yaml("title: 'a: b'\nlist: [x, y]\nurl: http://example.org/a\n")
    assert result.problem is None and result.dialect_lines == []
    assert result.value["url"] == "http://example.org/a"
