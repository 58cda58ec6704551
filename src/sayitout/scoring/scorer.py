"""The scoring engine: rubric + answer -> AnswerScore.

``Scorer`` embeds each rubric once (cached by question id, version and a hash of its
content). Per answer, the model runs once over the whole answer and every window's
embedding is the mean of its tokens' contextual vectors from that pass ("late
chunking", ``Embedder.encode_spans``); ``Params.per_window()`` switches back to
encoding every window on its own (about four times slower on a CPU). As an opt-in
(``Params.isolate_misconceptions``, off: see there why), the few best candidate
windows of each misconception are re-encoded on their own and the misconception is
judged there. ``score_many`` runs the answers of a batch together, sorted by length,
and any isolated windows of all answers in one more batch.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from sayitout.bank.models import Rubric
from sayitout.scoring import numbers, polarity
from sayitout.scoring.delivery import delivery_metrics
from sayitout.scoring.embedder import Embedder
from sayitout.scoring.matching import (
    DISTRACTORS,
    Candidate,
    Params,
    RubricText,
    lexical,
    make_rubric_text,
    number_tokens,
    numbers_agree,
)
from sayitout.scoring.result import AnswerScore, KeyPointResult, MisconceptionResult
from sayitout.scoring.text import (
    MAX_WINDOW_WORDS,
    Window,
    clean_text,
    content_stems,
    looks_english,
    tidy_quote,
    windows,
    words,
)
from sayitout.scoring.verdict import overall_score, verdict
from sayitout.speech.transcript import Transcript


@dataclass(frozen=True)
class _Item:
    kind: str  # "kp" | "mis"
    index: int
    text_rows: tuple[int, ...]
    """Rows of the prepared rubric's embedding matrix: the text and its paraphrases."""
    term_stems: tuple[frozenset[str], ...]


@dataclass(frozen=True)
class PreparedRubric:
    rubric: Rubric
    texts: tuple[RubricText, ...]
    emb: np.ndarray
    baseline: np.ndarray
    """Per text row: best cosine to a content-free answer."""
    items: tuple[_Item, ...]


@dataclass
class _Answer:
    text: str
    transcript: Transcript
    windows: list[Window]
    truncated: bool
    english: bool
    word_count: int


def rubric_key(rubric: Rubric) -> tuple[str, int, str]:
    digest = hashlib.sha256(rubric.model_dump_json().encode()).hexdigest()[:16]
    return rubric.question_id, rubric.version, digest


