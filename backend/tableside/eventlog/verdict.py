"""What a verification checked, in words: every answer names the checks that ran (#29).

"ok" alone means every check a verification of its kind can run did run and held; a missing
one qualifies it ("ok, unsealed", "ok, unwitnessed", "ok, signature unchecked"), so an
answer never claims more than was checked. The CLI prints `line()`, the API returns
`as_dict()`, the audit face shows the checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tableside.eventlog.checkpoints import Checkpoint, problem
from tableside.eventlog.verify import ChainReport

UNPROVEN = "unproven"
ACCEPTED = "accepted dispute"  # an accepted dispute touches it: accepted as it stood (#50)


@dataclass
class Verdict:
    """The checks that ran (`ran`: what each covered), the ones that could not (`missing`:
    each word qualifies the "ok"), and the first problem, if any."""

    ran: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    problem: str | None = None

    @property
    def ok(self) -> bool:
        """No check found a problem (see `word` for how much was checked)."""
        return self.problem is None

    @property
    def proven(self) -> bool:
        """No problem, and something signed covers what was checked (#41), and no accepted
        dispute touches it (#50)."""
        return self.ok and UNPROVEN not in self.missing and ACCEPTED not in self.missing

    @property
    def word(self) -> str:
        """ "ok", "ok, unsealed", …, "accepted dispute" (one touches it, #50), "unproven"
        (nothing signed covers it), or "failed"."""
        if self.problem is not None:
            return "failed"
        if ACCEPTED in self.missing:  # said first: what nothing signed after it can undo
            return ACCEPTED
        if UNPROVEN in self.missing:
            return UNPROVEN
        return ", ".join(["ok", *self.missing])

    def line(self, subject: str) -> str:
        """One line for the CLI: the problem, or the word, the subject and the checks."""
        if self.problem is not None:
            return self.problem
        return f"{self.word}: {subject}; checked: {'; '.join(self.ran)}"

    def as_dict(self) -> dict[str, Any]:
        """The API's shape: verdict word, checks that ran, checks missing, the problem."""
        return {
            "verdict": self.word,
            "checks": list(self.ran),
            "missing": list(self.missing),
            "problem": self.problem,
        }


def held_to(checkpoint: Checkpoint, report: ChainReport) -> str | None:
    """Does the verified store still reach this checkpoint, with the same head?"""
    if checkpoint.position > report.last_position:
        return (
            f"the store ends at position {report.last_position}, but a checkpoint signed at "
            f"{checkpoint.time.isoformat()} covers position {checkpoint.position}:"
            " events were removed"
        )
    found = report.heads[checkpoint.position].hex()
    if found != checkpoint.head_hash:
        return (
            f"the store-wide chain at position {checkpoint.position} is {found}, "
            f"the checkpoint says {checkpoint.head_hash}"
        )
    return None


def check_marks(
    report: ChainReport, marks: list[Checkpoint], trusted: bytes | None, *, name: str
) -> str | None:
    """The first checkpoint of `marks` the store no longer reaches or that is badly signed,
    as a problem naming where it came from (`name`), or None."""
    for checkpoint in marks:
        found = held_to(checkpoint, report) or problem(checkpoint, trusted)
        if found:
            return f"{name}: {found}"
    return None


def record_verdict(report: Any, trusted: bytes | None, *, in_store: bool = False) -> Verdict:
    """A match's record (an export, or one stream in the store, `jsonl.verify_sealed`'s
    report): its chain, and its seal up to a signed checkpoint when it has one. `in_store`
    (the audit face, #41): a record no signed checkpoint covers is *unproven*, not "ok"."""
    verdict = Verdict(problem=report.problem)
    if verdict.problem is not None:
        return verdict
    verdict.ran.append(f"the stream's chain ({report.events} events)")
    checkpoint = report.checkpoint
    if checkpoint is None:
        verdict.missing.append(UNPROVEN if in_store else "unsealed")
        verdict.ran.append("no seal: nothing ties this record to a signed checkpoint")
        return verdict
    verdict.ran.append(
        f"sealed: the store-wide chain up to the checkpoint at position {checkpoint.position}"
    )
    if trusted is not None:
        verdict.ran.append(f"its signature against key {trusted.hex()[:16]}…")
    else:
        verdict.missing.append("signature unchecked")
        verdict.ran.append("its signature against its own key only (give --public-key)")
    return verdict
