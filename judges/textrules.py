"""Lexical rules of the reference judge: reply segmentation and sentence-level cues.

An agent reply is split into *segments*: one per sentence (or ``;``-separated
piece), with the section it sits in. Sections come from headings the agents use
("Final diagnosis:", "Evidence:", "Next steps:", "Questions:", "Differential:"),
whether on their own line or inline ("Evidence: ALT 148 U/L; ..."). The judge then
asks each segment a few yes/no questions with the regexes below: is it a request
for information? a recommendation? a conditional or hedged statement? a statement
that something is missing or pending? a withdrawal of an earlier claim? does it
flag a conflict? does it reason toward a diagnosis?

Every rule is a named regex so that annotations can say which rule fired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from medgym.text.negation import NO_CUE
from medgym.text.sentences import split_sentences

Section = str  # "body" | "diagnosis" | "evidence" | "plan" | "questions" | "differential"

# ---- headings -----------------------------------------------------------------------
_HEADINGS: list[tuple[Section, re.Pattern[str]]] = [
    ("diagnosis", re.compile(
        r"^(?:final(?:\s+working)?\s+diagnosis|working\s+diagnosis|(?:most\s+likely|leading|provisional)\s+"
        r"diagnosis|diagnosis|assessment|(?:working|clinical|initial|current|overall)?\s*impression|"
        r"most\s+likely(?:\s+(?:cause|explanation))?|likely\s+diagnosis|"
        # note shorthand: "Imp:", "Dx:", "Working dx:", "A/P:", "Assessment & plan:" open the diagnosis
        r"imp|dx|diag|(?:working|provisional|likely|final|leading)\s+dx|a\s*[/&]\s*p|"
        r"(?:assessment|impression)\s*(?:and|&|/|\+)\s*plan)(?:\s+(?:now|today|currently|updated))?$", re.I)),
    ("evidence", re.compile(
        r"^(?:(?:supporting|key|main|clinical)\s+)?(?:evidence|findings|features)(?:\s+(?:supporting|for)\b.*)?$|"
        r"^(?:rationale|reasoning|justification|basis|why|supporting\s+data|evidence\s+from\s+this\s+case.*)$",
        re.I)),
    ("plan", re.compile(
        r"^(?:(?:recommended\s+|suggested\s+|immediate\s+)?next\s+steps|next|plan|management(?:\s+plan)?|"
        r"recommendations?|recommended|treatment|follow[\s-]?up(?:\s+plan)?|recommended\s+management|"
        r"actions?|to\s+do|disposition)$", re.I)),
    ("questions", re.compile(
        r"^(?:questions?|(?:further|additional|more)\s+(?:information|questions|tests|investigations|history)"
        r"(?:\s+(?:needed|required|requested|i\s+would\s+like|i'd\s+like|i\s+need|we\s+need))?|"
        r"information\s+(?:needed|required|requested)|"
        r"(?:(?:revised|updated|further|additional|outstanding|urgent)\s+)?requests?|tests?\s+(?:to\s+order|requested|needed|required|i\s+(?:would|will)\s+(?:order|request|like)|"
        r"i'd\s+(?:order|request|like)|i\s+need)(?:\s+(?:now|urgently|today|first|next))?|"
        r"investigations?\s+(?:i\s+would\s+(?:like|order|request)|i'd\s+(?:like|order|request)|needed|i\s+need)"
        r"\s+(?:now|urgently|today|first|next)|investigations?(?:\s+(?:needed|"
        r"requested|to\s+order|i\s+would\s+request|i'd\s+(?:request|like|order)|i\s+would\s+(?:like|order)))?|i\s+would\s+like(?:\s+to\s+know)?|what\s+i\s+need|"
        r"outstanding(?:\s+information)?|orders?|need(?:s|ed)?(?:\s+(?:now|next|urgently|today|first))?|"
        # "Urgently needed", "Still needed", "Still outstanding": the same list, its urgency first
        r"(?:still|urgently|also)\s+(?:needed|required|outstanding)|"
        r"(?:(?:suggested|proposed|initial|further|recommended|planned|urgent|immediate)\s+)?"
        r"(?:workup|work-up|work\s+up|investigations|tests|bloods)(?:\s+(?:needed|required|requested|now|today))?)$",
        re.I)),
    ("differential", re.compile(
        r"^(?:differential(?:\s+diagnos[ie]s)?|differentials|ddx|alternatives?(?:\s+considered)?(?:\s+[a-z ]+)?|"
        r"other\s+possibilities|(?:diagnoses|conditions)\s+(?:excluded|considered)(?:\s+[a-z ]+)?)$", re.I)),
]
# Remarks after a list ("Note: the T10 level reported by the admitting doctor conflicts with...")
# comment on the answer; they are not items of the section above them.
_HEADINGS.append(("body", re.compile(
    r"^(?:notes?|nb|n\.b\.|comments?|caveats?|caution|limitations?|uncertaint(?:y|ies)|remarks?|"
    r"important|please\s+note|conflict(?:ing)?(?:\s+[a-z]+){0,2}|discrepanc(?:y|ies)(?:\s+[a-z]+){0,2}|"
    r"unverified(?:\s+[a-z]+){0,2}|(?:not|un)\s*confirmed(?:\s+[a-z]+){0,2})$", re.I)))
_INLINE_HEADING = re.compile(
    r"^\s*(?:[-*•]\s*)?(?:\*\*|__)?([A-Za-z][A-Za-z '/&+\-]{1,60}?)(?:\*\*|__)?\s*:\s*(?:(?:\*\*|__)\s*)?"
)  # "**Most likely:** X": the bold may close after the colon
# round 139: a note's "Ddx X, Y" written without the colon of a label ("... red flag. Ddx LTG-COCP interaction")
_DDX_NO_COLON = re.compile(r"^\s*(?-i:DDx|Ddx|ddx)\s+(?!(?:given|of|is|are|includes?|on|for|to)\b)(?=\w)", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)]|\(\d{1,2}\)|[a-h][.)](?=\s+[A-Za-z(]))\s+")  # "-", "1.", "1)", "(1)", "a)"
# A short request sentence ending a line with ":" introduces a list of requests ("I need:",
# "Please send urgently:", "Please could you tell me:"): the list items are questions, the
# lead-in itself asks for nothing yet. The list ends at the first line that is not a bullet.
REQUEST_LEADIN_RX = re.compile(
    r"^(?:(?:so|however|therefore|now|next|meanwhile)\s*,?\s+)?(?:(?:to|for|before|in\s+order\s+to)\s+[\w\s'-]{1,40},\s+)?"
    r"(?:please\s+(?:could\s+you\s+|can\s+you\s+)?|"
    r"(?:could|can|would)\s+(?:you|we)\s+(?:please\s+)?|(?:i|we)(?:'d|\s+would)?\s+(?:also\s+|still\s+|urgently\s+)?|"
    # "Could I ask for:", "May I have:"
    r"(?:could|can|may)\s+i\s+(?:please\s+)?(?=(?:ask\s+for|have|request|get)\b))"
    r"(?:need|require|want|like|request|order|send|tell\s+me|let\s+me\s+know|check|arrange|obtain|get|provide|"
    r"ask(?:\s+for)?|(?:(?<=may\si\s)|(?<=can\si\s)|(?<=could\si\s)|(?<=please\s))have|like\s+to\s+(?:know|ask|request|order|see)|want\s+to\s+know|need\s+to\s+know)"
    # (round 139: "Could I ask for a few things:")
    r"(?:\s+(?:the\s+following|urgently|now|first|next|these|to\s+know|to\s+see|(?:some|more|further)\s+information|"
    r"(?:a\s+few|some|several|two|three|four)\s+(?:more\s+|other\s+)?things))*"
    r"\s*:$",
    re.I,
)


# Blood relatives, as family-history statements and replies name them ("his father's MI", "Father T2DM").
# One list for the judge: family-history fact mentions (context), the relative's age as a detail of
# the history (claims), "a mother who needed dialysis" not being a plan (claim_blocking) and a relative's
# condition not being a hypothesis (diagnoses).
RELATIVES = (
    "father", "mother", "brother", "sister", "aunt", "uncle", "grandfather", "grandmother", "son", "daughter",
    "sibling", "parent", "cousin", "dad", "mum", "mom",
)
RELATIVE_RX = re.compile(rf"\b(?:{'|'.join(RELATIVES)})s?\b", re.I)

# A heading line that is itself a request ("### Please arrange", "**What I need now**", "To order"):
# like a lead-in, its list items are questions and the list ends at the first non-bullet line.
REQUEST_HEADING_RX = re.compile(
    r"^(?:(?:please|pls|plz|to)\s+(?:arrange|send|order|check|obtain|request|organi[sz]e|get|do|confirm)"
    r"(?:\s+(?:urgently|now|next|the\s+following))?|what\s+(?:else\s+)?(?:i|we)(?:\s+(?:still\s+|also\s+)?(?:need|want|would\s+like)|(?:'d|’d)\s+(?:also\s+)?(?:like|want))"
    r"(?:\s+(?:now|next|first|to\s+(?:know|check|order|do|see)))?|(?:(?:i|we)\s+)?(?:need|would\s+like)"
    r"(?:\s+(?:now|next|first|urgently|today|please))?|please|pls|plz|"
    # round 140: what is still needed before the call ("**Needed before I commit:**")
    r"(?:still\s+)?needed(?:\s+(?:now|next|first|before\s+(?:i|we)\s+(?:commit|decide|call\s+it|treat|can\s+\w+)))?)$",
    re.I,
)
# A looser lead-in: a short sentence ending with ":" that holds a request cue anywhere ("What I
# need now:", "To confirm this and find the cause I need:", "Before I decide on treatment I need to
# know whether this is severe:", "Could you please let me have:"). Only used when bullets follow.
LEADIN_CUE_RX = re.compile(
    r"\b(?:(?:i|we)(?:'d|\s+would)?\s+(?:also\s+|still\s+|urgently\s+|now\s+)?(?:need|require|want|like|request)|"
    r"what\s+(?:i|we)\s+(?:need|want|would\s+like|'d\s+like)|please|pls|could\s+(?:you|we|someone)|"
    r"grateful\s+(?:for|if)|"
    r"can\s+(?:you|we|someone)|would\s+you|(?:tell|let)\s+me)\b",
    re.I,
)
# "Three bloods, today if possible:", "Two scans first:": a count of tests introducing their list
LEADIN_TESTS_RX = re.compile(
    r"^\W*(?:(?:one|two|three|four|five|a\s+few|some|\d)\s+)?(?:more\s+|further\s+|urgent\s+|quick\s+)?"
    # (round 136: "Two more requests:")
    r"(?:bloods|blood\s+tests|tests|investigations|labs|scans|requests|things\s+to\s+(?:check|do|send))\b"
    # "Investigations so far:", "Bloods already back:" report results, they do not open requests
    r"(?![^:.?]{0,40}\b(?:so\s+far|to\s+date|already|available|back|done|completed|received|results?)\b)"
    r"[^:.?]{0,40}:\s*$",
    re.I,
)
_NOT_LEADIN_RX = re.compile(r"\b(?:evidence|findings|features|shows?|showed|reveals?|differential|diagnos[ie]s)\b", re.I)


_NUMBERED = re.compile(r"^\s*(?:\d{1,2}[.)]|\(\d{1,2}\))\s+")
# "Tests:", "Investigations:", "Bloods:" inside a numbered item usually report results ("2. Tests: QFT
# positive"); only labels that can only ask open a request item there
_RESULT_OR_REQUEST_LABEL = re.compile(r"^(?:[a-z]+\s+)?(?:tests?|investigations?|bloods|labs|work-?\s?up)$", re.I)


def _reports_results(label: str, content: str) -> bool:
    """Whether the text after a "Bloods:"/"Tests:"/"Labs:" label reports results (values, positive/negative)
    rather than listing tests to send; only for labels that can do either."""
    if not _RESULT_OR_REQUEST_LABEL.match(re.sub(r"[*_#]+", "", label).strip()):
        return False
    if re.search(r"\?|\b(?:please|pls|send|check|request|order|arrange|need|would\s+like)\b", content, re.I):
        return False
    return bool(re.search(r"\d|\b(?:positive|negative|normal|nl|neg|pos|raised|elevated|low|high)\b", content, re.I))


def _list_reports_results(label: str, text: str, pos: int) -> bool:
    """Whether the list under a bare "Labs"/"Tests"/"Bloods" heading (from offset ``pos``) reports results rather
    than listing tests to send: every item does, as ``_reports_results`` reads an inline label's text (round 60e)."""
    items: list[str] = []
    for ln in text[pos:].split("\n"):
        if not ln.strip():
            if items:
                break
            continue
        bm = _BULLET.match(ln)
        if not bm:
            break
        items.append(ln[bm.end() :])
    return bool(items) and all(_reports_results(label, it) for it in items)