class Scorer:
    """Grades answers against rubrics. Thread-safe; loads the model on first use."""

    def __init__(
        self,
        device: str = "auto",
        *,
        embedder: Embedder | None = None,
        params: Params | None = None,
        threads: int | None = None,
    ) -> None:
        self.embedder = embedder or Embedder(device, threads=threads)
        self.params = params or Params()
        self._cache: dict[tuple[str, int, str], PreparedRubric] = {}
        self._lock = threading.Lock()
        self._distractors: np.ndarray | None = None

    @property
    def model_name(self) -> str:
        return self.embedder.name

    def warm_up(self) -> None:
        """Load the model and run it once, so the first real answer is fast."""
        self.embedder.load()
        self._distractor_emb()
        self.embedder.encode(["warm up the model with a short sentence"])

    # ---- rubric preparation -------------------------------------------------
    def _distractor_emb(self) -> np.ndarray:
        if self._distractors is None:
            self._distractors = self.embedder.encode(list(DISTRACTORS))
        return self._distractors

    def prepare(self, rubric: Rubric) -> PreparedRubric:
        return self.prepare_many([rubric])[0]

    def prepare_many(self, rubrics: Sequence[Rubric]) -> list[PreparedRubric]:
        keys = [rubric_key(r) for r in rubrics]
        with self._lock:
            missing = {k: r for k, r in zip(keys, rubrics, strict=True) if k not in self._cache}
        if missing:
            built = self._build(list(missing.values()))
            with self._lock:
                self._cache.update(zip(missing.keys(), built, strict=True))
        with self._lock:
            return [self._cache[k] for k in keys]

    def _build(self, rubrics: list[Rubric]) -> list[PreparedRubric]:
        per_rubric: list[tuple[list[RubricText], list[_Item]]] = []
        all_texts: list[str] = []
        for rubric in rubrics:
            texts: list[RubricText] = []
            items: list[_Item] = []
            for kind, group in (("kp", rubric.key_points), ("mis", rubric.misconceptions)):
                for idx, entry in enumerate(group):
                    rows = []
                    for t in (entry.text, *entry.paraphrases):
                        rows.append(len(texts))
                        texts.append(make_rubric_text(t))
                    terms = tuple(content_stems(t) for t in getattr(entry, "terms", ()))
                    items.append(_Item(kind, idx, tuple(rows), terms))
            per_rubric.append((texts, items))
            all_texts.extend(t.text for t in texts)
        emb = self.embedder.encode(all_texts)
        base = (emb @ self._distractor_emb().T).max(axis=1) if len(emb) else np.zeros(0)
        out = []
        offset = 0
        for rubric, (texts, items) in zip(rubrics, per_rubric, strict=True):
            n = len(texts)
            out.append(
                PreparedRubric(
                    rubric=rubric,
                    texts=tuple(texts),
                    emb=emb[offset : offset + n],
                    baseline=base[offset : offset + n],
                    items=tuple(items),
                )
            )
            offset += n
        return out

    # ---- scoring ------------------------------------------------------------
    def score(self, rubric: Rubric, answer: Transcript | str) -> AnswerScore:
        return self.score_many([(rubric, answer)])[0]

    def score_many(self, items: Iterable[tuple[Rubric, Transcript | str]]) -> list[AnswerScore]:
        """Score many answers; the windows of all answers are embedded in one batch."""
        pairs = list(items)
        answers = [_prepare_answer(a) for _, a in pairs]
        need_model = any(a.windows for a in answers)
        prepared = self.prepare_many([r for r, _ in pairs]) if need_model else [None] * len(pairs)
        emb = self._embed_windows(answers)
        jobs: list[_MatchJob | None] = []
        offset = 0
        for (rubric, _), prep, ans in zip(pairs, prepared, answers, strict=True):
            n = len(ans.windows)
            if prep is None or not ans.windows:
                jobs.append(None)
            else:
                jobs.append(self._match(rubric, prep, ans, emb[offset : offset + n]))
            offset += n
        matched = _run_jobs(jobs, self.embedder.encode)
        return [
            self._grade(rubric, ans, m)
            for (rubric, _), ans, m in zip(pairs, answers, matched, strict=True)
        ]

    def _embed_windows(self, answers: list[_Answer]) -> np.ndarray:
        """The embeddings of every answer's windows, stacked in order."""
        if self.params.late_chunking:
            todo = [a for a in answers if a.windows]
            if not todo:
                return np.zeros((0, self.embedder.dim), dtype=np.float32)
            texts = [a.text[: max(w.end for w in a.windows)] for a in todo]
            spans = [[(w.start, w.end) for w in a.windows] for a in todo]
            return np.concatenate(self.embedder.encode_spans(texts, spans), axis=0)
        flat = [w.text for a in answers for w in a.windows]
        if not flat:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return self.embedder.encode(flat)

    def _grade(
        self,
        rubric: Rubric,
        ans: _Answer,
        matched: tuple[list[KeyPointResult], list[MisconceptionResult]] | None,
    ) -> AnswerScore:
        p = self.params
        notes: list[str] = []
        if ans.truncated:
            notes.append(
                f"Long answer ({ans.word_count:,} words): key points were matched in the first "
                f"{MAX_WINDOW_WORDS:,} words only."
            )
        if not ans.english:
            notes.append("The answer does not look like English; scoring assumes English.")
        if ans.transcript.language and ans.transcript.language != "en":
            notes.append(f"Recognised language was {ans.transcript.language!r}, not English.")
        kp_results: list[KeyPointResult] = []
        mis_results: list[MisconceptionResult] = []
        if matched is None:
            kp_results = [
                KeyPointResult(kp.id, kp.text, kp.weight, "missed", 0.0, None, None)
                for kp in rubric.key_points
            ]
        else:
            kp_results, mis_results = matched
        numeric = numbers.judge(rubric.numeric, ans.text) if rubric.numeric else None
        score = overall_score(kp_results, numeric, mis_results, p)
        if not ans.text.strip():
            score = 0
        return AnswerScore(
            question_id=rubric.question_id,
            score=score,
            verdict=verdict(ans.text, kp_results, numeric, mis_results, rubric),
            key_points=tuple(kp_results),
            numeric=numeric,
            misconceptions=tuple(mis_results),
            delivery=delivery_metrics(ans.transcript),
            answer=ans.text,
            rubric_version=rubric.version,
            embedding_model=self.model_name,
            notes=tuple(notes),
        )

    def _match(
        self, rubric: Rubric, prep: PreparedRubric, ans: _Answer, win_emb: np.ndarray
    ) -> _MatchJob:
        """Match one answer. A generator: it may first yield the texts of windows it
        wants encoded on their own and is sent their embeddings (``_run_jobs``)."""
        p = self.params
        sims = prep.emb @ win_emb.T  # texts x windows
        wins = ans.windows
        all_words = words(ans.text)
        pol_cache: dict[int, polarity.Polarity] = {}
        num_cache: dict[int, list[numbers.NumberMention]] = {}

        def win_pol(j: int) -> polarity.Polarity:
            if j not in pol_cache:
                w = wins[j]
                # three words either side: a negation just outside the window still counts
                start = all_words[max(0, w.first - 3)].start
                end = all_words[min(len(all_words) - 1, w.last + 3)].end
                pol_cache[j] = polarity.analyse(ans.text[start:end])
            return pol_cache[j]

        wide_cache: dict[int, polarity.Polarity] = {}

        def wide_pol(j: int) -> polarity.Polarity:
            """Direction words further out: "the first thing I change is the learning rate.
            After a while I would lower it" states its direction after the window."""
            if j not in wide_cache:
                w = wins[j]
                start = all_words[max(0, w.first - 3)].start
                end = all_words[min(len(all_words) - 1, w.last + WIDE_AFTER)].end
                wide_cache[j] = polarity.analyse(ans.text[start:end])
            return wide_cache[j]

        def win_nums(j: int) -> list[numbers.NumberMention]:
            if j not in num_cache:
                num_cache[j] = numbers.find_numbers(wins[j].text)
            return num_cache[j]

        win_stems = [content_stems(w.text) | number_tokens(win_nums(j)) for j, w in enumerate(wins)]

        def valid(rt: RubricText, j: int, is_mis: bool) -> bool:
            pol = win_pol(j)
            if rt.polarity.mentions and not pol.mentions:
                pol = wide_pol(j)
                # a misconception about a direction needs the direction stated
                if is_mis and not pol.mentions:
                    return False
            if polarity.direction_conflict(rt.polarity, pol):
                return False
            if is_mis and polarity.negation_differs(rt.polarity, win_pol(j)):
                return False
            if polarity.negates(rt.polarity, rt.stems, win_pol(j)):
                return False
            return numbers_agree(rt.numbers, win_nums(j), require=is_mis)

        def best(item: _Item, is_mis: bool, exclude: frozenset[int] = frozenset()) -> Candidate:
            margin = p.misconception_margin if is_mis else p.min_margin
            scored = []
            for row in item.text_rows:
                rt = prep.texts[row]
                floor = prep.baseline[row] + margin
                for j in range(len(wins)):
                    cos = float(sims[row, j])
                    if cos >= floor and j not in exclude:
                        lex = lexical(rt.stems, win_stems[j], item.term_stems)
                        scored.append(((1 - p.lex_weight) * cos + p.lex_weight * lex, cos, row, j))
            scored.sort(key=lambda s: (-s[0], s[2], s[3]))
            cand = Candidate()
            for match, cos, row, j in scored:
                if cand.window is not None and match < cand.match - 0.02:
                    break
                if not valid(prep.texts[row], j, is_mis):
                    continue
                if cand.window is None:
                    cand = Candidate(match, cos, j, row)
                elif _length(wins[j]) < _length(wins[cand.window]):
                    # nearly as good and shorter: a tighter quote for the same credit
                    cand = Candidate(cand.match, cand.cos, j, row)
            return cand

        def quote(j: int) -> Window:
            return tidy_quote(ans.text, all_words, wins[j].first, wins[j].last)

        kp_items = [item for item in prep.items if item.kind == "kp"]
        mis_items = [item for item in prep.items if item.kind == "mis"]

        def top_windows(item: _Item) -> list[int]:
            """The item's best valid windows by late-chunked match, best first."""
            scored = []
            for row in item.text_rows:
                rt = prep.texts[row]
                floor = prep.baseline[row] + p.misconception_margin
                for j in range(len(wins)):
                    cos = float(sims[row, j])
                    if cos >= floor:
                        lex = lexical(rt.stems, win_stems[j], item.term_stems)
                        scored.append(((1 - p.lex_weight) * cos + p.lex_weight * lex, row, j))
            scored.sort(key=lambda s: (-s[0], s[1], s[2]))
            picked: list[int] = []
            for match, row, j in scored:
                if match < p.iso_candidate:
                    break
                if j not in picked and valid(prep.texts[row], j, True):
                    picked.append(j)
                    if len(picked) >= p.isolate_misconceptions:
                        break
            return picked

        iso: dict[int, np.ndarray] = {}
        if p.late_chunking and p.isolate_misconceptions > 0 and mis_items:
            picks: list[int] = []
            for item in mis_items:
                picks.extend(j for j in top_windows(item) if j not in picks)
            if picks:
                vecs = yield [wins[j].text for j in picks]
                iso = dict(zip(picks, vecs, strict=True))

        def iso_best(item: _Item, j: int, is_mis: bool) -> Candidate:
            """The item's match on window ``j`` encoded on its own (per-window scale)."""
            cand = Candidate()
            for row in item.text_rows:
                rt = prep.texts[row]
                cos = float(prep.emb[row] @ iso[j])
                if cos < prep.baseline[row] + p.iso_margin or not valid(rt, j, is_mis):
                    continue
                lex = lexical(rt.stems, win_stems[j], item.term_stems)
                match = (1 - p.iso_lex_weight) * cos + p.iso_lex_weight * lex
                if match > cand.match:
                    cand = Candidate(match, cos, j, row, {"isolated": True})
            return cand

        def mis_candidate(item: _Item) -> Candidate | None:
            if not iso:
                c = best(item, True)
                if c.window is None or c.match < p.misconception:
                    return None
                return c
            c = Candidate()
            for j in iso:
                m = iso_best(item, j, True)
                if m.window is not None and (m.match, -_length(wins[j])) > (
                    c.match,
                    -_length(wins[c.window]) if c.window is not None else 0,
                ):
                    c = m
            if c.window is None or c.match < p.iso_misconception:
                return None
            return c

        def kp_beats(m: Candidate, n: int, k: Candidate, by: float) -> bool:
            """Whether key point ``n`` (best window ``k``) explains misconception
            candidate ``m``'s words at least ``by`` better than the misconception does."""
            if k.window is None or not _overlap(wins, k.window, m.window):
                return False
            if m.extra.get("isolated"):
                # compare on the same isolated window, on one scale
                alt = iso_best(kp_items[n], m.window, False)
                return alt.window is not None and alt.match >= m.match + by
            return k.match >= m.match + by

        kp_best = [best(item, False) for item in kp_items]
        mis_results = []
        claimed: list[Candidate] = []
        for item in mis_items:
            mis = rubric.misconceptions[item.index]
            c = mis_candidate(item)
            if c is None:
                continue
            # The same words explain a key point better: topical overlap, not a misconception.
            if any(kp_beats(c, n, k, 0.03) for n, k in enumerate(kp_best)):
                continue
            claimed.append(c)
            w = quote(c.window)
            mis_results.append(
                MisconceptionResult(
                    id=mis.id,
                    text=mis.text,
                    correction=mis.correction,
                    similarity=round(c.cos, 4),
                    evidence=w.text,
                    evidence_span=(w.start, w.end),
                    penalty=mis.penalty,
                )
            )
        if p.misconception_claims and claimed:
            # Words that state a misconception better than they state a key point earn
            # that key point nothing ("LayerNorm uses the batch statistics, BatchNorm works
            # per example" is the swap, not the key point about batch statistics).
            for n, item in enumerate(kp_items):
                exclude: set[int] = set()
                c = kp_best[n]
                while c.window is not None and any(
                    not kp_beats(m, n, c, 1e-9) and _overlap(wins, m.window, c.window)
                    for m in claimed
                    if m.window is not None
                ):
                    exclude.add(c.window)
                    c = best(item, False, frozenset(exclude))
                kp_best[n] = c
        kp_results = []
        for item, c in zip(kp_items, kp_best, strict=True):
            kp = rubric.key_points[item.index]
            status = "missed"
            if c.window is not None and c.match >= p.covered:
                status = "covered"
            elif c.window is not None and c.match >= p.partial:
                status = "partial"
            w = quote(c.window) if c.window is not None and status != "missed" else None
            kp_results.append(
                KeyPointResult(
                    id=kp.id,
                    text=kp.text,
                    weight=kp.weight,
                    status=status,
                    similarity=round(c.cos if c.window is not None else _best_cos(sims, item), 4),
                    evidence=w.text if w else None,
                    evidence_span=(w.start, w.end) if w else None,
                )
            )
        return kp_results, mis_results


