"""The ``cnn`` engine: a small convolutional network, run in plain numpy.

The network (trained by ``scanner.digits.train`` from rendered digits) sees a cell's ink
map at 32 x 32 and says EMPTY, a printed digit 1..9, ROTATED (a digit on its side or
upside down, learnt so that a wrongly turned grid reads with low confidence), or a
handwritten digit 1..9 (the person's own entries). Its 20 classes:

=====  ===========================================
class  meaning
=====  ===========================================
0      EMPTY
1-9    printed digit d (class d)
10     ROTATED: a digit turned a quarter or half way
11-19  handwritten digit d (class ``HAND_BASE + d``)
=====  ===========================================

Three 3x3 convolutions with max pooling, then two dense layers (~90k parameters); batch norm
is folded into the convolutions when the weights are exported, so inference is a
handful of matrix products and never needs PyTorch. The bundled weights hold two such
networks trained from different seeds; their probabilities are averaged, which evens
out the quirks of any one training run.

The *hand reader* is a second pair of networks of the same shape with 9 classes (digit
``d`` is class ``d - 1``), trained on handwritten digits alone and shown each one
size-normalised (``preprocess.hand_inputs``), as MNIST's digits are: people write at
every size, and one scale is what lets a small network learn the shapes. In a cell the
first networks read as written (handwritten classes outweigh printed ones and hold half
the cell or more) the handwritten digits are the normalised geometric mean of theirs
and the hand reader's; the two see the ink differently, and on the held-out mixed
photos together they misread about a third fewer handwritten digits than the first
networks alone. The hand reader learns with label smoothing (0.1): trained without, it
was sure (0.98 and more) of digits a person could not read either, and together they
told more people that a right entry was wrong. The smoothing's floor (each digit at
least 0.011) is taken off its reading (``unsmoothed``): the doubt between digits it
learnt stays, and a digit it rules out is ruled out, so that a wrong entry whose
solution digit the ink surely is not can be called a mistake (``scanner.api``).

Arrays in ``weights.npz`` (``m`` a member's number, ``k`` a layer's):

============================  ======================================================
array                         what
============================  ======================================================
``m{m}.conv{k}_w``, ``_b``    the reader's convolutions (3, 3, Cin, Cout), (Cout,)
``m{m}.fc{k}_w``, ``_b``      its dense layers; ``fc2`` has 20 outputs
``h{m}.conv{k}_w`` ...        the hand reader's, same layout; ``fc2`` has 9 outputs
``meta_trained_on_photos``    1 when reference photos were trained on (0 or 1)
``meta_trained_on_mixed``     1 when the mixed photos' training half was
============================  ======================================================
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from solver.errors import SudokuScanError

from .base import turn_cells
from .preprocess import (
    CV_MAX_CHANNELS,
    NET_SIZE,
    blank,
    hand_inputs,
    has_ink,
    ink_maps_and_gains,
    net_inputs,
)

WEIGHTS = Path(__file__).with_name("weights.npz")
N_CLASSES = 20  # EMPTY, printed 1..9, ROTATED, handwritten 1..9
HAND_CLASSES = 9  # the hand reader's: digit d is class d - 1
HAND_READER = "h"  # prefix of the hand reader's arrays (the reader's are "m")
ROTATED = 10
HAND_BASE = 10  # handwritten digit d is class HAND_BASE + d
# The hand reader's label smoothing: it learns to give every digit at least
# HAND_SMOOTHING / HAND_CLASSES, which its reading takes off again (``unsmoothed``).
HAND_SMOOTHING = 0.1
# What a digit the hand reader rules out keeps, so that the geometric mean stays defined.
_RULED_OUT = 1e-4
# A cell blank at the grid's ink strength but digit-shaped at its own (a faint print, a
# digit washed out by glare) gets this share of what the network reads at its own
# strength, the rest staying "empty" (``CnnEngine.classify_maps_both``).
OWN_STRENGTH_SHARE = 0.5

FloatArray = npt.NDArray[np.float32]


class WeightsError(SudokuScanError):
    """The CNN's weights file is missing or does not fit the network."""