def _bare_heading(line: str) -> str:
    """A line that is only a label ("## Plan", "Requests:", "2. Requests", "1. Impression"): the label, else ""."""
    numbered = _NUMBERED.match(line)
    label = (line[numbered.end() :] if numbered else line).strip().lstrip("#").strip().rstrip(":").strip()
    return "" if numbered and len(label.split()) > 4 else label


def _numbered_request_label(label: str) -> bool:
    """Whether a numbered item's inline label ("5. Requests: ...") makes the item's text requests."""
    lab = re.sub(r"[*_#]+", "", label).strip()
    return heading_section(lab) == "questions" and not _RESULT_OR_REQUEST_LABEL.match(lab)


def is_request_leadin(sentence: str) -> bool:
    """Whether a sentence ending with ':' introduces a list of requests."""
    text = re.sub(r"[*_]+", "", sentence).strip()  # "**I'd like:**" is the lead-in "I'd like:"
    if not text.endswith(":"):
        return False
    if REQUEST_LEADIN_RX.match(text) or LEADIN_TESTS_RX.match(text):
        return True
    if heading_section(text[:-1]) == "questions":
        return True  # "3. Requests:" over indented items: a request heading written as a list item
    return len(text.split()) <= 25 and bool(LEADIN_CUE_RX.search(text)) and not _NOT_LEADIN_RX.search(text)


@dataclass(frozen=True)
class Segment:
    """One sentence-like piece of a reply with its character span and section."""

    text: str
    start: int
    end: int
    section: Section
    bullet: bool
    line: int
    heading: str | None = None
    index: int = 0
    line_start: bool = True
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def label(self) -> str:
        """The label the segment stands under: its inline heading, else a heading alone on the line above
        ("A/P:" over the call) while in a diagnosis block; "" when none."""
        return self.heading or str(self.extra.get("block_heading") or "")


# note labels that only ever open a diagnosis ("CLO positive. Imp now: bleeding DU."), read mid-line too
_SHORTHAND_DX_LABEL = re.compile(r"^(?:imp|dx|a\s*/\s*p|working\s+dx|impression|working\s+diagnosis)(?:\s+now)?$", re.I)


def heading_section(label: str) -> Section | None:
    lab = re.sub(r"[*_#]+", "", label).strip().lower()
    for sec, rx in _HEADINGS:
        if rx.match(lab):
            return sec
    if (bare := re.sub(r"\s*\([^()]*\)$", "", lab)) != lab and bare:
        # round 131: a remark in brackets after the label ("### Urgent tests (drawn before steroids)")
        return heading_section(bare)
    # combined headings ("Plan/requests", "Investigations & plan", "Tests and questions"): a part
    # that asks for information makes the items requests, else the first recognised part decides
    parts = [p.strip() for p in re.split(r"\s*(?:/|&|\+|\band\b)\s*", lab) if p.strip()]
    if len(parts) > 1:
        secs = [heading_section(p) for p in parts]
        if "questions" in secs:
            return "questions"
        return next((x for x in secs if x is not None), None)
    return None