_MatchResult = tuple[list[KeyPointResult], list[MisconceptionResult]]
_MatchJob = Generator[list[str], np.ndarray, _MatchResult]


def _run_jobs(
    jobs: list[_MatchJob | None], encode: Callable[[list[str]], np.ndarray]
) -> list[_MatchResult | None]:
    """Run match generators: collect the windows each wants encoded on its own, encode
    them all in one batch, send each its rows, and return their results."""
    out: list[_MatchResult | None] = [None] * len(jobs)
    asks: list[tuple[int, list[str]]] = []
    for i, job in enumerate(jobs):
        if job is None:
            continue
        try:
            asks.append((i, next(job)))
        except StopIteration as done:
            out[i] = done.value
    texts = [t for _, ask in asks for t in ask]
    vecs = encode(texts) if texts else np.zeros((0, 0), dtype=np.float32)
    offset = 0
    for i, ask in asks:
        job = jobs[i]
        assert job is not None
        try:
            job.send(vecs[offset : offset + len(ask)])
        except StopIteration as done:
            out[i] = done.value
        else:
            raise RuntimeError("a match job asked twice for isolated windows")
        offset += len(ask)
    return out


#: How many words after a window are searched for a direction word when the window
#: itself states none.
WIDE_AFTER = 12


def _best_cos(sims: np.ndarray, item: _Item) -> float:
    return float(sims[list(item.text_rows)].max()) if sims.size else 0.0


def _length(w: Window) -> int:
    return w.last - w.first


def _overlap(wins: list[Window], a: int, b: int) -> bool:
    wa, wb = wins[a], wins[b]
    return not (wa.last < wb.first or wb.last < wa.first)


def _prepare_answer(answer: Transcript | str) -> _Answer:
    transcript = answer if isinstance(answer, Transcript) else Transcript.typed(answer)
    text = clean_text(transcript.text)
    ws = words(text)
    wins, truncated = windows(text, ws)
    return _Answer(
        text=text,
        transcript=transcript,
        windows=wins,
        truncated=truncated,
        english=looks_english(ws),
        word_count=len(ws),
    )