def _conv3x3_pool_relu(x: FloatArray, w: FloatArray, b: FloatArray) -> FloatArray:
    """Same-padded 3x3 convolution, 2x2 max pooling and ReLU: x (N, H, W, Cin),
    w (3, 3, Cin, Cout) -> (N, H/2, W/2, Cout).

    Pooled before the bias and the ReLU, on a quarter of the values: adding the same
    bias and taking max(0, .) both keep the order of a channel's values, so the result
    is the same, bit for bit, as convolving, adding, ReLU and pooling.
    """
    n, h, wd, c = x.shape
    if c == 1:
        return _conv3x3_pool_relu_single(x, w, b)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # im2col: one (N*H*W, 9*Cin) matrix, then a single matrix product. The windows are
    # a view (N, H, W, 3, 3, Cin) of the padded input, in the weights' (dy, dx, channel)
    # order, copied into the matrix in one pass by the reshape.
    sn, sy, sx, sc = xp.strides
    windows = np.lib.stride_tricks.as_strided(
        xp, (n, h, wd, 3, 3, c), (sn, sy, sx, sy, sx, sc), writeable=False
    )
    conv = (windows.reshape(n * h * wd, 9 * c) @ w.reshape(9 * c, -1)).reshape(n, h, wd, -1)
    rows = np.maximum(conv[:, 0::2], conv[:, 1::2])
    pooled = np.maximum(rows[:, :, 0::2], rows[:, :, 1::2])
    pooled += b
    return np.maximum(pooled, 0.0, out=pooled)