def segment_reply(text: str) -> list[Segment]:
    """Split a reply into segments with sections (see module docstring)."""
    segments: list[Segment] = []
    section: Section = "body"
    pos = 0
    prev_blank = False
    leadin = False
    leadin_indent = -1  # indentation of a list item that opened a request list ("3. I need:"), else -1
    leadin_kind: str | None = None  # its marker kind: the list's items may sit at its indent with the other kind
    block_heading: str | None = None  # a heading alone on its line ("A/P:"): the label of the lines below
    first_under_block = False  # the next line is the first under such a heading
    for line_no, raw_line in enumerate(text.split("\n")):
        line_start = pos
        pos += len(raw_line) + 1
        line = raw_line.rstrip()
        if not line.strip():
            prev_blank = True
            continue
        bullet = bool(_BULLET.match(line))
        indent = len(line) - len(line.lstrip())
        if leadin and (not bullet or (leadin_indent >= 0 and indent <= leadin_indent and not (
            indent == leadin_indent and _marker_kind(line) != leadin_kind
        ))):
            section, leadin = "body", False  # a list item opened the list: only its deeper items belong to it
        body_start = 0
        heading = None
        line_section: Section | None = None  # the section to return to after a numbered item's own label
        numbered = bool(_NUMBERED.match(line))
        m = _INLINE_HEADING.match(line)
        if (m is None or heading_section(m.group(1)) is None) and REQUEST_HEADING_RX.match(
            re.sub(r"[*_#]+", "", line).strip().rstrip(":").strip()
        ) and _next_is_bullet(text, pos):
            # "**What I need to know:**" over a numbered list: the colon inside the bold makes the line
            # look like an inline label, but it is a request heading whose items are the questions
            section, leadin = "questions", True
            prev_blank = False
            continue
        if m:
            sec = heading_section(m.group(1))
            if sec == "questions" and _reports_results(m.group(1), line[m.end():]):
                sec = None  # "Bloods: adj Ca 2.78, PTH 11.8": results under a label that can also ask
            if sec is not None:
                section = sec
                heading = m.group(1).strip()
                body_start = m.end()
                bullet = False
                block_heading = heading
        elif line.lstrip().startswith("#") and is_request_leadin(_bare_heading(line) + ":") and _next_is_bullet(
            text, pos
        ) and not _list_reports_results(_bare_heading(line), text, pos):
            # "### Please send before any steroid", "## Before I commit, I need" over a list: a markdown heading
            # worded as a request lead-in, without the colon a sentence would end with (a request heading proper,
            # "## What I need", is taken by the test above whenever no section label matched)
            section, leadin = "questions", True
            prev_blank = False
            continue
        elif (label := _bare_heading(line)) and heading_section(label) and (
            not numbered or _next_is_deeper_bullet(text, pos, indent, _marker_kind(line))
        ):
            section = heading_section(label) or section
            if section == "questions" and _list_reports_results(label, text, pos):
                section = "body"  # "### Labs" over "- Platelets **14 ×10⁹/L**", "- DAT negative": results
            block_heading = label
            if numbered:
                # "2. Requests" over "- OGTT" items: the label holds for its own sub-items only, up to the
                # next item of its list ("3. Plan: ...")
                leadin, leadin_indent, leadin_kind = True, indent, _marker_kind(line)
            first_under_block = True
            prev_blank = False
            continue
        elif prev_blank and not bullet and section != "body" and not _looks_continuation(section, line):
            section, block_heading = "body", None
        prev_blank = False
        content = line[body_start:]
        if heading is not None and not content.strip():
            first_under_block = True
            continue  # a heading alone on its line
        if bullet:
            bm = _BULLET.match(content)
            if bm:
                body_start += bm.end()
                content = line[body_start:]
                nh = _INLINE_HEADING.match(content) if numbered else None
                if nh and content[nh.end():].strip() and _numbered_request_label(nh.group(1)):
                    # "5. Requests: please do an LP; please arrange an EEG; please check a CK": a request
                    # label inside one numbered item; its section holds for this item only
                    line_section, section, heading = section, "questions", nh.group(1).strip()
                    body_start += nh.end()
                    content = line[body_start:]
                    bullet = False
        sents = split_sentences(content)
        opens_list = bool(not bullet and sents and REQUEST_LEADIN_RX.match(re.sub(r"[*_]+", "", sents[-1].text).strip()))
        if not opens_list and not bullet and sents and is_request_leadin(sents[-1].text) and _next_is_bullet(
            text, pos
        ):
            opens_list = True
        nested_opener = bool(
            bullet and sents and len(sents) == 1 and is_request_leadin(sents[-1].text)
            and _next_is_deeper_bullet(text, pos, indent, _marker_kind(line))
        )  # "3. I need:" over indented "a) ..., b) ..." items, or over "- ..." items at its own indent
        opens_list = opens_list or nested_opener
        if opens_list:
            sents = sents[:-1]
        for k, s in enumerate(sents):
            seg_start = line_start + body_start + s.start
            seg_text = s.text
            hm = _INLINE_HEADING.match(seg_text) if k > 0 else None
            dx_label = bool(hm and _SHORTHAND_DX_LABEL.match(hm.group(1).strip()))  # opens a diagnosis mid-line
            if hm and (heading_section(hm.group(1)) in ("evidence", "plan", "differential") or dx_label):
                # "Final diagnosis: X. Supporting evidence: a; b. Next steps: c" on one line: each
                # label opens its section for the rest of the line
                section, heading = heading_section(hm.group(1)) or section, hm.group(1).strip()
                seg_start += hm.end()
                seg_text = seg_text[hm.end() :]
                if not seg_text.strip():
                    continue
            # round 139: "... red flag. Ddx LTG-COCP interaction, sleep deprivation.": the note's differential
            # without the colon of a label, for this sentence only (the plan's bullets after it stay the plan's)
            seg_section: Section = "differential" if _DDX_NO_COLON.match(seg_text) else section
            segments.append(
                Segment(
                    text=seg_text,
                    start=seg_start,
                    end=seg_start + len(seg_text),
                    section=seg_section,
                    bullet=bullet,
                    line=line_no,
                    heading=heading,
                    index=len(segments),
                    line_start=k == 0 or dx_label,  # the name after "Imp now:" starts its label's text
                    extra=(
                        {"block_heading": block_heading, "first_under_block": first_under_block and k == 0 and not bullet}
                        if block_heading and section == "diagnosis" else {}
                    ),
                )
            )
        if line_section is not None:
            section, line_section = line_section, None
        if opens_list:
            section, leadin = "questions", True
            leadin_indent = indent if nested_opener else -1
            leadin_kind = _marker_kind(line) if nested_opener else None
        first_under_block = False
    return segments


def _next_is_deeper_bullet(text: str, pos: int, indent: int, kind: str | None = None) -> bool:
    """Whether the next non-blank line from offset ``pos`` is a list item indented deeper than ``indent``,
    or at that indent with the other marker kind than ``kind`` ("3. Please tell me:" over "- the D-dimer")."""
    for ln in text[pos:].split("\n"):
        if ln.strip():
            ind = len(ln) - len(ln.lstrip())
            return bool(_BULLET.match(ln)) and (ind > indent or (kind is not None and ind == indent and _marker_kind(ln) != kind))
    return False


def _marker_kind(line: str) -> str | None:
    """"num" for a numbered item, "letter" for a lettered one ("a)"), "sym" for a dash/star/dot item, None for
    no list marker. Letters are their own kind: "2. Requests:" over "a) ..." items at its indent opens them."""
    if not _BULLET.match(line):
        return None
    if re.match(r"^\s*[-*•]", line):
        return "sym"
    return "letter" if re.match(r"^\s*[a-h][.)]", line) else "num"


def _next_is_bullet(text: str, pos: int) -> bool:
    """Whether the next non-blank line from offset ``pos`` is a bullet or numbered item."""
    for ln in text[pos:].split("\n"):
        if ln.strip():
            return bool(_BULLET.match(ln))
    return False


def _looks_continuation(section: Section, line: str) -> bool:
    return section in ("evidence", "plan", "questions", "differential") and len(line.split()) <= 6


