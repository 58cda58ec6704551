"""The scoring engine: rubric + answer -> AnswerScore.

``Scorer`` embeds each rubric once (cached by question id, version and a hash of its
content). Per answer, the model runs once over the whole answer and every window's
embedding is the mean of its tokens' contextual vectors from that pass ("late
chunking", ``Embedder.encode_spans``); ``Params.per_window()`` is the strategy of
encoding every window on its own (about four times slower on a CPU). ``score_many``
runs the answers of a batch together, sorted by length. Matching one answer against
its rubric is ``matcher.Matcher``'s; the overall score and verdict are ``verdict``'s.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import partial

import numpy as np

from sayitout.bank.models import KeyPoint, Misconception, Rubric
from sayitout.scoring import numbers
from sayitout.scoring.delivery import delivery_metrics
from sayitout.scoring.embedder import Embedder
from sayitout.scoring.judge import Judge, load_bundled_judge
from sayitout.scoring.matcher import AnswerText, Item, Matcher, MatchResult, PreparedRubric
from sayitout.scoring.matching import (
    DISTRACTORS,
    Lexicon,
    Params,
    RubricText,
    initialisms,
    make_rubric_text,
    stem_weights,
)
from sayitout.scoring.result import (
    AnswerScore,
    KeyPointResult,
    MisconceptionResult,
    NumericResult,
)
from sayitout.scoring.roles import Roles
from sayitout.scoring.statements import read_back_grams
from sayitout.scoring.text import (
    MAX_WINDOW_WORDS,
    Span,
    clean_text,
    content_stems,
    looks_english,
    name_terms,
    sentences,
    unmarked,
    windows,
    words,
)
from sayitout.scoring.verdict import overall_score, verdict
from sayitout.speech.transcript import Transcript

__all__ = ["PreparedRubric", "Scorer", "rubric_key"]


def rubric_key(rubric: Rubric) -> tuple[str, int, str]:
    """What a prepared rubric depends on: its content and its question's text."""
    content = rubric.model_dump_json() + "\n" + rubric.question
    digest = hashlib.sha256(content.encode()).hexdigest()[:16]
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
        judge: Judge | None = None,
        neighbours: Callable[[Rubric], Sequence[Rubric]] | None = None,
    ) -> None:
        """``judge``: the judge of whether an answer states a key point; None loads the
        bundled one when ``params`` use it (``Params.judge_weight``). ``neighbours``: the
        other questions of a rubric's deck; an answer that reads like one of their model
        answers far more than its own answers that question instead
        (``Params.off_topic_other``). None: no such check."""
        self.embedder = embedder or Embedder(device, threads=threads)
        self.params = params or Params()
        self._judge = judge
        self.neighbours = neighbours
        self._model_answers: dict[str, np.ndarray] = {}  # embedded, by text
        self._cache: dict[tuple[str, int, str], PreparedRubric] = {}
        self._lock = threading.Lock()
        self._distractors: np.ndarray | None = None

    @property
    def model_name(self) -> str:
        return self.embedder.name

    @property
    def judging(self) -> bool:
        """Whether key points are also read by the judge (it reads late chunking's
        token vectors, so it needs that strategy)."""
        return self.params.judge_weight > 0 and self.params.late_chunking

    @property
    def judge(self) -> Judge:
        """The judge, loaded on first use."""
        if self._judge is None:
            with self._lock:
                if self._judge is None:
                    self._judge = load_bundled_judge()
        return self._judge

    def warm_up(self) -> None:
        """Load the models and run them once, so the first real answer is fast."""
        self.embedder.load()
        if self.judging:
            _ = self.judge
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
        per_rubric: list[tuple[list[RubricText], list[Item], dict[int, int], frozenset[str]]] = []
        all_texts: list[str] = []
        for rubric in rubrics:
            texts: list[RubricText] = []
            items: list[Item] = []
            asked = content_stems(rubric.question)
            no_term_from = asked if self.params.question_terms_off else frozenset()
            groups: tuple[tuple[str, Sequence[KeyPoint | Misconception]], ...] = (
                ("kp", rubric.key_points),
                ("mis", rubric.misconceptions),
            )
            for kind, group in groups:
                for idx, entry in enumerate(group):
                    rows = []
                    split = kind == "kp" and self.params.split_key_points
                    parts = _parts(entry.text) if split else []
                    for t in dict.fromkeys((entry.text, *entry.paraphrases, *parts)):
                        rows.append(len(texts))
                        texts.append(make_rubric_text(t))
                    # a term the question says ("bf16" in "why bf16 over fp16?") is said by
                    # every answer on the topic: no evidence of this key point
                    terms = tuple(
                        stems
                        for t in getattr(entry, "terms", ())
                        if not (stems := content_stems(t)) <= no_term_from
                    )
                    items.append(Item(kind, idx, tuple(rows), terms))
            sentence_of: dict[int, int] = {}
            if self.params.model_answer_rows:
                # the model answer's sentences, attached to key points once embedded
                known = {t.text for t in texts}
                for t, sentence in _model_answer_pieces(rubric.model_answer):
                    if t not in known:
                        sentence_of[len(texts)] = sentence
                        texts.append(make_rubric_text(t))
            per_rubric.append((texts, items, sentence_of, asked))
            all_texts.extend(t.text for t in texts)
        emb = self.embedder.encode(all_texts)
        point_texts = [kp.text for rubric in rubrics for kp in rubric.key_points]
        point_states: list[np.ndarray] = []
        if self.judging and point_texts:
            _, point_states = self.embedder.encode_spans_and_states(
                point_texts, [[] for _ in point_texts]
            )
        dis = self._distractor_emb()
        base = np.einsum("ik,jk->ij", emb, dis).max(axis=1) if len(emb) else np.zeros(0)
        out = []
        offset = point_offset = 0
        for rubric, (texts, items, sentence_of, asked) in zip(rubrics, per_rubric, strict=True):
            points = len(rubric.key_points) if point_states else 0
            n = len(texts)
            items = _attach_model_answer(
                items, emb[offset : offset + n], sentence_of, self.params.model_answer_min_cos
            )
            roles = _roles(rubric)
            sentences = [[texts[r].stems for r in item.text_rows] for item in items]
            items_by_row = {r: item for item in items for r in item.text_rows}
            no_terms: tuple[frozenset[str], ...] = ()
            out.append(
                PreparedRubric(
                    rubric=rubric,
                    texts=tuple(texts),
                    emb=emb[offset : offset + n],
                    baseline=base[offset : offset + n],
                    items=tuple(items),
                    roles=roles,
                    clauses=tuple(tuple(roles.clauses(t.text)) if roles else () for t in texts),
                    lexicon=Lexicon.build(
                        [t.stems for t in texts],
                        [
                            items_by_row[r].term_stems if r in items_by_row else no_terms
                            for r in range(n)
                        ],
                        _question_discount(
                            stem_weights(sentences, self.params.idf_power),
                            asked,
                            self.params.question_stems,
                        ),
                    ),
                    read_back=read_back_grams(rubric.question),
                    asked_stems=asked,
                    point_states=tuple(point_states[point_offset : point_offset + points]),
                    initials=initialisms([rubric.question, *(t.text for t in texts)]),
                )
            )
            offset += n
            point_offset += points
        return out

    # ---- scoring ------------------------------------------------------------
    def score(self, rubric: Rubric, answer: Transcript | str) -> AnswerScore:
        return self.score_many([(rubric, answer)])[0]

    def score_many(self, items: Iterable[tuple[Rubric, Transcript | str]]) -> list[AnswerScore]:
        """Score many answers; the windows of all answers are embedded in one batch."""
        pairs = list(items)
        answers = [_answer_text(a) for _, a in pairs]
        need_model = any(a.windows for a in answers)
        prepared = self.prepare_many([r for r, _ in pairs]) if need_model else [None] * len(pairs)
        emb, states = self._embed_windows(answers)
        answer_states = iter(states)
        matched: list[MatchResult | None] = []
        offset = 0
        numeric = [
            numbers.judge(r.numeric, ans.text, ans.numbers) if r.numeric else None
            for (r, _), ans in zip(pairs, answers, strict=True)
        ]
        answered: list[Rubric | None] = []
        for prep, ans, num in zip(prepared, answers, numeric, strict=True):
            n = len(ans.windows)
            memory = next(answer_states, None) if prep is not None and ans.windows else None
            other = (
                self._answers_another(prep.rubric, memory) if prep and memory is not None else None
            )
            match: MatchResult | None = None
            if prep is not None and ans.windows:
                win_emb = emb[offset : offset + n]
                right = num is not None and num.correct
                judge = None
                if memory is not None and prep.point_states:
                    judge = partial(self._judge_points, memory, prep.point_states)
                match = Matcher(
                    self.params, prep, ans, win_emb, number_right=right, judge=judge
                ).match()
                if other is not None and self._answers_own(prep.rubric, match, num):
                    other = None
            answered.append(other)
            matched.append(None if other is not None else match)
            offset += n
        return [
            self._grade(rubric, ans, m, num, prep.lexicon.index if prep else frozenset(), other)
            for (rubric, _), prep, ans, m, num, other in zip(
                pairs, prepared, answers, matched, numeric, answered, strict=True
            )
        ]

    def _answers_another(self, rubric: Rubric, memory: np.ndarray) -> Rubric | None:
        """The other question of the deck that the answer (its token vectors ``memory``)
        answers instead of ``rubric``'s, if one: its pooled vector is at least
        ``off_topic_other`` close to that question's model answer and ``off_topic_margin``
        closer than to its own."""
        if self.neighbours is None or not len(memory):
            return None
        others = [r for r in self.neighbours(rubric) if r.question_id != rubric.question_id]
        if not others:
            return None
        p = self.params
        pooled = memory.mean(axis=0)
        pooled = pooled / max(float(np.linalg.norm(pooled)), 1e-12)
        emb = self._model_answer_emb([rubric.model_answer, *(r.model_answer for r in others)])
        cos = emb @ pooled
        best = int(np.argmax(cos[1:]))
        if cos[1 + best] >= p.off_topic_other and cos[1 + best] - cos[0] >= p.off_topic_margin:
            return others[best]
        return None

    def _answers_own(
        self, rubric: Rubric, match: MatchResult, numeric: NumericResult | None
    ) -> bool:
        """Whether an answer close to another question's model answer still answers its
        own: it scores at least ``off_topic_keeps`` against its own rubric."""
        kp_results, mis_results = match
        own = self._overall(rubric, kp_results, numeric, mis_results)
        return own >= self.params.off_topic_keeps

    def _overall(
        self,
        rubric: Rubric,
        kp_results: list[KeyPointResult],
        numeric: NumericResult | None,
        mis_results: list[MisconceptionResult],
    ) -> int:
        """``overall_score``, a rubric without paraphrases counted as thin."""
        thin = not any(kp.paraphrases for kp in rubric.key_points)
        return overall_score(kp_results, numeric, mis_results, self.params, thin=thin)

    def _model_answer_emb(self, texts: list[str]) -> np.ndarray:
        """Model answers embedded whole, each once per scorer."""
        with self._lock:
            todo = list(dict.fromkeys(t for t in texts if t not in self._model_answers))
        if todo:
            done = self.embedder.encode(todo)
            with self._lock:
                self._model_answers.update(zip(todo, done, strict=True))
        with self._lock:
            return np.stack([self._model_answers[t] for t in texts])

    def _judge_points(
        self, memory: np.ndarray, points: tuple[np.ndarray, ...], which: list[int]
    ) -> np.ndarray:
        with self.embedder.blas_threads():
            return self.judge.probs(memory, [points[i] for i in which])

    def _embed_windows(self, answers: list[AnswerText]) -> tuple[np.ndarray, list[np.ndarray]]:
        """The embeddings of every answer's windows, stacked in order, and (late chunking)
        the token vectors of every answer that has windows, in order."""
        empty = np.zeros((0, self.embedder.dim), dtype=np.float32)
        if self.params.late_chunking:
            todo = [a for a in answers if a.windows]
            if not todo:
                return empty, []
            texts = [a.text[: max(w.end for w in a.windows)] for a in todo]
            spans = [[(w.start, w.end) for w in a.windows] for a in todo]
            if self.params.name_terms:
                named = [name_terms(t) for t in texts]
                texts = [n.text for n in named]
                spans = [[n.span(s, e) for s, e in sp] for n, sp in zip(named, spans, strict=True)]
            vectors, states = self.embedder.encode_spans_and_states(texts, spans)
            return np.concatenate(vectors, axis=0), states
        flat = [w.text for a in answers for w in a.windows]
        if self.params.name_terms:
            flat = [name_terms(t).text for t in flat]
        return (self.embedder.encode(flat) if flat else empty), []

    def _grade(
        self,
        rubric: Rubric,
        ans: AnswerText,
        matched: MatchResult | None,
        numeric: NumericResult | None,
        vocabulary: Collection[str],
        answered: Rubric | None = None,
    ) -> AnswerScore:
        """The score card of one answer. ``vocabulary``: the stems of the rubric's
        sentences, which count as English words (``looks_english``). ``answered``: the
        other question the answer answers instead (``_answers_another``)."""
        notes: list[str] = []
        other = answered.question if answered is not None else None
        if answered is not None:
            notes.append(
                f'This sounds like an answer to another question: "{answered.question}" '
                "No key point of this one was credited."
            )
        if ans.truncated:
            # counted as written: the matcher's words count "16,781,312 parameters" once
            said = len(ans.text.split())
            read = len(ans.text[: ans.words[MAX_WINDOW_WORDS - 1].end].split())
            notes.append(
                f"Long answer ({said:,} words): key points were matched in the first "
                f"{read:,} words only."
            )
        if ans.listed:
            notes.append(
                "The answer lists terms without saying what they do: each key point earns "
                "at most part of its credit."
            )
        if not looks_english(ans.words, vocabulary):
            notes.append("The answer does not look like English; scoring assumes English.")
        if ans.transcript.language and ans.transcript.language != "en":
            notes.append(f"Recognised language was {ans.transcript.language!r}, not English.")
        kp_results: list[KeyPointResult] = []
        mis_results: list[MisconceptionResult] = []
        if matched is None:
            kp_results = [
                KeyPointResult(kp.id, kp.text, kp.weight, "missed", 0.0, None, None, 0.0)
                for kp in rubric.key_points
            ]
        else:
            kp_results, mis_results = matched
        score = self._overall(rubric, kp_results, numeric, mis_results)
        if not ans.text.strip():
            score = 0
        return AnswerScore(
            question_id=rubric.question_id,
            score=score,
            verdict=verdict(
                ans.text,
                kp_results,
                numeric,
                mis_results,
                answers_other=other,
                full=score >= 100,
            ),
            key_points=tuple(kp_results),
            numeric=numeric,
            misconceptions=tuple(mis_results),
            delivery=delivery_metrics(ans.transcript),
            answer=ans.text,
            rubric_version=rubric.version,
            embedding_model=self.model_name,
            notes=tuple(notes),
            answers_other=other,
        )