def _conv3x3_pool_relu_single(x: FloatArray, w: FloatArray, b: FloatArray) -> FloatArray:
    """:func:`_conv3x3_pool_relu` of a one-channel input, the same numbers bit for bit.

    With one input channel the matrix product of the im2col has nine terms a value
    and the time goes into copying; instead the inputs are the channels of one image
    (H, W, N), which OpenCV's ``filter2D`` correlates channel by channel (zero border,
    as the padding), once for each output channel.
    """
    n, h, wd, _ = x.shape
    cout = w.shape[3]
    out = np.empty((n, h // 2, wd // 2, cout), dtype=np.float32)
    for start in range(0, n, CV_MAX_CHANNELS):
        stack = np.ascontiguousarray(x[start : start + CV_MAX_CHANNELS, :, :, 0].transpose(1, 2, 0))
        k = stack.shape[2]
        for ch in range(cout):
            kernel = np.ascontiguousarray(w[:, :, 0, ch])
            conv = cv2.filter2D(stack, -1, kernel, borderType=cv2.BORDER_CONSTANT)
            conv = conv.reshape(h, wd, k)
            rows = np.maximum(conv[0::2], conv[1::2])
            out[start : start + k, :, :, ch] = np.maximum(rows[:, 0::2], rows[:, 1::2]).transpose(
                2, 0, 1
            )
    out += b
    return np.maximum(out, 0.0, out=out)


class CnnNet:
    """The networks' forward pass in numpy: one network or the mean of several.

    Parameters
    ----------
    params : mapping of str to array
        For each member network ``m`` (0, 1, ...): ``{prefix}{m}.conv{k}_w``
        (3, 3, Cin, Cout) and ``{prefix}{m}.conv{k}_b`` (Cout,) for k = 1, 2, 3;
        ``{prefix}{m}.fc1_w`` (F, H), ``{prefix}{m}.fc1_b`` (H,), ``{prefix}{m}.fc2_w``
        (H, n_classes), ``{prefix}{m}.fc2_b`` (n_classes,), where F is the flattened
        (4, 4, C3) feature map in (y, x, channel) order. Plus ``meta_trained_on_photos``
        (0 or 1).
    prefix : str, keyword-only
        Whose arrays: ``"m"`` the reader's, ``HAND_READER`` the hand reader's.
    n_classes : int, keyword-only
        Outputs of each member.
    """

    def __init__(
        self,
        params: dict[str, npt.NDArray[np.generic]],
        *,
        prefix: str = "m",
        n_classes: int = N_CLASSES,
    ) -> None:
        def get(name: str) -> FloatArray:
            try:
                return np.asarray(params[name], dtype=np.float32)
            except KeyError:
                raise WeightsError(f"CNN weights lack the array {name!r}") from None

        n = len({k.split(".")[0] for k in params if k.startswith(prefix) and "." in k})
        if n == 0:
            raise WeightsError("CNN weights hold no network")
        self.members: list[list[tuple[FloatArray, FloatArray]]] = []
        for m in range(n):
            name = f"{prefix}{m}"
            layers = [(get(f"{name}.conv{k}_w"), get(f"{name}.conv{k}_b")) for k in (1, 2, 3)]
            layers += [(get(f"{name}.fc{k}_w"), get(f"{name}.fc{k}_b")) for k in (1, 2)]
            if layers[-1][0].shape[1] != n_classes:
                raise WeightsError(
                    f"CNN weights have {layers[-1][0].shape[1]} classes, not {n_classes}; "
                    "rebuild them with `make train-digits`"
                )
            self.members.append(layers)
        self.n_classes = n_classes
        # Whether the reference photos' training half was used (see ``devdata``).
        self.trained_on_photos = bool(params.get("meta_trained_on_photos", 0))

    @staticmethod
    def _logits(layers: list[tuple[FloatArray, FloatArray]], x: FloatArray) -> FloatArray:
        """Class scores (N, 20) of one member for inputs x (N, 1, 32, 32)."""
        h = np.ascontiguousarray(x.transpose(0, 2, 3, 1), dtype=np.float32)
        for w, b in layers[:3]:
            h = _conv3x3_pool_relu(h, w, b)
        flat = h.reshape(len(h), -1)
        (w1, b1), (w2, b2) = layers[3:]
        hidden = np.maximum(flat @ w1 + b1, 0.0)
        out: FloatArray = hidden @ w2 + b2
        return out

    def probabilities(self, x: FloatArray) -> FloatArray:
        """Mean softmax (N, n_classes) of the members for inputs x (N, 1, 32, 32)."""
        total = np.zeros((len(x), self.n_classes), dtype=np.float32)
        for layers in self.members:
            z = self._logits(layers, x)
            z -= z.max(axis=1, keepdims=True)
            e = np.exp(z)
            total += e / e.sum(axis=1, keepdims=True)
        return total / np.float32(len(self.members))


def load_params(path: Path = WEIGHTS) -> dict[str, npt.NDArray[np.generic]]:
    """Every array of exported weights (``.npz``), by name."""
    try:
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise WeightsError(
            f"cannot read the CNN weights {path}: {exc}; "
            "rebuild them with `python -m scanner.digits.train`"
        ) from None


def fold_rotated(full: FloatArray) -> FloatArray:
    """(N, 20) -> (N, 10): EMPTY and digits 1..9, printed or handwritten alike.

    ROTATED means "a digit, but which one is unclear": its mass is spread evenly over
    1..9, so a cell read from a wrongly turned grid gets a low top probability; that is
    what ranks the four orientations.
    """
    p = full[:, :10].copy()
    p[:, 1:] += full[:, HAND_BASE + 1 : HAND_BASE + 10]
    p[:, 1:] += full[:, ROTATED : ROTATED + 1] / 9.0
    return p


def hand_share(full: FloatArray) -> FloatArray:
    """(N, 20) -> (N,): how much of each cell's digit mass is handwriting (0..1)."""
    hand = full[:, HAND_BASE + 1 : HAND_BASE + 10].sum(axis=1)
    printed = full[:, 1:10].sum(axis=1)
    return np.asarray(hand / np.maximum(hand + printed, 1e-6), dtype=np.float32)


def digits_and_hands(
    full: FloatArray,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Each cell's most likely digit (0 = empty) and whether it is handwritten.

    Parameters
    ----------
    full : (N, 20) float array
        Probabilities from :meth:`CnnEngine.classify_full`.
    """
    folded = fold_rotated(full)
    digit = folded.argmax(axis=1)
    return digit, (digit > 0) & (hand_share(full) > 0.5)


def unsmoothed(probs: FloatArray, smoothing: float = HAND_SMOOTHING) -> FloatArray:
    """The hand reader's probabilities (N, K) without its label smoothing's floor.

    Trained towards ``1 - smoothing`` on the digit and ``smoothing / K`` on every other
    one, a network sure of a 7 still gives each other digit about 0.011: a 2 it rules out
    reads as likely as one it faintly suspects. The floor is taken off and the rest
    rescaled (a digit at or under it is ruled out: ``_RULED_OUT``), so that "surely not
    a 2" reads as such, as the networks' averaged doubt between digits stays.
    """
    k = probs.shape[1]
    out = np.maximum(probs - smoothing / k, 0.0) + _RULED_OUT
    return (out / out.sum(axis=1, keepdims=True)).astype(np.float32)


class CnnEngine:
    """Digit reader backed by the bundled CNN weights.

    Parameters
    ----------
    weights : Path
        The ``.npz`` file exported by the training script.
    """

    name = "cnn"

    def __init__(self, weights: Path = WEIGHTS) -> None:
        params = load_params(weights)
        self.net = CnnNet(params)
        # Weights exported before the hand reader existed read handwriting without it.
        has_hand = any(k.startswith(f"{HAND_READER}0.") for k in params)
        self.hand = CnnNet(params, prefix=HAND_READER, n_classes=HAND_CLASSES) if has_hand else None

    def _with_hands(self, out: FloatArray, x: FloatArray) -> FloatArray:
        """The reader's probabilities ``out`` (N, 20) for inputs x, with the hand reader's.

        Where the reader's handwritten classes outweigh its printed ones and hold at least
        half the cell, the handwritten digits (their share of the cell unchanged) are the
        geometric mean of the reader's and the hand reader's, normalised: a digit either
        of them rules out stays out (see the module docstring). ``out`` is not changed.
        """
        if self.hand is None or not len(x):
            return out
        written = out[:, HAND_BASE + 1 : HAND_BASE + 10]
        mass = written.sum(axis=1)
        printed = out[:, 1:10].sum(axis=1)
        rows = np.flatnonzero((mass > printed) & (mass + printed >= 0.5))
        if not len(rows):
            return out
        seen = unsmoothed(self.hand.probabilities(hand_inputs(x[rows])))
        both = np.sqrt(written[rows] / mass[rows, None] * seen)
        both /= np.maximum(both.sum(axis=1, keepdims=True), 1e-12)
        read = out.copy()
        read[rows, HAND_BASE + 1 : HAND_BASE + 10] = mass[rows, None] * both
        return read

    def classify_full(self, cells: npt.ArrayLike) -> FloatArray:
        """Probabilities (N, 20) over the classes above, for cells (N, 64, 64)."""
        return self.classify_maps_full(*ink_maps_and_gains(cells))

    def classify_maps_full(self, ink: FloatArray, gains: FloatArray) -> FloatArray:
        """Probabilities (N, 20) for ink maps and gains from ``ink_maps_and_gains``, with
        the hand reader's (see :meth:`classify_maps_both`)."""
        return self.classify_maps_both(ink, gains)[1]

    def classify_maps_both(
        self, ink: FloatArray, gains: FloatArray, *, hands: bool = True
    ) -> tuple[FloatArray, FloatArray]:
        """Probabilities (N, 20) for ink maps and gains from ``ink_maps_and_gains``:
        the reader's alone, and with the hand reader's (the reader's alone again when
        ``hands`` is False), the reader run once.

        A cell blank at the grid's ink strength but holding a digit-sized stroke at its
        own (a digit washed out by glare or a faint print) is not confidently empty:
        ``OWN_STRENGTH_SHARE`` (half) of its probability goes to what the network reads
        in it at its own strength, so the reading counts it as doubtful.
        """
        alone = np.zeros((len(ink), N_CLASSES), dtype=np.float32)
        alone[:, 0] = 1.0
        read = alone.copy()

        def seen(x: FloatArray) -> tuple[FloatArray, FloatArray]:
            out = self.net.probabilities(x)
            return out, self._with_hands(out, x) if hands else out

        empty = blank(ink)
        busy = np.flatnonzero(~empty)  # plain paper needs no network
        if len(busy):
            alone[busy], read[busy] = seen(net_inputs(ink[busy]))
        # Faint: blank as it is, not blank at its own strength, and digit-shaped there.
        maybe = np.flatnonzero(empty & (gains > 1.0))
        own = np.clip(ink[maybe] * gains[maybe, None, None], 0.0, 1.0)
        keep = [k for k in np.flatnonzero(~blank(own)) if has_ink(own[k])]
        if keep:
            faint = maybe[keep]
            at_own, read_at_own = seen(net_inputs(own[keep]))
            mix = OWN_STRENGTH_SHARE
            alone[faint] = (1.0 - mix) * alone[faint] + mix * at_own
            read[faint] = (1.0 - mix) * read[faint] + mix * read_at_own
        return alone, read

    def classify_maps(self, ink: FloatArray, gains: FloatArray) -> FloatArray:
        """Probabilities (N, 10), as :meth:`classify`, from ink maps already made."""
        return fold_rotated(self.classify_maps_full(ink, gains))

    def classify_turned_full(self, ink: FloatArray, gains: FloatArray, k: int) -> FloatArray:
        """Probabilities (81, 20) of a grid turned ``k`` quarter turns, from its ink maps.

        ``ink`` and ``gains`` are ``ink_maps_and_gains`` of the grid's cells as cut; they
        are turned rather than made again (every step of ``ink_maps_and_gains`` treats
        rows and columns alike), so ``classify_turned_full(ink, gains, k)`` equals
        ``classify_full(turn_cells(cells, k))`` up to rounding.
        """
        return self.classify_turned_both(ink, gains, k)[1]

    def classify_turned_both(
        self, ink: FloatArray, gains: FloatArray, k: int, *, hands: bool = True
    ) -> tuple[FloatArray, FloatArray]:
        """:meth:`classify_maps_both` of a grid turned ``k`` quarter turns, from its ink
        maps and gains as cut (see :meth:`classify_turned_full`)."""
        turned_gains = turn_cells(gains.reshape(-1, 1, 1), k).ravel()
        return self.classify_maps_both(turn_cells(ink, k), turned_gains, hands=hands)

    def classify_turned(self, ink: FloatArray, gains: FloatArray, k: int) -> FloatArray:
        """Probabilities (81, 10) of :meth:`classify_turned_full`, printed and
        handwritten digits alike."""
        return fold_rotated(self.classify_turned_full(ink, gains, k))

    def classify_turns(self, cells: npt.ArrayLike) -> FloatArray:
        """Probabilities (4, 81, 10) of the grid turned by 0..3 quarter turns.

        ``classify_turns(cells)[k]`` equals ``classify(turn_cells(cells, k))`` up to
        rounding; the ink maps are made once (see :meth:`classify_turned`).

        Parameters
        ----------
        cells : (81, 64, 64) uint8 array
            One grid's cells, row by row.
        """
        ink, gains = ink_maps_and_gains(cells)
        if len(ink) != 81:
            raise ValueError(f"a grid has 81 cells, got {len(ink)}")
        return np.stack([self.classify_turned(ink, gains, k) for k in range(4)])

    def classify(self, cells: npt.ArrayLike) -> FloatArray:
        """Probabilities (N, 10) over EMPTY and the digits 1..9 for cells (N, 64, 64).

        Parameters
        ----------
        cells : (N, 64, 64) uint8 array
            One grid's cells (N = 81, row by row): the light is normalised across them.

        Returns
        -------
        (N, 10) float32 array
            Rows sum to 1; column 0 is EMPTY, column d is digit d.
        """
        return fold_rotated(self.classify_full(cells))


__all__ = [
    "HAND_BASE",
    "HAND_CLASSES",
    "HAND_READER",
    "NET_SIZE",
    "CnnEngine",
    "CnnNet",
    "WeightsError",
    "digits_and_hands",
    "fold_rotated",
    "hand_share",
    "load_params",
]
