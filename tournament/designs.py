"""Resolvable designs by family, pure Python (no Django): repeat-free schedules.

A resolvable design on ``n`` points with blocks of ``k`` is a set of parallel
classes, each a partition of the points into blocks of ``k``, such that no two
points share a block twice. Read as a tournament: every class is a round at
tables of ``k`` and no two players ever meet twice. ``resolution(n, k)``
builds one where a construction is known here, for whole families:

* Kirkman triple systems KTS(n), every n = 3 (mod 6): (n - 1) / 2 rounds at
  tables of 3 (they exist for every such n: Ray-Chaudhuri & Wilson, "Solution
  of Kirkman's schoolgirl problem", 1971). Built from

  - the affine spaces AG(d, 3) (n = 3^d);
  - n = 2q + 1 and n = 3q for a prime power q = 1 (mod 6): the base classes of
    Ray-Chaudhuri & Wilson, developed over GF(q) (Constructions 1.1 and 1.2 in
    Stinson, "A survey of Kirkman triple systems and related designs", 1991);
  - 1-rotational systems over the cyclic group Z_{n-1} (a point at infinity
    and a base class fixed by the half turn, after Buratti): small base-block
    tables found by computer search, each verified by a test (``_ROTATIONAL``);
  - the product: KTS(v) and KTS(w) give KTS(vw) (each point becomes w points,
    each block a resolvable transversal design RTD(3, w), each point's copies a
    KTS(w)); with v = 3 the tripling construction.

* Resolvable 2-(n, 4, 1) designs, every n = 4 (mod 12): (n - 1) / 3 rounds at
  tables of 4 (Hanani, Ray-Chaudhuri & Wilson, "On resolvable designs", 1972).
  Built from AG(d, 4) (n = 4^d), n = 3q + 1 for a prime power q = 1 (mod 4)
  (a base class developed over GF(q): Beth, Jungnickel & Lenz, "Design
  Theory", 2nd ed., VII.7.5.a), 1-rotational tables and the product.

* Other sizes (social golfer): the affine spaces AG(d, q) for any prime power
  q (n = q^d players at tables of q, (q^d - 1) / (q - 1) rounds), and the
  resolvable transversal designs RTD(k, m): k * m players at tables of k for m
  rounds (the players in k groups of m that never meet; m a prime power at
  least k, or m with every prime factor above k - 1 over Z_m), e.g. 20 players
  at tables of 4 for 5 rounds, the best known.

``known_rounds(n, k)`` is the most repeat-free rounds known to exist for the
field (from the existence theorems where they settle it, else what is built
here); ``check_resolution`` verifies a design. Everything is cached per
``(n, k)``: the constructions are direct (no search), so a design is built while a round
is seated, up to the largest field the club evening needs (120 players).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

__all__ = [
    "Resolution",
    "check_resolution",
    "known_rounds",
    "resolution",
]

#: Parallel classes, each a tuple of blocks (sorted point tuples).
Resolution = tuple[tuple[tuple[int, ...], ...], ...]

#: Points are numbered 0..n-1; designs are built up to this many points (the products can grow fast).
LARGEST = 400


# --------------------------------------------------------------------------
# Finite fields
# --------------------------------------------------------------------------


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, e) with q = p^e for a prime p, or None."""
    if q < 2:
        return None
    for p in range(2, q + 1):
        if q % p == 0:
            e, rest = 0, q
            while rest % p == 0:
                rest //= p
                e += 1
            return (p, e) if rest == 1 else None
    return None  # pragma: no cover (the loop always finds q's smallest prime factor)