# ---- sentence cues ------------------------------------------------------------------
# "please note / be aware / see above": a "please" that asks for nothing (shared by every request cue)
NOT_AN_ASK_AFTER_PLEASE = (
    r"(?!note\b|be\s+aware\b|bear\b|remember\b|keep\s+in\s+mind\b|see\s+(?:above|below)\b|disregard\b|ignore\b|"
    r"excuse\b|forgive\b|start\b|commence\b|administer\b|prescribe\b|transfuse\b|withhold\b|stop\b|avoid\b|"
    r"hold\s+(?:the\s+|his\s+|her\s+)?(?!on\b)[a-z]|give\s+(?!me\b|us\b))"
)
QUESTION_RX = re.compile(
    r"(?:^|\b)(?:(?:please|pls|plz)\s+(?:also\s+)?(?:send|check|order|obtain|provide|share|tell|let|confirm|repeat|arrange|"
    r"chase|expedite|book|organi[sz]e|perform|"
    r"measure|get|do|clarify|verify|ask|review|compare|examine|assess|look|recheck|request|add|find)|"
    r"(?:could|can|would)\s+(?:you|we|i)\s+(?:please\s+)?(?:get|have|check|order|obtain|see|send|provide|share|"
    r"tell|arrange|confirm|repeat|clarify|verify|know|request|measure|add|find out)|"
    r"^(?:(?:and|so|also|then)\s+)?(?:please|pls|plz)\s*:?\s+(?:also\s+|now\s+|urgently\s+)?" + NOT_AN_ASK_AFTER_PLEASE + r"[a-z]{3,}\b|"
    # "Pls: HbA1c.", "Pls: LE duplex L leg": after the colon the list of what is asked, whatever its spelling
    r"^(?:(?:and|so|also|then)\s+)?(?:please|pls|plz)\s*:\s*" + NOT_AN_ASK_AFTER_PLEASE + r"(?=[A-Za-z0-9])|"
    r"(?:i|we)(?:'d|\s+would)\s+(?:(?:also|still)\s+){0,2}(?:like|want|request|order|check|send|obtain|get|arrange|measure|"
    r"recommend|suggest|ask|need|repeat|recheck|re-check|re-examine|re-image|retest|re-test)|"
    r"\b(?:and|then)\s+(?:also\s+)?(?:repeat|recheck|re-check)\s+(?:the|his|her|a|an)\b|"
    r"(?:i|we)\s+(?:also\s+|still\s+|urgently\s+)?(?:need|require|want|request)\s+(?:to\s+(?:see|know|check|"
    r"obtain|review|confirm|order|get|have|establish|clarify|exclude|rule out|assess)|an?\b|the\b|some\b|"
    r"more\b|further\b|results?\b|urgent\b|information\b|(?:that|this|those|these|his|her|their)\s+[A-Za-z]|"
    # round 132: "Before we give tenecteplase I need three things: a capillary glucose, the CT head, an NIHSS"
    r"(?:two|three|four|five|a\s+few|several|a\s+couple\s+of)\s+(?:things|tests|results|items|investigations)\b)|"
    r"(?:i|we)\s+(?:will|shall|should|must)\s+(?:also\s+)?(?:order|request|check|send|obtain|get|arrange|"
    r"measure|repeat|recheck|confirm)|"
    r"let(?:'s|\s+us)\s+(?:order|check|get|obtain|send|arrange|repeat|confirm)|"
    r"(?:it\s+would\s+be\s+(?:helpful|useful|important)|it\s+is\s+(?:important|essential|necessary))\s+to\s+"
    r"(?:know|see|check|obtain|get|have|confirm|clarify|establish|measure|order|review)|"
    r"(?:is|are)\s+(?:needed|required|essential|necessary|warranted|indicated)\b(?!\s+(?:to\s+)?(?:for|if)\b)|"
    # "Vitals/CBC/BUN still needed.", "Still need BNP and Cr.", "I would still be grateful for the repeat ACR",
    # "I should like to see the original report"
    r"\bstill\s+(?:needed|required)\b|^\W*still\s+need\s+[A-Za-z]|"
    # round 133: a note's imperative chase, "Chase sputum culture.", "Chase the CTPA."
    r"^\W*(?:also\s+)?chase\s+(?:up\s+)?(?:the\s+|his\s+|her\s+|their\s+)?[A-Za-z]|"
    # round 61: "Need BP (repeat x2), urine PCR and LFTs urgently.": a terse note's sentence that opens with
    # "Need" lists what it asks for ("Need for intubation", "Need before lytics:", "Need to exclude obstruction"
    # are not asks for a result)
    r"^\W*(?:also\s+|urgently\s+)?need\s+(?!(?:for|before|after|of|in|on|at|with)\b|to\s+(?!(?:know|see|check|confirm)\b))"
    r"[A-Za-z]|"
    r"\b(?:(?:i|we)(?:'d|\s+would)|(?:and|but)\s+would)\s+(?:still\s+|also\s+)?be\s+grateful\s+(?:for|if)\b|"
    # "I have requested a contrast MRI": a request the writer has already placed is still its ask
    r"\b(?:i|we)(?:\s+have|'ve)\s+(?:already\s+|also\s+)?(?:requested|ordered|sent\s+(?:off\s+)?(?:an?|the|for))\b|"
    r"^\W*will\s+(?:also\s+)?(?:add|order|request|send\s+(?:off\s+)?(?:an?|the)|arrange)\b|\b(?:i|we)\s+should\s+(?:still\s+|also\s+)?like\b|"
    r"\b(?:should|must)\s+be\s+(?:checked|ordered|sent|obtained|performed|done|measured|repeated|arranged|"
    r"requested|confirmed|rechecked|re-checked|verified|reviewed|retested|re-tested)|"
    # "suggest a/the ..." asks; "nothing to suggest a ...", "this would suggest a ..." weigh evidence (round 87)
    # (round 137: nor "does not suggest a recent dose")
    r"(?:(?:recommend|request|order|advise)(?:ing)?|(?<!\bto\s)(?<!\bwould\s)(?<!\bmight\s)(?<!\bcould\s)(?<!\bmay\s)"
    r"(?<!\bnot\s)(?<!n't\s)suggest)"
    r"\s+(?:an?\b|the\b|checking|obtaining|ordering|"
    r"measuring|repeating|urgent|a\s+repeat)|"
    r"^(?:check|order|send|obtain|request|arrange|measure|repeat|rpt|recheck|get|perform|add)\b"
    # "Repeat early-morning ACR is 16 mg/mmol": the repeat test's result, not an order for it
    r"(?![^.?!;]{0,50}\b(?:is|was|are|were|came\s+back|returned|showed|shows)\s+(?:now\s+|only\s+|still\s+)?"
    r"(?:\d|(?:normal|negative|positive|unchanged|raised|elevated|low|high)\b)"
    # "Repeat early-morning ACR 16.", "Repeat K 6.3 mmol/L on the gas": the repeat's value right after the
    # test's name, not a time ("Repeat BMP 6h", "repeat venous in 1–3 mo" stay orders)
    r"|(?:\s+(?:on\s+(?:the\s+)?)?(?!(?:after|in|at|for|post|before|within|until|every|by|x|q)\b)[A-Za-z*][\w/&*-]*){1,4}?"
    r"\s+\**\d+(?:\.\d+)?\**(?!\d|\.\d)"
    r"(?!\s*(?:[-–]|to)?\s*\d*\s*(?:h|hrs?|hours?|hourly|d|days?|daily|wks?|weeks?|weekly|mo|mos|months?|mins?|minutes?|"
    # (round 142: or the British shorthand of days, weeks and months, "Repeat bone profile 2/52")
    r"am|pm|y|yrs?|years?)\b|/(?:7|12|52)\b))|"
    r"^(?:please\s+)?(?:also\s+)?(?:cross-?match|group\s+and\s+(?:save|cross-?match))\b|"
    r"(?:^|:\s*|\bplease\s+)(?:also\s+)?ask\s+(?:the\s+|a\s+|an\s+)?(?:on-?call\s+)?[\w-]+(?:\s+[\w-]+)?\s+to\s+"
    r"(?:see|review|assess|examine|come)\b|"
    r"(?:do|does|did|has|have|is|are|was|were)\s+(?:we|you|he|she|they|the\s+patient|there)\b.*\?|"
    r"\b(?:any|what|which|when|how)\b[^.]*\?|"
    r"(?:tell\s+me|let\s+me\s+know|find\s+out|clarify|confirm)\s+(?:whether|if|about|the|his|her|what)\b|"
    r"\b(?:would|will)\s+it\s+be\s+possible\s+to\b|\bis\s+it\s+possible\s+to\b|"
    r"^[^.?!]{2,80}?,?\s+(?:please|pls|plz)(?:\W*$|\s*[,;]\s+|\s+(?=(?:given|because|as|since|to\s+(?:exclude|rule\s+out|look))\b)))",
    re.I,
)
# Recommendations and orders that are management, not information requests (round 142: not the noun, "On the
# monitor he is now in first-degree heart block" reports what the monitor shows).
PLAN_RX = re.compile(
    r"\b(?:stop|discontinue|withdraw|cease|start|initiate|commence|begin|give|administer|prescribe|treat|treating|"
    r"refer|admit|discharge|(?<!the\s)(?<!\sa\s)monitor|counsel|advise|avoid|review\s+in|follow[\s-]?up|"
    r"continue|switch|offer|educate|manage|consult)\b",
    re.I,
)
MODAL_RX = re.compile(
    r"\b(?:should|would|will|shall|must|need(?:s)?\s+to|plan\s+to|going\s+to|to\s+(?:exclude|rule\s+out|assess|"
    r"evaluate|look\s+for|check|confirm|document)|to\s+be\s+(?:confirmed|excluded|checked|assessed|ruled\s+out|"
    r"repeated|verified)|recommend(?:ed)?|suggest(?:ed)?|consider)\b",
    re.I,
)
CONDITIONAL_RX = re.compile(r"\b(?:if|unless|whether|in\s+case|should\s+(?:the|it|he|she)|once|when)\b", re.I)
HEDGE_RX = re.compile(
    r"\b(?:may|might|could|possibly|possible|perhaps|probably|presumably|maybe|suspect(?:ed)?|"
    r"uncertain|unclear|unknown|assum(?:e|ed|ing)|guess|estimate[ds]?|expected|would\s+expect|"
    r"cannot\s+exclude|can't\s+exclude|not\s+sure|query)\b|\?",
    re.I,
)
GENERIC_RX = re.compile(
    r"\b(?:typically|usually|classically|commonly|often|generally|in\s+general|tends?\s+to|can\s+cause|"
    r"may\s+cause|causes|is\s+associated|are\s+associated|is\s+a\s+(?:common|recognised|recognized|known|"
    r"classic)|are\s+(?:common|known)|characteristically|would\s+(?:show|be|expect|typically|usually|cause)|"
    r"is\s+known\s+to|patients\s+with|people\s+with|in\s+most\s+cases|"
    r"can(?:not)?\s+(?:miss|show|cause|be|appear|present|mimic|occur|produce|give|reflect|represent|indicate))\b",
    re.I,
)
MISSING_RX = re.compile(
    r"\b(?:not\s+(?:yet\s+)?(?:been\s+)?(?:made\s+)?(?:provided|given|reported|available|mentioned|documented|done|"
    r"performed|measured|checked|known|stated|included|back|resulted|returned|listed|supplied)|"
    r"no\s+(?:results?|data|report|reports|information|values?|measurements?)\b|missing|unknown|"
    r"(?:we|i)\s+(?:do\s+not|don't|still\s+do\s+not|still\s+don't)\s+(?:have|know)|"
    r"(?:we|i)\s+(?:also\s+|still\s+)*(?:have|had)\s+no\b|"  # "I (also) still have no 12-lead ECG or blood pressure"
    r"(?:haven't|have\s+(?:still\s+)?not|has\s+(?:still\s+)?not|hasn't)\s+(?:actually\s+|yet\s+)?(?:been\s+)?(?:seen|got|received|provided|"
    r"reported|done|performed|given|had)|still\s+no\b|no\s+(?:[\w-]+\s+){1,3}yet\b|"
    # "Without the IGRA or skin test I can only call this probable": a decision limited by a missing result
    r"without\s+(?:the|a|an|any|her|his)\s+[^,.;]{1,80}?,?\s+(?:I|we)\s+(?:can(?:not|'t)?|could(?:n't)?|am|'m)\b|absent\s+data|without\s+(?:the\s+)?(?:results?|data|knowing)|"
    # round 113: "we lack imaging", "the lack of a CT"; not "lack of symptoms" or "lack of a sensory level", findings
    r"lack(?:ing)?\b(?!\s+of\b)|lack(?:ing)?\s+of\s+(?:any\s+|a\s+|an\s+|the\s+)?(?:[\w-]+\s+){0,2}"
    r"(?:results?|data|imaging|scans?|tests?|information|labs?|bloods?|values?|investigations?|work-?up)\b|"
    r"still\s+(?:pending|awaited|awaiting|outstanding|need)|pending|awaiting|awaited|outstanding|"
    r"(?:still\s+)?waiting\s+(?:for|on)|never\s+(?:came|come|got|arrived|returned|reported)(?:\s+back)?|"
    r"never\s+(?:been\s+)?(?:made\s+available|provided|released|available|given\s+to\s+(?:me|us))|"
    # "BP, urine PCR and LDH were requested but never reported": asked for, so not a stated result
    r"(?:was|were|been)\s+(?:requested|ordered|asked\s+for)\s+but\s+(?:never|not)\b|"
    r"(?:that\s+|which\s+)?(?:I|we)\s+(?:had\s+)?(?:asked|requested)\s+for\b|"
    r"(?:can't|cannot|can\s+not|unable\s+to|not\s+possible\s+to)\b[^.;]{0,60}\bwithout\b|"
    r"not\s+(?:yet\s+)?available|unavailable|(?:is|are)\s+(?:needed|required)\s+before|"
    # round 55b: "I never saw the 12-lead ECG, BP or JVP", "we did not get the FIT value": not seen, so not stated
    r"(?:I|we)\s+(?:never|did\s+not|didn't)\s+(?:saw|see|got|get|had|have|received|receive|reviewed|review|obtained)\b|"
    # round 56: "no creatinine, potassium or abdominal examination findings were made available to me", "I am
    # still without the lamotrigine levels"
    r"no\s+[^.;]{1,80}?\b(?:was|were|has\s+been|have\s+been)\s+(?:made\s+)?available|still\s+without|"
    # round 57: "BP, urine PCR and LDH were never obtained", "IGRA/TST results still to be seen", "P: Await NS1", "no
    # FBC result has actually come back", "I still have neither the crystal microscopy nor the X-ray", "don't wait
    # for the LP"
    r"(?:was|were|been)\s+never\s+(?:obtained|documented|done|checked|measured|sent|performed|recorded|examined)|"
    r"(?:still|yet)\s+to\s+(?:be\s+)?(?:seen|done|sent|reported|come\s+back|return)|await|"
    r"no\s+(?:[\w-]+\s+){0,2}results?\s+(?:has|have)\s+(?:\w+\s+)?(?:come|came)\s+back|(?:have|had)\s+neither|"
    r"(?:don't|do\s+not)\s+wait\s+for)\b",
    re.I,
)
OUTSTANDING_RX = re.compile(
    r"\b(?:still\s+(?:pending|awaited|awaiting|outstanding)|pending|awaiting|awaited|outstanding|"
    r"once\s+.{1,60}\b(?:is|are)\s+(?:back|available|reported)|when\s+.{1,60}\b(?:comes?|is|are)\s+back|"
    r"not\s+(?:yet\s+)?(?:back|available|resulted|reported))\b",
    re.I,
)
# "needs careful sodium correction", "slow correction": treating a value, not withdrawing a claim (one fixed-width
# look-behind per word, as `re` needs)
_TREATED_BY_CORRECTION = ("careful", "cautious", "slow", "gradual", "rapid", "sodium", "potassium", "calcium", "glucose", "fluid")
RETRACTION_RX = re.compile(
    r"\b(?:withdraw|retract|disregard|I\s+(?:was|am)\s+(?:mistaken|wrong)|(?:my|an)\s+(?:error|mistake)|"
    r"I\s+(?:mis-?quoted|misread|mis-?stated|misreported|misremembered)|"
    r"incorrectly\s+(?:stated|assumed|quoted|reported|said)|I\s+(?:should\s+not|shouldn't)\s+have|"
    r"(?:was|were)\s+(?:never|not\s+actually|not\s+in\s+fact)\s+(?:provided|given|reported|measured|stated)|"
    r"(?:was|were)\s+not\s+(?:provided|given|reported|stated)\s+(?:to\s+me|in\s+the\s+case|earlier)|"
    r"I\s+(?:had\s+)?(?:wrongly|incorrectly|mistakenly)|"
    + "".join(rf"(?<!{w}\s)" for w in _TREATED_BY_CORRECTION)
    + r"correction|I\s+apologi[sz]e|correct\s+myself|"
    r"(?:that|this)\s+(?:is|was)\s+(?:wrong|incorrect|an?\s+error|not\s+(?:right|correct|true|accurate))|"
    # round 56b: "(I wrote 45 earlier, which was wrong)", "I wrote Hgb 11.4 earlier; that was a typo", "I
    # mis-typed it as 120 in my first note"
    r"which\s+(?:is|was)\s+(?:wrong|incorrect|an?\s+error)|(?:that|this|which)\s+(?:is|was)\s+an?\s+(?:typo|slip)|"
    r"I\s+mis-?typed|"
    r"(?:earlier|previous|previously)\s+(?:I\s+)?(?:stated|assumed|quoted|mentioned|said)\b.*\b(?:not|never|"
    r"unsupported|assumption)|that\s+was\s+(?:an|my|only\s+an?|just\s+an?)\s+assumption|(?:was|were)\s+(?:an?\s+)?(?:assumption|"
    r"assumptions|invented|fabricated|made\s+up))\b",
    re.I,
)
CONFLICT_RX = re.compile(
    r"\b(?:conflict(?:s|ing)?|contradict(?:s|ory|ion|ed|ing)?|inconsisten(?:t|cy|cies)|discrepan(?:t|cy|cies)|"
    r"at\s+odds|incompatible|does\s+not\s+(?:fit|match|agree|square|tally)|doesn't\s+(?:fit|match|agree|"
    r"square|tally)|do\s+not\s+(?:fit|match|agree)|don't\s+(?:fit|match|agree)|cannot\s+both\s+be|"
    r"can't\s+both\s+be|disagree(?:s|ment)?|mismatch|lab(?:oratory)?\s+error|sample\s+(?:mix[\s-]?up|error|"
    r"mislabel\w*)|mislabel\w*|mix[\s-]?up|spurious|false[\s-]positive|erroneous|(?:in\s+)?contrast\s+to|"
    r"unexpected|surpris\w*|doubt(?:ful)?|questionable|not\s+reliable|unreliable|cannot\s+be\s+reconciled|"
    r"reconcile|previously\s+(?:reported|negative|positive|normal|documented|stated)|earlier\s+(?:result|"
    r"report|negative|positive|normal)|whereas|opposite|which\s+(?:one\s+)?is\s+correct)\b",
    re.I,
)
# Doubt and implausibility language that flags a result as wrong without the words "conflict" or
# "inconsistent" ("I'm sceptical of that count", "hard to square with", "can't be right", "I don't
# trust it", "likely a lab artefact", "a different patient's result", "needs verifying").
CONFLICT_EXTRA_RX = re.compile(
    r"\b(?:scepti\w+|skepti\w+|implausible|not\s+plausible|hard\s+to\s+(?:square|reconcile|believe|explain)|"
    r"does(?:n't|\s+not)\s+add\s+up|(?:I'd|I\s+would)\s+question|can(?:'t|not|\s+not)\s+be\s+(?:right|correct|true)|"
    r"(?:don't|do\s+not)\s+(?:trust|believe|accept)|artefact(?:ual)?|artifact(?:ual)?|(?:different|wrong)\s+patient|"
    r"needs?\s+(?:verif\w*|double-?checking)|makes\s+no\s+sense|not\s+convinced|with\s+caution|out\s+of\s+keeping|"
    r"at\s+variance|disregard\w*|(?:seems|looks|is)\s+(?:suspicious|suspect)(?!\s+(?:for|of)\b)|"
    r"not\s+consistent\s+with|(?:seems|looks)\s+(?:wrong|off|odd|erroneous|spurious)|transcription\s+error|typo)\b",
    re.I,
)
# A remark headed as a conflict ("Discrepancy: the father denies pica", "Conflicting report: ...") flags
# the item it names even though the cue word is in the heading, not the sentence.
CONFLICT_HEADING_RX = re.compile(
    r"^(?:discrepanc(?:y|ies)|conflict(?:ing)?(?:\s+[a-z]+){0,2}|inconsisten(?:cy|cies)|unverified(?:\s+[a-z]+)?|"
    r"to\s+(?:verify|clarify|confirm))$",
    re.I,
)
CONFIRM_REQUEST_RX = re.compile(
    r"\b(?:repeat(?:ed|ing)?|re[\s-]?check(?:ed|ing)?|re[\s-]?test(?:ed|ing)?|re[\s-]?run|re[\s-]?send|"
    r"re-?do|verify|verif(?:ied|ication)|double[\s-]check|clarif(?:y|ication)|confirm(?:atory|ation)?|"
    r"to\s+be\s+confirmed|needs?\s+confirm\w*|check\s+(?:the\s+)?(?:source|sample|original|lab)|"
    r"contact\s+the\s+(?:lab|laboratory|GP|radiolog\w*)|independent(?:ly)?\s+(?:confirm\w*|verif\w*)|"
    r"review\s+(?:the|both|these|those)\b|compare\s+(?:the|both|with)\b|"
    r"which\s+(?:result|report|one)\s+is\s+correct|correct\s+patient|patient\s+identi\w*)\b",
    re.I,
)
ASSERTIVE_CONFIRM_RX = re.compile(r"\b(?:confirms|confirmed\s+(?:by|on|that)|this\s+confirms)\b", re.I)
REASONING_RX = re.compile(
    r"\b(?:suggest(?:s|ive|ing)?|consistent\s+with|in\s+keeping\s+with|supports?|supporting|points?\s+to(?:ward)?|"
    r"indicat(?:es|ing|ive)|given|because|due\s+to|since|as\s+a\s+result|explains?|explained\s+by|favou?rs?|"
    r"favou?ring|typical\s+of|characteristic\s+of|compatible\s+with|argues?|makes?\b.{0,40}\b(?:likely|"
    r"unlikely|probable)|confirms?|therefore|thus|hence|so\s+(?:the|this|he|she)|in\s+view\s+of|"
    r"based\s+on|on\s+the\s+basis\s+of|fits|pattern|evidence\s+(?:of|for))\b",
    re.I,
)
SUPPORT_CLAUSE_RX = re.compile(
    r"\b(?:supported\s+by|given|because\s+of|because|based\s+on|in\s+view\s+of|as\s+evidenced\s+by|"
    r"on\s+the\s+basis\s+of|evidenced\s+by|(?<!associated\s)(?<!associate\s)with)\b",
    re.I,
)
PATIENT_SUBJECT_RX = re.compile(
    r"\b(?:he|she|his|her|him|the\s+patient|patient's|this\s+patient|pt|they\s+(?:have|had|report|deny))\b|"
    r"\b(?:history\s+of|known|on\s+examination|examination\s+(?:shows|showed|reveals)|there\s+(?:is|was|are|"
    r"were)|reports?|reported|presents?\s+with|presented\s+with|complains?\s+of|denies|denied|takes|taking|"
    r"took|recently|current(?:ly)?)\b",
    re.I,
)
HISTORY_RX = re.compile(
    r"\b(?:history\s+of|known|previous(?:ly)?|prior|past|diagnosed\s+with|background\s+of|long[\s-]?standing|"
    r"established)\s+(?:\w+\s+){0,3}$",
    re.I,
)
RESULT_RX = re.compile(
    r"\b(?:shows?|showed|shown|showing|reveal(?:s|ed)?|demonstrat\w*|found|came\s+back|"
    r"normal|abnormal|elevated|raised|high|low|increased|decreased|reduced|deranged|dilat\w*|negative|prolonged|"
    r"positive|unremarkable|markedly|mildly|moderately|significantly|grossly|within\s+(?:the\s+)?normal|"
    r"detected|undetectable|present|absent|confirmed|consistent|is\s+\d|was\s+\d|of\s+\d|at\s+\d|"
    r"non-?reactive|reactive|clear|enlarged|thickened|tender|swollen|palpable|seen|identified|"
    # round 137: a function called kept ("Her eGFR is preserved")
    r"preserved|"
    r"excluded|within\s+range|in\s+range|patent|confirms|demonstrates|grows|grew|grown|growing|growth|bland|trace|"
    r"susceptible|sensitive|resistant|isolated|"
    # terse chart words: "HCG neg", "MRI clean", "neuro exam non-focal", "CXR NAD", "LFTs WNL"
    r"neg|pos|clean|nil|nl|NAD|WNL|non-?focal|"
    # round 71: a result played down ("ECG changes are nonspecific", "T waves only borderline")
    r"non-?\s?specific|borderline)\b",
    re.I,
)
# round 71: a test result played down as no real abnormality ("ECG: non-specific ST changes", "T waves only
# borderline") where the report describes one (peaked T waves, ST elevation). Not "borderline high": that
# calls the result raised. Kept apart from NORMAL_RX, which also judges numbers against their range.
DOWNPLAYED_RX = re.compile(r"\b(?:non-?\s?specific|borderline(?![\s-]+(?:high|low|raised|elevated)\b))\b", re.I)
# finding nouns that state a test's result by position: "CTPA filling defects", "consolidation on the X-ray"
FINDING_RX = re.compile(
    r"\b(?:defects?|filling|opacit(?:y|ies)|effusions?|consolidation|infarcts?|infiltrates?|thrombus|thrombi|"
    r"clots?|emboli|masse?s?|lesions?|fractures?|halo|elevation|depression|bronchograms?|stones?|calculi|"
    r"hydronephrosis|oedema|edema|collection|abscess|narrowing|occlusion|stenosis|blockage|dilatation|strain|"
    r"inversions?|akinesis|hypokinesis|dyskinesis|nodules?|enhancement|thickening|ha?emorrhage|cysts?|flap|"
    r"aneurysms?|pneumothorax|cardiomegaly|"
    # round 66: findings of a chest or staging study ("CT: basal panlobular emphysema")
    r"emphysema|bronchiectasis|fibrosis|atelectasis)\b",
    re.I,
)
# "PT prolonged": a clotting time above its range
# "he is running a temperature", "febrile" beside the temperature: called raised (round 54)
ELEVATED_RX = re.compile(
    r"\b(?:elevated|raised|high|increased|markedly|abnormal|deranged|above|prolonged|febrile|pyrexial|running\s+a)\b", re.I
)
LOW_RX = re.compile(r"\b(?:low(?![\s-]grade)|reduced|decreased|below|depressed)\b", re.I)
# round 137: a development called normal ("His development is on track", "age-appropriate milestones")
ON_TRACK = r"on\s+track|age[\s-]appropriate"
NORMAL_RX = re.compile(
    # "ten times normal", "above the upper limit of normal", "2x normal": a fold of the limit calls it raised
    r"\b(?:(?<!times\s)(?<!above\s)(?<!over\s)(?<!of\s)(?<!x\s)(?<!×\s)normal|nl|unremarkable|bland|"
    r"within\s+(?:the\s+)?normal|in\s+range|within\s+range|clean|NAD|WNL|non-?focal|" + ON_TRACK + r")\b",
    re.I,
)
REFERENCE_CTX_RX = re.compile(
    r"(?:\b(?:reference(?:\s+range)?|ref\.?|normal\s+(?:range|limits?|values?)|range|ULN|LLN|"
    r"upper\s+limit(?:\s+of\s+normal)?|lower\s+limit|cut[\s-]?off|threshold|target|centile|goal|limit|"
    r"normally|aim(?:ing)?\s+for|diagnostic\s+threshold)\b\s*(?:is|are|of|:|\(|below|above|under|over|<|>|≤|≥|"
    r"up\s+to|less\s+than|greater\s+than|=)?\s*(?:is|of|:|<|>|=)?\s*|\bnormal\s*[(:<>≤≥]\s*|[<>≤≥]\s*=?\s*)$",
    re.I,
)
THRESHOLD_ABOVE_RX = re.compile(r"(?:\b(?:over|above|more\s+than|greater\s+than|exceed(?:s|ing)?|at\s+least)\s*|>\s*=?\s*)$", re.I)
THRESHOLD_BELOW_RX = re.compile(r"(?:\b(?:under|below|less\s+than|at\s+most)\s*|<\s*=?\s*)$", re.I)
FOLD_AFTER_RX = re.compile(
    r"^\s*(?:×|x|times|-?fold)(?!\s*10\s*(?:\^|⁹|⁶|¹|\*\*))\s*(?:the\s+)?(?:ULN|upper\s+limit(?:\s+of\s+normal)?|normal)?", re.I
)
DERIVED_CONCEPTS = {
    "r_ratio": re.compile(r"\bR[\s-]?(?:ratio|value|factor)\b", re.I),
    "anion_gap": re.compile(r"\banion\s+gap\b", re.I),
    "ast_alt": re.compile(r"\bAST\s*[/:]\s*ALT\s+ratio|\bde\s+ritis\b", re.I),
    # round 139: "MAP about 126", "a mean arterial pressure of roughly 65"
    "map": re.compile(r"(?-i:\bMAP\b)|\bmean\s+arterial\s+pressure\b", re.I),
}
TIME_UNIT_AFTER_RX = re.compile(
    r"^\s*-?\s*(?:years?|yrs?|y/o|year-old|-year-old|months?|weeks?|wks?|days?|hours?|hrs?|h|minutes?|mins?|"
    r"units?|tablets?|doses?|episodes?|times|cm|mm|kg|g\b|mg\b|litres?|l\b|ml\b|pack[\s-]?years?|"
    r"drinks?|cigarettes?)\b",
    re.I,
)
EXCLUDED_DX_RX = re.compile(
    r"\b(?:unlikely|less\s+likely|not\s+likely|improbable|ruled\s+out|excluded|excludes|rules\s+out|"
    r"argues?\s+against|against|makes?\b.{0,50}\b(?:unlikely|less\s+likely|improbable)|no\s+evidence\s+of|"
    r"not\s+consistent\s+with|inconsistent\s+with|rather\s+than|instead\s+of|not\b|no\s+longer|"
    r"doubt|dismiss\w*|abandon\w*|moved\s+away\s+from|drop(?:ped)?|revis\w*\s+away)\b",
    re.I,
)
DEFINITIVE_DX_RX = re.compile(
    r"\b(?:final\s+(?:working\s+)?diagnosis|the\s+diagnosis\s+is|diagnosis\s+is|diagnosis:|this\s+is|"
    r"he\s+has|she\s+has|the\s+patient\s+has|confirmed|confirms|definite(?:ly)?|certain(?:ly)?|clearly|"
    r"diagnostic\s+of|establish(?:es|ed)|without\s+(?:a\s+)?doubt|I\s+am\s+confident|conclusive(?:ly)?|"
    r"this\s+represents|secure\s+diagnosis|we\s+can\s+diagnose|diagnosed\s+as|confirming|proves?|"
    r"remains\s+the\s+diagnosis|is\s+the\s+diagnosis|means|is\s+diagnostic)\b",
    re.I,
)
PROBABLE_DX_RX = re.compile(
    r"\b(?:most\s+likely|likely|probable|probably|favou?r(?:ed|s|ing)?|leading|working\s+diagnosis|"
    r"consistent\s+with|in\s+keeping\s+with|suggestive\s+of|suggests|suspect(?:ed)?|I\s+think|"
    r"points?\s+to(?:ward)?|presumed|presumptive|impression|top\s+of\s+(?:my|the)\s+differential|"
    r"primary\s+concern|main\s+concern|best\s+explain\w*|fits\s+best|strongly)\b",
    re.I,
)
POSSIBLE_DX_RX = re.compile(
    r"\b(?:could|may|might|possible|possibly|consider(?:ed|ing)?|differential|cannot\s+(?:yet\s+)?exclude|"
    r"can't\s+exclude|rule\s+out|to\s+exclude|exclude|vs\.?|versus|or|query|alternatives?|"
    r"also\s+(?:possible|considered)|concern\s+for|worry\s+about|risk\s+factors?\s+for|screen(?:ing)?\s+for|"
    r"evaluat\w*\s+for|assess\w*\s+for|test(?:ing)?\s+for|suspicion\s+of|features\s+of)\b|\?",
    re.I,
)
HEDGE_DX_DOWNGRADE_RX = re.compile(
    r"\b(?:(?:almost|nearly|virtually|near|all\s+but)\s+(?:certain(?:ly)?|definite(?:ly)?|sure)|in\s+all\s+likelihood|"
    r"may|might|could|possibly|perhaps|probably|likely|think|suspect|pending|provisional|tentative|until|"
    r"if\s+confirmed|cannot\s+be\s+sure|working\s+diagnosis|working\s+impression)\b",
    re.I,
)

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a dozen": 12,
}  # fmt: skip
NUMBER_WORD_RX = re.compile(r"\b(" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.I)