_PART_BREAK = re.compile(
    r"\s*(?:[;:]|,?\s+(?:so|because|which|since|while|whereas|but|and then)\b"
    r"|,\s+(?=\w+ing\b))\s*",
    re.IGNORECASE,
)


_PART_WORDS = 4
"""The fewest words a clause of a key point needs to be matched on its own."""


def _parts(text: str) -> list[str]:
    """The clauses of a long key point ("X, so Y" -> "X", "so Y"): a candidate often
    says one of them in its own words, and each is matched on its own. A short last
    clause with no number ("..., and then decay it") is left out and the rest matched
    alone: the steps before it are said far more often than it is. One with a number
    ("..., which is 2 bytes") is the point's result, so the point stays whole."""
    split = [p.strip(" ,.") for p in _PART_BREAK.split(text)]
    pieces = [p for p in split if len(p.split()) >= _PART_WORDS]
    if len(pieces) >= 2:
        return pieces
    if len(split) == 2 and pieces == split[:1] and not numbers.find_numbers(split[1]):
        return pieces
    return []


#: The fewest words a model-answer piece needs to be matched: shorter ones ("AdamW
#: decouples the decay") name a topic more than they state a point.
MODEL_ANSWER_PIECE_WORDS = 6


def _model_answer_pieces(model_answer: str) -> list[tuple[str, int]]:
    """The model answer's sentences and their clauses (``_parts``), each of at least
    ``MODEL_ANSWER_PIECE_WORDS`` words, with the index of the sentence each comes from:
    candidate paraphrases of the key points, in the words of a strong answer."""
    out: dict[str, int] = {}
    for n, sentence in enumerate(sentences(model_answer.strip())):
        sentence = sentence.strip(" .;")
        for piece in (sentence, *_parts(sentence)):
            if len(piece.split()) >= MODEL_ANSWER_PIECE_WORDS:
                out.setdefault(piece, n)
    return list(out.items())


