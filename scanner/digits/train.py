"""Train the ``cnn`` engine's network and export it to ``weights.npz``.

Usage (PyTorch is needed here only; the product runs the exported weights in numpy)::

    .venv/bin/pip install torch==2.13.0   # the CPU wheel; never a product dependency
    .venv/bin/python -m scanner.digits.train --out scanner/digits/weights.npz

Training data
    * Synthetic cells (``scanner.digits.synth``): digits 1..9 rendered in every usable
      TrueType/OpenType font under /usr/share/fonts, drawn into grids of 27 cells that
      share a look (font, size, resolution, blur, ink) and vary per cell (lattice shift,
      light, lines, neighbours), about a third of them empty; plus digits turned by 90,
      180 or 270 degrees as the ROTATED class. The fonts come from the Debian packages
      fonts-dejavu-core, fonts-dejavu-extra, fonts-liberation, fonts-freefont-ttf,
      fonts-urw-base35, fonts-noto-core (Latin faces only), fonts-croscore,
      fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-open-sans and
      fonts-roboto-unhinted (``apt-get install`` them before training). OpenCV's
      Hershey fonts are kept out: the tests read them as unseen fonts.
    * Print forms that no installed font has but newspapers use are made from the
      fonts' own glyphs: the open-topped 4 and the flat-topped 3.
    * Optionally (``--photos split``), cells of the reference photos whose puzzle falls
      in the training half of ``devdata.is_held_out`` (split by puzzle, never by photo),
      cut several times with jittered corners; the held-out half is only measured. The
      default, ``--photos none``, trains on synthetic cells alone, so that every
      reference photo measures the model as an unseen one (and it reads them as well).

Two networks (``--members``) are trained on the same data from different seeds and
exported together; the engine averages them. Then the *hand reader* (``cnn``'s
docstring): two more networks (``--hand-members``) with 9 classes, trained on the
handwritten cells of the same data alone (the synthetic hands' and the mixed photos'),
size-normalised by ``preprocess.hand_inputs``, each batch turned, scaled, sheared and
moved anew (``_warped``). ``--hand-only`` trains the hand reader alone and keeps the
reader's networks already in ``--out``, from the same data and seeds as a full run
(the bundled hand reader was made so, beside the reader trained before it). Seeds are
fixed (numpy and torch) and torch runs on ``--threads`` threads (default 2), so a run
is repeatable on one machine. With the defaults it takes about 26 minutes on 2
otherwise idle CPU cores (2 to make the data, 6 per network, 5 per hand reader
network).
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from scanner.geometry import GridGeometry

from . import devdata, synth
from .cnn import (
    HAND_BASE,
    HAND_CLASSES,
    HAND_READER,
    HAND_SMOOTHING,
    N_CLASSES,
    ROTATED,
    CnnEngine,
    digits_and_hands,
    load_params,
)
from .preprocess import hand_inputs, ink_maps, net_inputs

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

# A digit turned half way round that looks like a digit: not a ROTATED example.
_HALF_TURN_AMBIGUOUS = {1, 6, 8, 9}
# A 1 on its side is a dash, just like a grid line through a badly cut cell: no example.
_NEVER_ROTATED = {1}


def load_fonts() -> list[list[FloatArray]]:
    """Digit glyphs of every usable system font, duplicates (same shapes) dropped."""
    fonts: list[list[FloatArray]] = []
    seen: set[bytes] = set()
    for path in synth.system_fonts():
        glyphs = synth.font_glyphs(path)
        if glyphs is None:
            continue
        key = b"".join(cv2.resize(g, (12, 16)).round(1).tobytes() for g in glyphs)
        if key not in seen:
            seen.add(key)
            fonts.append(glyphs)
    if not fonts:
        raise SystemExit("no usable fonts under /usr/share/fonts; see the module docstring")
    return fonts


def load_hand_fonts() -> list[list[FloatArray]]:
    """Digit glyphs of the training handwriting fonts (``synth.HAND_FONT_DIRS``)."""
    fonts = [g for g in map(synth.font_glyphs, synth.hand_fonts()) if g is not None]
    if not fonts:
        raise SystemExit(
            "no handwriting fonts under /usr/share/fonts: install the Makefile's "
            "HAND_FONT_PACKAGES (make train-digits does, as root)"
        )
    return fonts


def _turn(rng: np.random.Generator, digit: int) -> int:
    """Quarter turns for a ROTATED example of ``digit``."""
    k = int(rng.integers(1, 4))
    if k == 2 and digit in _HALF_TURN_AMBIGUOUS:
        k = int(rng.choice([1, 3]))
    return k


def synthetic_grids(
    n_grids: int,
    fonts: Sequence[list[FloatArray]],
    rng: np.random.Generator,
    *,
    hands: Sequence[list[FloatArray]] = (),
) -> tuple[FloatArray, IntArray]:
    """Network inputs (N, 1, 32, 32) and labels (N,) of synthetic grids of 27 cells.

    With ``hands`` (handwriting fonts' glyphs), most grids are puzzles in progress: one
    hand per grid writes a share of the digits (label ``HAND_BASE + d``), each drawn
    anew by ``synth.hand_glyph`` in the grid's photo look.
    """
    xs, ys = [], []
    for _ in range(n_grids):
        glyphs = fonts[int(rng.integers(len(fonts)))]
        style = synth.Style.random(rng)
        p_empty = rng.uniform(0.2, 0.6)
        hand = hands[int(rng.integers(len(hands)))] if hands and rng.random() < 0.7 else None
        p_hand = rng.uniform(0.2, 0.8)
        # Print forms none of the fonts have: the open 4 and the flat-topped 3.
        open_fours = rng.random() < 0.25
        flat_threes = rng.random() < 0.2
        cells, labels = [], []
        for _ in range(27):
            digit = int(rng.integers(1, 10))
            label, turn = digit, 0
            if rng.random() < p_empty:
                label = 0
            elif rng.random() < 0.07 and digit not in _NEVER_ROTATED:
                label, turn = ROTATED, _turn(rng, digit)
            glyph = glyphs[digit - 1] if label else None
            cell_style = style.for_cell(rng)
            if hand is not None and label and rng.random() < p_hand:
                label = label if turn else HAND_BASE + digit  # turned: still ROTATED
                glyph = synth.hand_glyph(hand[digit - 1], rng)
                cell_style = synth.hand_style(cell_style, rng)
            elif glyph is not None and digit == 4 and open_fours:
                glyph = synth.open_four(glyph, cut=float(rng.uniform(0.25, 0.4)))
            elif glyph is not None and digit == 3 and flat_threes:
                glyph = synth.flat_top_three(glyph, glyphs[6], join=float(rng.uniform(0.38, 0.5)))
            cell = synth.render_cell(glyph, cell_style, rng, neighbours=glyphs, rotate=turn)
            cells.append(cell)
            labels.append(label)
        xs.append(net_inputs(ink_maps(np.stack(cells))).astype(np.float16))
        ys.append(labels)
    return np.concatenate(xs), np.asarray(ys, dtype=np.int64).ravel()


def photo_cells(
    photos: Sequence[devdata.PhotoCells], rng: np.random.Generator, *, jitters: int
) -> tuple[FloatArray, IntArray]:
    """Network inputs and labels from real photos, each cut ``jitters`` extra times.

    The extra cuts move every outline corner by a few percent of a cell, which shifts
    and skews the cells the way an imperfect lattice would. Some digit cells are also
    turned by quarter turns as ROTATED examples.
    """
    outlines = devdata.read_outlines()
    xs, ys = [], []
    for photo in photos:
        gray = np.asarray(
            cv2.imread(str(devdata.PHOTO_DIR / photo.name), cv2.IMREAD_GRAYSCALE), dtype=np.uint8
        )
        cuts = [photo.cells]
        corners = devdata.grid_corners(photo.name, outlines[photo.name])
        cell_px = float(np.linalg.norm(corners[1] - corners[0])) / 9
        for _ in range(jitters):
            moved = corners + rng.normal(0, 0.07 * cell_px, (4, 2))
            geo = GridGeometry.from_corners(moved, photo.image_size)
            cuts.append(devdata.warp_cells(gray, geo))
        for cells in cuts:
            labels = photo.truth.copy()
            cells = cells.copy()
            for i in np.flatnonzero(labels > 0):
                if rng.random() < 0.08 and labels[i] not in _NEVER_ROTATED:
                    cells[i] = np.rot90(cells[i], _turn(rng, int(labels[i])))
                    labels[i] = ROTATED
            xs.append(net_inputs(ink_maps(cells)).astype(np.float16))
            ys.append(labels)
    if not xs:
        return np.zeros((0, 1, 32, 32), np.float32), np.zeros(0, np.int64)
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64)


def mixed_cells(
    photos: Sequence[devdata.MixedCells], rng: np.random.Generator, *, jitters: int
) -> tuple[FloatArray, IntArray]:
    """Network inputs and labels of every cell of mixed photos.

    Handwritten cells are labelled ``HAND_BASE + d``, printed ones ``d``: beside the
    pasted, sharp handwriting, the blurred print of the same photo is what teaches the
    network the difference (synthetic print alone left blurred 3s and 4s read as hand).
    These photos' reference twins are then no longer unseen: the export says so
    (``meta_trained_on_photos``) and :func:`report` measures the other half. Each photo
    is cut ``jitters`` extra times with its corners moved, as in :func:`photo_cells`.
    """
    outlines = devdata.read_outlines()
    xs, ys = [], []
    for photo in photos:
        gray = devdata.load_mixed_image(photo.name, flags=cv2.IMREAD_GRAYSCALE)
        assert gray is not None  # load_mixed_photos read it
        h, w = gray.shape
        corners = devdata.grid_corners(photo.name, outlines[photo.name])
        cell_px = float(np.linalg.norm(corners[1] - corners[0])) / 9
        cuts = [photo.cells]
        for _ in range(jitters):
            moved = corners + rng.normal(0, 0.07 * cell_px, (4, 2))
            cuts.append(devdata.warp_cells(gray, GridGeometry.from_corners(moved, (w, h))))
        for cells in cuts:
            xs.append(net_inputs(ink_maps(cells)).astype(np.float16))
            ys.append(np.where(photo.handwritten, HAND_BASE + photo.digits, photo.digits))
    if not xs:
        return np.zeros((0, 1, 32, 32), np.float16), np.zeros(0, np.int64)
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64)


def _torch() -> Any:
    """PyTorch, imported on demand: only training needs it, the product never does."""
    try:
        return importlib.import_module("torch")
    except ImportError:
        raise SystemExit(
            "training needs PyTorch: .venv/bin/pip install torch==2.13.0 (CPU wheel)"
        ) from None


def build_model(n_classes: int = N_CLASSES, *, width: int = 16) -> Any:
    """The network of ``cnn.CnnNet``: 3 x (conv 3x3, BN, ReLU, maxpool 2), 2 dense layers.

    ``width`` channels in the first convolution, doubling in each next one, and
    ``4 * width`` in the hidden dense layer.
    """
    nn = _torch().nn

    def block(cin: int, cout: int) -> list[Any]:
        return [
            nn.Conv2d(cin, cout, 3, padding=1),
            nn.BatchNorm2d(cout),
            nn.ReLU(),
            nn.MaxPool2d(2),
        ]

    return nn.Sequential(
        *block(1, width),
        *block(width, 2 * width),
        *block(2 * width, 4 * width),
        nn.Flatten(),
        nn.Linear(4 * width * 4 * 4, 4 * width),
        nn.ReLU(),
        nn.Dropout(0.3),
        nn.Linear(4 * width, n_classes),
    )


def export(
    models: Sequence[Any],
    path: Path,
    *,
    hand_models: Sequence[Any] = (),
    reader: Mapping[str, npt.NDArray[np.generic]] | None = None,
    trained_on_photos: bool,
    trained_on_mixed: bool,
) -> None:
    """Fold batch norm into the convolutions and save numpy arrays for ``CnnNet``.

    ``models`` are the reader's members (arrays ``m0.*``, ``m1.*``, ...), ``hand_models``
    the hand reader's (``h0.*``, ...); the layout is tabled in ``cnn``'s docstring.
    ``reader``: arrays of weights exported before, whose reader (every array but the
    hand reader's, ``meta_*`` included) is kept as it was (``--hand-only``).
    """
    arrays: dict[str, npt.NDArray[np.generic]] = {}
    for prefix, group in (("m", models), (HAND_READER, hand_models)):
        for m, model in enumerate(group):
            for k, v in _member_arrays(model).items():
                arrays[f"{prefix}{m}.{k}"] = v.astype(np.float32)
    # Which reference photos the model saw decides which of them measure it honestly.
    arrays["meta_trained_on_photos"] = np.array(int(trained_on_photos))
    # Whether the training half of the mixed photos (their handwriting) was used.
    arrays["meta_trained_on_mixed"] = np.array(int(trained_on_mixed))
    arrays.update({k: v for k, v in (reader or {}).items() if not k.startswith(HAND_READER)})
    savez: Any = np.savez_compressed  # its stub cannot type **arrays
    savez(path, **arrays)


def _member_arrays(model: Any) -> dict[str, npt.NDArray[np.float32]]:
    """One trained network's arrays, batch norm folded, in ``CnnNet``'s layout."""
    model.eval()
    layers = list(model)
    params: dict[str, npt.NDArray[np.float32]] = {}
    convs = [i for i, m in enumerate(layers) if m.__class__.__name__ == "Conv2d"]
    for k, i in enumerate(convs, start=1):
        conv, bn = layers[i], layers[i + 1]
        w = conv.weight.detach().numpy()
        b = conv.bias.detach().numpy()
        g = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
        mean = bn.running_mean.detach().numpy()
        beta = bn.bias.detach().numpy()
        params[f"conv{k}_w"] = (w * g[:, None, None, None]).transpose(2, 3, 1, 0)
        params[f"conv{k}_b"] = (b - mean) * g + beta
    fc1, fc2 = (m for m in layers if m.__class__.__name__ == "Linear")
    w1 = fc1.weight.detach().numpy()  # (hidden, C*4*4) in (channel, y, x) order
    c = w1.shape[1] // 16
    params["fc1_w"] = w1.reshape(-1, c, 4, 4).transpose(2, 3, 1, 0).reshape(16 * c, -1)
    params["fc1_b"] = fc1.bias.detach().numpy()
    params["fc2_w"] = fc2.weight.detach().numpy().T
    params["fc2_b"] = fc2.bias.detach().numpy()
    return params


def check_export(models: Sequence[Any], path: Path, x: FloatArray, *, hands: bool = False) -> None:
    """Fail loudly if the numpy networks (the hand reader's with ``hands``) do not
    reproduce the torch ones."""
    torch = _torch()

    with torch.no_grad():
        xt = torch.from_numpy(x).float()
        want = sum(torch.softmax(m.eval()(xt), dim=1).numpy() for m in models) / len(models)
    engine = CnnEngine(path)
    net = engine.hand if hands else engine.net
    if net is None:
        raise SystemExit(f"{path} holds no hand reader")
    got = net.probabilities(x.astype(np.float32))
    err = float(np.abs(want - got).max())
    if err > 1e-3:
        raise SystemExit(f"exported weights disagree with the trained model (max {err:.2g})")


def _warped(xb: Any, torch: Any) -> Any:
    """A batch (B, 1, 32, 32) each turned up to 10 degrees, scaled and sheared by up to
    10% and moved by up to 3% of its side (``affine_grid``'s units span the side twice):
    the hand reader's augmentation."""
    f = torch.nn.functional
    n = len(xb)

    def spread(half_width: float) -> Any:
        return (torch.rand(n) - 0.5) * 2 * half_width

    angle, scale, shear = spread(np.radians(10)), 1 + spread(0.1), spread(0.1)
    cos, sin = torch.cos(angle), torch.sin(angle)
    theta = torch.stack(
        [
            torch.stack([cos / scale, -sin / scale + shear, spread(0.06)], 1),
            torch.stack([sin / scale, cos / scale, spread(0.06)], 1),
        ],
        1,
    )
    grid = f.affine_grid(theta, list(xb.shape), align_corners=False)
    return f.grid_sample(xb, grid, align_corners=False)


def fit(
    x: FloatArray,
    y: IntArray,
    *,
    epochs: int,
    seed: int,
    threads: int,
    batch: int = 256,
    n_classes: int = N_CLASSES,
    width: int = 16,
    max_lr: float = 4e-3,
    smoothing: float = 0.05,
    warp: bool = False,
) -> Any:
    """Train a model on inputs x (N, 1, 32, 32) and labels y (N,).

    ``warp`` turns, scales, shears and moves every batch (``_warped``) in place of the
    plain shift of a pixel or two.
    """
    torch = _torch()
    nn = torch.nn

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    model = build_model(n_classes, width=width)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model: {n_params} parameters; {len(x)} training cells")
    steps = epochs * (len(x) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=smoothing)
    gen = np.random.default_rng(seed)
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)
    for epoch in range(epochs):
        model.train()
        order = torch.from_numpy(gen.permutation(len(x)))
        t0, total, right = time.time(), 0.0, 0
        for s in range(len(x) // batch):
            idx = order[s * batch : (s + 1) * batch]
            xb = xt[idx].float()
            if warp:
                xb = _warped(xb, torch)
            else:
                # A pixel or two of extra shift, for free.
                dx, dy = (int(v) for v in gen.integers(-2, 3, 2))
                xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
            out = model(xb)
            loss = loss_fn(out, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            right += int((out.argmax(1) == yt[idx]).sum())
        n = (len(x) // batch) * batch
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / n:.4f}, "
            f"train acc {right / n:.4f}, {time.time() - t0:.0f} s"
        )
    return model


def report(engine: CnnEngine, photos: Sequence[devdata.PhotoCells], label: str) -> None:
    """Print cell and grid accuracy of ``engine`` on some photos."""
    if not photos:
        return
    wrong_cells = wrong_grids = 0
    for p in photos:
        read = engine.classify(p.cells).argmax(axis=1)
        bad = int((read != p.truth).sum())
        wrong_cells += bad
        wrong_grids += bad > 0
    n = len(photos)
    print(
        f"{label}: {n} photos, cells wrong {wrong_cells} ({100 * wrong_cells / (81 * n):.3f}%), "
        f"grids fully right {n - wrong_grids}/{n}"
    )


def report_mixed(engine: CnnEngine, photos: Sequence[devdata.MixedCells]) -> None:
    """Print how many held-out mixed photos have every cell's digit and kind right."""
    if not photos:
        return
    right = wrong_cells = 0
    for p in photos:
        probs = engine.classify_full(p.cells)
        digit, hand = digits_and_hands(probs)
        bad = int(((digit != p.digits) | (hand != p.handwritten)).sum())
        wrong_cells += bad
        right += bad == 0
    n = len(photos)
    print(
        f"held-out mixed photos: {n}, cells wrong (digit or kind) {wrong_cells} "
        f"({100 * wrong_cells / (81 * n):.3f}%), fully right {right}/{n}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("weights.npz"))
    parser.add_argument("--photos", choices=["none", "split"], default="none")
    parser.add_argument(
        "--mixed",
        choices=["none", "split"],
        default="split",
        help="handwritten cells of the training half of wicht-mixed-train (default)",
    )
    parser.add_argument("--grids", type=int, default=4000, help="synthetic grids of 27 cells")
    parser.add_argument("--jitters", type=int, default=8, help="extra cuts of each photo")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--members", type=int, default=2, help="networks averaged")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hand-members", type=int, default=2, help="hand reader networks")
    parser.add_argument("--hand-epochs", type=int, default=12)
    parser.add_argument("--hand-width", type=int, default=16, help="hand reader channels")
    parser.add_argument(
        "--hand-only",
        action="store_true",
        help="train the hand reader alone, keeping the reader's networks of --out",
    )
    args = parser.parse_args(argv)

    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    fonts = load_fonts()
    hands = load_hand_fonts()
    x, y = synthetic_grids(args.grids, fonts, rng, hands=hands)
    print(
        f"{len(fonts)} fonts, {len(hands)} hands, {len(x)} synthetic cells "
        f"in {time.time() - t0:.0f} s"
    )
    mixed = devdata.load_mixed_photos() if args.mixed == "split" else []
    mixed_train = [p for p in mixed if not p.held_out]
    if mixed_train:
        t1 = time.time()
        xm, ym = mixed_cells(mixed_train, rng, jitters=args.jitters)
        print(
            f"{len(xm)} cells (printed and handwritten) from {len(mixed_train)} mixed photos in "
            f"{time.time() - t1:.0f} s"
        )
        x, y = np.concatenate([x, xm]), np.concatenate([y, ym])
    photos = devdata.load_photos()
    # The mixed photos are the reference photos with handwriting added: their printed
    # cells were seen when their half was, so only the other half measures the model.
    split = args.photos == "split" or bool(mixed_train)
    train_photos = [p for p in photos if not p.held_out] if args.photos == "split" else []
    held_out = [p for p in photos if p.held_out] if split else photos
    if train_photos:
        t1 = time.time()
        xr, yr = photo_cells(train_photos, rng, jitters=args.jitters)
        print(f"{len(xr)} photo cells from {len(train_photos)} photos in {time.time() - t1:.0f} s")
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
    # Members share the data and differ in initial weights and order of the batches.
    kept = load_params(args.out) if args.hand_only else None
    models = (
        []
        if args.hand_only
        else [
            fit(x, y, epochs=args.epochs, seed=args.seed + 1000 * m, threads=args.threads)
            for m in range(args.members)
        ]
    )
    # The hand reader learns the handwritten digits alone, size-normalised.
    written = np.flatnonzero(y > HAND_BASE)
    xh = hand_inputs(x[written].astype(np.float32))
    yh = y[written] - HAND_BASE - 1
    print(f"hand reader: {len(xh)} handwritten cells")
    hand_models = [
        fit(
            xh,
            yh,
            epochs=args.hand_epochs,
            seed=args.seed + 1000 * m + 500,
            threads=args.threads,
            batch=128,
            n_classes=HAND_CLASSES,
            width=args.hand_width,
            max_lr=3e-3,
            smoothing=HAND_SMOOTHING,  # unsmoothed, it was sure of digits past reading
            warp=True,
        )
        for m in range(args.hand_members)
    ]
    export(
        models,
        args.out,
        hand_models=hand_models,
        reader=kept,
        trained_on_photos=bool(train_photos or mixed_train),
        trained_on_mixed=bool(mixed_train),
    )
    if models:
        check_export(models, args.out, x[:512])
    check_export(hand_models, args.out, xh[:512], hands=True)
    size = args.out.stat().st_size
    print(f"wrote {args.out} ({size / 1024:.0f} KiB); total {time.time() - t0:.0f} s")
    engine = CnnEngine(args.out)
    report(engine, [p for p in photos if not p.held_out] if split else [], "photos trained on")
    report(engine, held_out, "held-out photos" if split else "all photos")
    report_mixed(engine, [p for p in mixed if p.held_out])


if __name__ == "__main__":
    main()