_CLAUSE_SPLIT = re.compile(
    r"[,;:()\[\]]|\s[-–—]\s|\b(?:which|but|whereas|while|although|though|and(?=\s+(?:this|that|it|he|she)\b)|"
    r"so(?=\s+(?:the|this|he|she)\b)|therefore|thus|because|since|given\s+that)\b",
    re.I,
)


def clause_bounds(text: str, pos: int) -> tuple[int, int]:
    """The clause of ``text`` containing ``pos`` (split at punctuation and conjunctions)."""
    start, end = 0, len(text)
    for m in _CLAUSE_SPLIT.finditer(text):
        if m.end() <= pos:
            start = m.end()
        elif m.start() >= pos:
            end = m.start()
            break
    return start, end


def words_before(text: str, pos: int, n: int) -> str:
    """The last ``n`` words of ``text[:pos]`` (same clause not enforced)."""
    return " ".join(text[:pos].split()[-n:])


def has(rx: re.Pattern[str], text: str) -> bool:
    return bool(rx.search(text))


def first_match(rx: re.Pattern[str], text: str) -> str | None:
    m = rx.search(text)
    return m.group(0) if m else None


_NEG_PRE = re.compile(
    # round 102: "no-" joined to a word ("on the no-biopsy pathway her tTG ...") negates nothing after it
    r"\b(?:" + NO_CUE + r"|not|denies|denied|deny|denying|without|negative|absent|absence\s+of|free\s+of|never|nor|neither|"
    r"non(?![-‑]\w)|lack\s+of|ruled\s+out|excluded|rather\s+than|instead\s+of)\b|"
    # contractions: "she isn't on a diuretic", "he doesn't smoke", "hasn't had any fevers"
    r"\b(?:is|are|was|were|does|do|did|has|have|had|ca|wo)n['’]t\b",
    re.I,
)
_NEG_POST = re.compile(
    r"^\s*(?:(?:is|was|were|are|came\s+back|returned|tests?|tested|all|were\s+all|both)\s+)*(?:negative|neg\b|-ve\b|absent|"
    r"not\s+detected|not\s+seen|not\s+present|non-?reactive|undetectable|ruled\s+out|excluded)\b"
    # round 119: a note's "nil" or "none" after the heading it empties ("FHx nil.", "Allergies: none")
    r"|^\s*:?\s*(?:nil|none)\b(?!\s+(?:of|other|known|that|which)\b)",
    re.I,
)
_WHERE_FOUND = re.compile(
    # (round 139: not "never on": "Never on steroids" denies the drug, like "not on")
    r"(?<![\w'’])(?!(?:is|was|are|were|be|been|being|not|never|remains?|stays?|kept|started|put)\b)[a-z]+(?<!n't)(?<!n’t)"
    r"\s+(?:on|at)\s+(?:the\s+|her\s+|his\s+|a\s+|an\s+)?$",
    re.I,
)
# a spaced dash ends the negated phrase too: "No change — gestational thrombocytopenia" denies nothing after it
_CONTRAST = r"but|however|although|though|except|yet|whereas|with"
_NEG_BREAK = re.compile(rf"[,;:.()]|\s[—–]\s|\b(?:{_CONTRAST}|and\s+(?:a|an|the|his|her|he|she))\b", re.I)