def _attach_model_answer(
    items: list[Item], emb: np.ndarray, sentence_of: dict[int, int], min_cos: float
) -> list[Item]:
    """Each model-answer row (``sentence_of``: row -> the sentence it comes from) joins
    the key point it is most similar to, when that cosine is at least ``min_cos``; the
    clauses of a sentence that joined a key point join it too (a clause that spells out
    how, "run several small micro-batches and step once", resembles the key point's
    words less than its sentence does). A rubric with only key point texts then also
    matches the way its model answer says them."""
    kps = [k for k, item in enumerate(items) if item.kind == "kp"]
    if not sentence_of or not kps:
        return items
    added: dict[int, list[int]] = {k: [] for k in kps}
    joined: dict[int, int] = {}  # sentence -> key point
    for r in sentence_of:  # sentences come before their clauses
        cos = [float((emb[list(items[k].text_rows)] @ emb[r]).max()) for k in kps]
        best = int(np.argmax(cos))
        target = kps[best] if cos[best] >= min_cos else joined.get(sentence_of[r])
        if target is not None:
            added[target].append(r)
            joined.setdefault(sentence_of[r], target)
    return [
        Item(i.kind, i.index, i.text_rows + tuple(added.get(k, ())), i.term_stems)
        for k, i in enumerate(items)
    ]