class _Field:
    """GF(q), elements 0..q-1 (base-p digits of a polynomial's coefficients), a primitive element's powers."""

    def __init__(self, q: int) -> None:
        found = _prime_power(q)
        if found is None:
            raise ValueError(f"{q} is not a prime power")
        p, e = found
        self.q, self.p, self.e = q, p, e
        self.exp = self._powers()
        self.log = [0] * q
        for power, element in enumerate(self.exp):
            self.log[element] = power

    def _digits(self, a: int) -> list[int]:
        return [a // self.p**i % self.p for i in range(self.e)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def _powers(self) -> list[int]:
        """Powers of x modulo the first monic polynomial of degree e for which x has order q - 1."""
        p, e, q = self.p, self.e, self.q
        if e == 1:
            for g in range(1, p):
                powers, x = [], 1
                for _ in range(p - 1):
                    powers.append(x)
                    x = x * g % p
                if len(set(powers)) == p - 1:
                    return powers
            raise AssertionError("no primitive root")  # pragma: no cover
        for tail in itertools.product(range(p), repeat=e):
            if tail[0] == 0:
                continue  # x would divide the polynomial
            found: list[int] = []
            current = [1] + [0] * (e - 1)
            for _ in range(q - 1):
                found.append(self._number(current))
                # x * (current) modulo x^e + tail[e-1] x^(e-1) + ... + tail[0]
                top = current[-1]
                shifted = [0, *current[:-1]]
                current = [(c - top * t) % p for c, t in zip(shifted, tail, strict=True)]
            if len(set(found)) == q - 1:
                return found
        raise AssertionError("no primitive polynomial")  # pragma: no cover

    def add(self, a: int, b: int) -> int:
        if self.e == 1:
            return (a + b) % self.p
        return self._number([(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def neg(self, a: int) -> int:
        if self.e == 1:
            return -a % self.p
        return self._number([-x % self.p for x in self._digits(a)])

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self.exp[(self.log[a] + self.log[b]) % (self.q - 1)]

    def power(self, exponent: int) -> int:
        """The primitive element to ``exponent``."""
        return self.exp[exponent % (self.q - 1)]


@cache
def _field(q: int) -> _Field:
    return _Field(q)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _normal(classes: Sequence[Sequence[Sequence[int]]]) -> Resolution:
    """Sorted blocks, each class sorted by its blocks (a canonical form for tests and caching)."""
    return tuple(tuple(sorted(tuple(sorted(block)) for block in group)) for group in classes)


def _develop(base: Sequence[Sequence[tuple[int, int] | None]], field: _Field, parts: int) -> list[list[list[int]]]:
    """The classes base + x for every x in GF(q): point (a, j) is j * q + a, None the point at infinity (parts * q)."""
    q = field.q
    classes = []
    for x in range(q):
        classes.append(
            [
                [parts * q if point is None else point[1] * q + field.add(point[0], x) for point in block]
                for block in base
            ]
        )
    return classes


def check_resolution(n: int, size: int, classes: Resolution) -> None:
    """Raise AssertionError unless every class is a partition of ``0..n-1`` into blocks of
    ``size`` and no pair of points shares a block twice in the whole design."""
    seen: set[tuple[int, int]] = set()
    for group in classes:
        points = sorted(point for block in group for point in block)
        if points != list(range(n)):
            raise AssertionError(f"a class is not a partition of {n} points")
        if any(len(block) != size for block in group):
            raise AssertionError(f"a block is not of size {size}")
        for block in group:
            for pair in itertools.combinations(sorted(block), 2):
                if pair in seen:
                    raise AssertionError(f"pair {pair} twice")
                seen.add(pair)


# --------------------------------------------------------------------------
# Constructions
# --------------------------------------------------------------------------


def _affine(q: int, dimension: int) -> list[list[list[int]]]:
    """The lines of AG(dimension, q) grouped by direction: (q^d - 1)/(q - 1) classes of q-point blocks."""
    field = _field(q)
    points = list(itertools.product(range(q), repeat=dimension))
    index = {point: number for number, point in enumerate(points)}
    classes: list[list[list[int]]] = []
    for direction in points:
        nonzero = [coordinate for coordinate in direction if coordinate]
        if not nonzero or nonzero[0] != 1:
            continue  # one representative per direction: first non-zero coordinate 1
        seen: set[int] = set()
        lines: list[list[int]] = []
        for point in points:
            if index[point] in seen:
                continue
            line = [
                index[tuple(field.add(p, field.mul(t, d)) for p, d in zip(point, direction, strict=True))]
                for t in range(q)
            ]
            seen.update(line)
            lines.append(line)
        classes.append(lines)
    return classes


def _kts_2q_plus_1(q: int) -> list[list[list[int]]]:
    """KTS(2q + 1), q = 6t + 1 a prime power (Ray-Chaudhuri & Wilson 1971, Theorem 6; Stinson 1991,
    Construction 1.1). Points GF(q) x {0, 1} and infinity; w primitive, w^m = (w^t + 1) / 2. Base
    class: {inf, (0,0), (0,1)}; {(w^i,0), (w^(t+i),0), (w^(m+i),1)} for i in [0,t) + [2t,3t) + [4t,5t);
    {(w^(m+t+i),1), (w^(m+3t+i),1), (w^(m+5t+i),1)} for i in [0,t). Developed over GF(q): q classes."""
    field = _field(q)
    t = (q - 1) // 6
    half = field.log[field.mul(field.add(field.power(t), 1), _inverse(field, 2 % field.p))]
    base: list[list[tuple[int, int] | None]] = [[None, (0, 0), (0, 1)]]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        base.append([(field.power(i), 0), (field.power(t + i), 0), (field.power(half + i), 1)])
    for i in range(t):
        base.append(
            [(field.power(half + t + i), 1), (field.power(half + 3 * t + i), 1), (field.power(half + 5 * t + i), 1)]
        )
    return _develop(base, field, 2)


def _inverse(field: _Field, a: int) -> int:
    return field.power(-field.log[a])


def _kts_3q(q: int) -> list[list[list[int]]]:
    """KTS(3q), q = 6t + 1 a prime power (Ray-Chaudhuri & Wilson 1971, Theorem 5; Stinson 1991,
    Construction 1.2). Points GF(q) x {0, 1, 2}; w primitive. A_i = {(w^i,0), (w^(i+2t),1), (w^(i+4t),2)};
    the base class {(0,0),(0,1),(0,2)}, the cube-root cosets {(w^i,j), (w^(i+2t),j), (w^(i+4t),j)}
    (i < t) in each part, and A_i for i in [t,2t) + [3t,4t) + [5t,6t), developed over GF(q)
    (q classes); for the other i the translates of A_i form a class each ((q - 1) / 2 more)."""
    field = _field(q)
    t = (q - 1) // 6

    def a(i: int) -> list[tuple[int, int] | None]:
        return [(field.power(i), 0), (field.power(i + 2 * t), 1), (field.power(i + 4 * t), 2)]

    base: list[list[tuple[int, int] | None]] = [[(0, 0), (0, 1), (0, 2)]]
    for j in range(3):
        for i in range(t):
            base.append([(field.power(i), j), (field.power(i + 2 * t), j), (field.power(i + 4 * t), j)])
    for i in [*range(t, 2 * t), *range(3 * t, 4 * t), *range(5 * t, 6 * t)]:
        base.append(a(i))
    classes = _develop(base, field, 3)
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        classes.append([block[0] for block in _develop([a(i)], field, 3)])
    return classes


def _quadruples_3q_plus_1(q: int) -> list[list[list[int]]]:
    """A resolvable 2-(3q + 1, 4, 1) design, q = 4s + 1 a prime power (Beth, Jungnickel & Lenz,
    "Design Theory", VII.7.5.a). Points GF(q) x {0, 1, 2} and infinity; w primitive, e = w^s
    (e^2 = -1). Base class: {(0,0), (0,1), (0,2), inf} and {(w^i,j), (-w^i,j), (e w^i,j+1),
    (-e w^i,j+1)} for i < s, j in 0..2 (j + 1 modulo 3). Developed over GF(q): q classes."""
    field = _field(q)
    s = (q - 1) // 4
    e = field.power(s)
    base: list[list[tuple[int, int] | None]] = [[(0, 0), (0, 1), (0, 2), None]]
    for i in range(s):
        w = field.power(i)
        for j in range(3):
            base.append(
                [(w, j), (field.neg(w), j), (field.mul(e, w), (j + 1) % 3), (field.neg(field.mul(e, w)), (j + 1) % 3)]
            )
    return _develop(base, field, 3)


#: 1-rotational designs over Z_g (g = n - 1): (n, k) -> representatives of the base class's blocks
#: other than {inf} + H (H the subgroup of order k - 1); the base class is {inf} + H and every
#: representative's translates by H; the classes are its translates by 0..g/(k-1) - 1 (after
#: Buratti, "1-rotational resolvable designs"). Found by a seeded backtracking search (the
#: differences of the representatives cover Z_g minus H once, their H-translates partition
#: Z_g minus H); each design is verified by tournament/tests/test_designs.py.
_ROTATIONAL: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (33, 3): ((1, 5, 7), (2, 15, 20), (3, 11, 28), (6, 29, 26), (8, 30, 9)),
}


def _rotational(n: int, size: int, representatives: tuple[tuple[int, ...], ...]) -> list[list[list[int]]]:
    g = n - 1
    step = g // (size - 1)
    subgroup = [i * step for i in range(size - 1)]
    base = [[*subgroup, g]]
    for block in representatives:
        for h in subgroup:
            base.append([(x + h) % g for x in block])
    return [[[point if point == g else (point + x) % g for point in block] for block in base] for x in range(step)]


def _transversal(size: int, m: int) -> list[list[list[int]]] | None:
    """A resolvable transversal design RTD(size, m): points (group i, x) as i * m + x; m classes,
    each m blocks meeting every group once; two points of different groups share exactly one block.
    Block (a, b) = {(i, a e_i + b)} with distinct e_i whose differences are units: over GF(m) for a
    prime power m >= size, else over Z_m (e_i = i) when every prime factor of m is at least size."""
    if _prime_power(m) is not None and m >= size:
        field = _field(m)
        units = list(range(size))  # distinct field elements
        return [
            [[i * m + field.add(field.mul(a, units[i]), b) for i in range(size)] for b in range(m)] for a in range(m)
        ]
    if m > 1 and all(m % p for p in range(2, size)):
        return [[[i * m + (a * i + b) % m for i in range(size)] for b in range(m)] for a in range(m)]
    return None


def _product(first: Resolution, second: Resolution, size: int) -> list[list[list[int]]] | None:
    """The product of resolvable designs on v and w points (blocks of ``size``): points (a, y) as
    a * w + y; for each class of the first and each class of an RTD(size, w), every block B of the
    class carries the RTD class on B x W; then each class of the second on every copy {a} x W.
    Needs the RTD (``_transversal``)."""
    v = sum(len(block) for block in first[0])
    w = sum(len(block) for block in second[0])
    rtd = _transversal(size, w)
    if rtd is None:
        return None
    classes: list[list[list[int]]] = []
    for group in first:
        for cross in rtd:
            classes.append(
                [[block[point // w] * w + point % w for point in tblock] for block in group for tblock in cross]
            )
    for group in second:
        classes.append([[a * w + y for y in block] for a in range(v) for block in group])
    return classes


# --------------------------------------------------------------------------
# The catalogue
# --------------------------------------------------------------------------


def _power_of(n: int, base: int) -> int | None:
    d, value = 0, 1
    while value < n:
        value *= base
        d += 1
    return d if value == n and d >= 1 else None


@cache
def _complete(n: int, size: int) -> Resolution | None:
    """A resolvable 2-(n, size, 1) design for size 3 (KTS) or 4, or None where none is built here."""
    if n == size:
        return ((tuple(range(n)),),)
    dimension = _power_of(n, size)
    if dimension is not None and _prime_power(size) is not None:
        return _normal(_affine(size, dimension))
    if size == 3 and n % 6 == 3:
        q = (n - 1) // 2
        if q % 6 == 1 and _prime_power(q) is not None:
            return _normal(_kts_2q_plus_1(q))
        q = n // 3
        if q % 6 == 1 and _prime_power(q) is not None:
            return _normal(_kts_3q(q))
    if size == 4 and n % 12 == 4:
        q = (n - 1) // 3
        if q % 4 == 1 and _prime_power(q) is not None:
            return _normal(_quadruples_3q_plus_1(q))
    if (n, size) in _ROTATIONAL:
        return _normal(_rotational(n, size, _ROTATIONAL[(n, size)]))
    residue = 3 if size == 3 else 4
    modulus = 6 if size == 3 else 12
    for v in range(size, n):
        if n % v or v % modulus != residue:
            continue
        w = n // v
        if w % modulus != residue or w < size:
            continue
        first, second = _complete(v, size), _complete(w, size)
        if first is not None and second is not None:
            found = _product(first, second, size)
            if found is not None:
                return _normal(found)
    return None


@cache
def resolution(n: int, size: int) -> Resolution | None:
    """The classes of the design with the most classes built here for ``n`` points and blocks of
    ``size`` (every class a round at tables of ``size``, no pair twice), or None.

    Tried in order: a resolvable 2-(n, size, 1) design (KTS for size 3, n = 3 mod 6; size 4,
    n = 4 mod 12; the affine spaces), then the resolvable transversal design RTD(size, n / size)
    (n / size rounds); the one with more classes wins."""
    if size < 2 or n < size or n % size or n > LARGEST:
        return None
    best = _complete(n, size)
    if best is None or len(best) < n // size:
        rtd = _transversal(size, n // size)
        if rtd is not None and (best is None or len(rtd) > len(best)):
            best = _normal(rtd)
    return best


def known_rounds(n: int, size: int) -> int:
    """The most repeat-free rounds known to exist for ``n`` players at tables of ``size`` (0: none
    known here; 1: any single round). Existence theorems where they settle the question: KTS
    ((n - 1) / 2, n = 3 mod 6), nearly Kirkman triple systems ((n - 2) / 2, n = 0 mod 6, n >= 18:
    Rees & Stinson 1987; 4 for n = 12), resolvable (n, 4, 1) designs ((n - 1) / 3, n = 4 mod 12);
    elsewhere what ``resolution`` builds."""
    if size < 2 or n < size or n % size:
        return 0
    if n == size:
        return 1
    built = resolution(n, size)
    count = len(built) if built is not None else 1
    if size == 3 and n % 6 == 3:
        count = max(count, (n - 1) // 2)
    if size == 3 and n % 6 == 0 and n >= 18:
        count = max(count, (n - 2) // 2)
    if size == 3 and n == 12:
        count = max(count, 4)
    if size == 4 and n % 12 == 4:
        count = max(count, (n - 1) // 3)
    return count