# round 140: "Denies polyuria/polydipsia/nocturia, blurred vision, wt loss": a denial over a list of short items, in
# the word-level scope every reader shares (claims._in_negated_list reads "no X, Y or Z" lists more loosely, and only
# for the claim readers that ask claims._denied_at; their words and limits differ, so folding them into one is a
# change of behaviour, left to a tuning round)
_DENIAL_LIST = re.compile(
    r"\b(?:denies|denied|denying|negative\s+for)\s+(?P<items>[^.;:()\n]*?)\s*$", re.I
)
_LIST_SEP = re.compile(r"\s*(?:,|/|\bor\b|\bnor\b|\band\b)\s*", re.I)
_LIST_BREAK = re.compile(
    rf"\d|\s[—–]\s|\b(?:{_CONTRAST}|is|was|are|were|has|had|have|since|which|who|reports?|admits?|describes?|"
    r"complains?|endorses?|notes?|says?|and\s+(?:a|an|the|his|her|he|she|it|they))\b",
    re.I,
)


# "does not explain the COHb", "doesn't explain a positive IGRA", "does not drop the pH this far": the negation
# denies a relation (what a diagnosis accounts for), and the finding after it is taken as given
_NEGATED_RELATION = re.compile(
    r"(?:(?:\b(?:not|never|no\s+longer)|n['’]t)\s+(?:\w+ly\s+)?(?:explain|account\s+for|produce|cause|drop|fit\s+with|"
    r"raise|elevate)\w*|\b(?:excluded|ruled\s+out)\s+by)"  # round 57: "no longer explains", "excluded by the lipase"
    r"(?:\s+(?:the|a|an|this|that|her|his|such\s+an?))?(?:\s+(?:positive|raised|high|low|elevated|abnormal))?\s*$",
    re.I,
)
# round 57: the same relation over a list ("does not explain the dyskinesias or the CSF") and its contrast ("explain
# the bright red blood but not the FIT"): the findings are taken as given
_RELATION_AFTER_NEG = re.compile(r"^\s*(?:longer\s+)?(?:\w+ly\s+)?(?:explain|account|produce|cause|drop|fit|raise|elevate)", re.I)
_EXPLAINS_BUT_NOT = re.compile(
    r"\b(?:explain|account\s+for)\w*\b[^.;:]{0,60}\bbut\s+not\s+(?:the|a|an|her|his|this)?\s*$", re.I
)