def _question_discount(
    weights: dict[str, float], asked: frozenset[str], factor: float
) -> dict[str, float]:
    """``weights`` with the question's own stems scaled by ``factor``."""
    if factor == 1.0 or not asked:
        return weights
    return {s: w * factor if s in asked else w for s, w in weights.items()}


def _roles(rubric: Rubric) -> Roles:
    names = [*rubric.hotwords, *(t for kp in rubric.key_points for t in kp.terms)]
    mis = [t for m in rubric.misconceptions for t in (m.text, *m.paraphrases)]
    kps = [t for k in rubric.key_points for t in (k.text, *k.paraphrases)]
    corrections = [m.correction for m in rubric.misconceptions if m.correction]
    return Roles.for_rubric(names, mis, kps, rubric.question, corrections)


def _number_units(ws: list[Span], found: list[numbers.NumberMention]) -> list[Span]:
    """The words, with the words of each stated number joined into one: "one tenth",
    "1/10" and "0.1" are one word each, so the answer's windows, and so its score, do
    not depend on how a number is spelled."""
    if not found:
        return ws
    out: list[Span] = []
    k = 0
    for w in ws:
        while k < len(found) and found[k].end <= w.start:
            k += 1
        inside = k < len(found) and found[k].start <= w.start and w.end <= found[k].end + 1
        if inside and out and out[-1].start >= found[k].start:
            prev = out[-1]
            out[-1] = Span(f"{prev.norm} {w.norm}", prev.start, w.end)
        else:
            out.append(w)
    return out


def _answer_text(answer: Transcript | str) -> AnswerText:
    transcript = answer if isinstance(answer, Transcript) else Transcript.typed(answer)
    text = unmarked(clean_text(transcript.text))
    found = numbers.find_numbers(text)
    ws = _number_units(words(text), found)
    wins, truncated = windows(text, ws)
    return AnswerText(
        text=text,
        transcript=transcript,
        numbers=found,
        words=ws,
        windows=wins,
        truncated=truncated,
    )