# Words that name a finding as absent (round 60c): context._head_lexicon makes them aliases (the lexicon ignores
# case) of the denied fever or the measured temperature (AFEBRILE_RX) and of the one denied fact about symptoms;
# mention_negated reads them denied
AFEBRILE_WORDS = ("afebrile", "apyrexial")
SYMPTOM_FREE_WORDS = ("asymptomatic",)
AFEBRILE_RX = re.compile("|".join(AFEBRILE_WORDS), re.I)
ABSENT_FINDING_RX = re.compile("|".join(AFEBRILE_WORDS + SYMPTOM_FREE_WORDS), re.I)


def mention_negated(text: str, start: int, end: int, window: int = 4) -> bool:
    """Stricter negation scope than medgym.text.negation: a trigger at most ``window`` words
    before the mention in the same clause ("no fever or rigors", "negative HBsAg"), or a
    negative result word right after it ("serology negative")."""
    if re.fullmatch(r"NKD?As?", text[start:end]):
        return True  # round 56: "NKDA" is "no known drug allergies"
    if ABSENT_FINDING_RX.fullmatch(text[start:end]):
        # round 60c: a word that names a finding as absent ("Afebrile", "Asymptomatic"; context._head_lexicon)
        return not re.search(r"\b(?:not|no\s+longer)\s+$", text[max(0, start - 12) : start], re.I)
    before = text[max(0, start - 100) : start]
    if _WHERE_FOUND.search(before):
        # "no flap on echo", "no nodal uptake on PET": the negation is the finding's; the test or site it
        # was looked for on is not denied
        return bool(_NEG_POST.match(text[end : end + 45]))
    if _EXPLAINS_BUT_NOT.search(before):
        return False
    if (denial := _DENIAL_LIST.search(before)) is not None and not _LIST_BREAK.search(denial.group("items")) and all(
        len(part.split()) <= 4 for part in _LIST_SEP.split(denial.group("items"))
    ):
        return True  # round 140: a note's denial list keeps its scope over commas ("Denies polyuria, blurred vision, wt loss")
    cut = list(_NEG_BREAK.finditer(before))
    if cut:
        before = before[cut[-1].end() :]
    words = before.split()
    tail = " ".join(words[-window:]) if words else ""
    if _NEG_PRE.search(tail) and not _NEGATED_RELATION.search(before[-60:]):
        return True
    # a coordinated negated list keeps its scope over more words: "no cord compression or cord signal change"
    long_tail = " ".join(words[-9:]) if words else ""
    for m in _NEG_PRE.finditer(long_tail):
        if _RELATION_AFTER_NEG.match(long_tail[m.end() :]):
            continue
        if re.search(r"\b(?:or|nor)\b", long_tail[m.end() :]):
            return True
    return bool(_NEG_POST.match(text[end : end + 45]))
