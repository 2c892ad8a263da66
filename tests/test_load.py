"""The loader: every format and pixel mode reads the right givens, HEIC/AVIF turn upright,
the size cap and strip decoding give exactly Pillow's reduce, the bomb warning never
leaks, and a huge PNG stays well under 1.5 GB in ``read`` and ``solve``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from pipeline.cli import main
from scanner import load as load_module
from scanner.api import read_photo
from scanner.load import MAX_PIXELS, frame_count, load_image
from scanner.pages import load_page, page_count
from solver.errors import ExitCode, InputFileError
from solver.generate import generate

from .synth import render_puzzle_photo

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "".join(map(str, generate(102)))
# Just over the 3200 px where `read` used to reduce (and fail on 1-bit, palette, 16-bit).
BIG = (3300, 2481)


def givens(source: object) -> str:
    return "".join(map(str, read_photo(source).givens))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    """A rendered puzzle photo (BGR) at BIG, upscaled from a quick small render."""
    small, _, _ = render_puzzle_photo(PUZZLE, seed=5, size=(1100, 827))
    return cv2.resize(small, BIG, interpolation=cv2.INTER_CUBIC)


def _rgb(photo: np.ndarray) -> Image.Image:
    return Image.fromarray(np.ascontiguousarray(photo[:, :, ::-1]))


def _sixteen_bit(photo: np.ndarray) -> Image.Image:
    # 16-bit gray using only part of the range (as a 12-bit scanner writes it).
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY).astype(np.uint16) * 16 + 300
    return Image.fromarray(gray)  # mode I;16


def _transparent(photo: np.ndarray, mode: str) -> Image.Image:
    # Paper made transparent (alpha 0) with a garish colour underneath: it must read as
    # white, not as that colour.
    rgba = np.dstack([photo[:, :, ::-1], np.full(photo.shape[:2], 255, np.uint8)])
    paper = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) > 200
    rgba[paper] = (255, 0, 255, 0)
    return Image.fromarray(rgba).convert(mode)


MAKERS: dict[str, Callable[[np.ndarray], Image.Image]] = {
    "RGB": _rgb,
    "L": lambda p: _rgb(p).convert("L"),
    "1": lambda p: _rgb(p).convert("1"),  # dithered
    "P": lambda p: _rgb(p).convert("P", palette=Image.Palette.ADAPTIVE, colors=64),
    "I;16": _sixteen_bit,
    "I": lambda p: _sixteen_bit(p).convert("I"),
    "F": lambda p: _sixteen_bit(p).convert("F"),
    "CMYK": lambda p: _rgb(p).convert("CMYK"),
    "RGBA": lambda p: _transparent(p, "RGBA"),
    "LA": lambda p: _transparent(p, "LA"),
    "PA": lambda p: _transparent(p, "RGBA").convert("PA"),
}

CASES = [
    ("RGB", "png"),
    ("L", "png"),
    ("1", "png"),
    ("P", "png"),
    ("I;16", "png"),
    ("RGBA", "png"),
    ("LA", "png"),
    ("1", "tif"),
    ("P", "tif"),
    ("I;16", "tif"),
    ("I", "tif"),
    ("F", "tif"),
    ("CMYK", "tif"),
    ("LA", "tif"),
    ("PA", "tif"),
    ("P", "gif"),
    ("RGB", "webp"),
]


@pytest.mark.parametrize(("mode", "ext"), CASES)
def test_every_mode_reads_the_givens(
    photo: np.ndarray, tmp_path: Path, mode: str, ext: str
) -> None:
    path = tmp_path / f"photo.{ext}"
    image = MAKERS[mode](photo)
    options: dict[str, Any] = {"lossless": True, "method": 0} if ext == "webp" else {}
    image.save(path, **options)
    with Image.open(path) as im:
        assert im.mode == mode and im.size == BIG  # the file really is in that mode
    scan = read_photo(path)
    assert "".join(map(str, scan.givens)) == PUZZLE
    assert scan.loaded.reduction == 2 and scan.loaded.size == (1650, 1241)
    # Full resolution, as `solve` loads it: gray files stay one channel, others BGR.
    full = load_image(path)
    gray_file = mode in ("1", "L", "I;16", "I", "F", "LA")
    assert full.image.shape == ((2481, 3300) if gray_file else (2481, 3300, 3))
    assert full.image.dtype == np.uint8 and full.reduction == 1


def test_transparent_paper_is_white(photo: np.ndarray, tmp_path: Path) -> None:
    path = tmp_path / "alpha.png"
    _transparent(photo, "RGBA").save(path)
    image = load_image(path).image
    paper = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) > 200
    assert (image[paper] == 255).all()  # not the magenta hidden under alpha 0


@pytest.mark.parametrize("ext", ["png", "tif"])
def test_sixteen_bit_rgb(photo: np.ndarray, tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"deep.{ext}"
    assert cv2.imwrite(str(path), photo.astype(np.uint16) * 257)  # 48-bit colour
    assert givens(path) == PUZZLE


def test_sixteen_bit_is_stretched_to_full_range(photo: np.ndarray, tmp_path: Path) -> None:
    path = tmp_path / "deep.png"
    _sixteen_bit(photo).save(path)
    image = load_image(path).image
    assert image.min() == 0 and image.max() == 255  # 300..4380 spread over 0..255


def _reference(path: Path, factor: int) -> np.ndarray:
    """What Pillow gives: the whole image reduced at once, then EXIF-transposed."""
    with Image.open(path) as im:
        exif = im.getexif()
        reduced = im.convert("RGB").reduce(factor)
        reduced.info["exif"] = exif.tobytes()
        turned = ImageOps.exif_transpose(reduced)
        assert turned is not None
        return np.asarray(turned)[:, :, ::-1]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_strips_equal_a_whole_reduce_in_every_orientation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, orientation: int
) -> None:
    rng = np.random.default_rng(orientation)
    stored = rng.integers(0, 256, size=(700, 1000, 3), dtype=np.uint8)  # 1000 % 3 != 0
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / "o.png"
    Image.fromarray(stored).save(path, exif=exif.tobytes())
    monkeypatch.setattr(load_module, "_STRIP_PIXELS", 30_000)  # ~30 strips, not 1
    loaded = load_image(path, max_side=300)  # 1000 // 300: a reduction by 3
    assert loaded.reduction == 3 and loaded.orientation == orientation
    assert np.array_equal(loaded.image, _reference(path, 3))
    # Unreduced in one strip (a phone photo's usual load: no crop, OpenCV's channel
    # swap where the turn leaves the rows contiguous) and in strips, the same pixels.
    for strip_pixels in (30_000, 4_000_000):
        monkeypatch.setattr(load_module, "_STRIP_PIXELS", strip_pixels)
        assert np.array_equal(load_image(path, max_side=None).image, _reference(path, 1))
    # A mark centred on stored pixel (904, 53.5) maps back there (within a box).
    mark = np.full_like(stored, 255)
    mark[51:57, 900:909] = 0
    Image.fromarray(mark).save(path, exif=exif.tobytes())
    marked = load_image(path, max_side=300, gray=True)
    ys, xs = np.nonzero(marked.image < 128)
    back = marked.to_stored([[xs.mean(), ys.mean()]])
    assert np.abs(back - [[904.0, 53.5]]).max() < 1.5


def test_an_array_is_reduced_as_the_same_pixels_in_a_png_file(tmp_path: Path) -> None:
    # One photo, one reading: an image handed over in memory is decoded as its file
    # would be (a 12 MP page rendered by the stress benchmark was read at full size,
    # the same page from a file at half).
    rng = np.random.default_rng(5)
    stored = rng.integers(0, 256, size=(700, 1000, 3), dtype=np.uint8)  # 1000 % 3 != 0
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), stored)
    from_file, in_memory = load_image(path, max_side=300), load_image(stored, max_side=300)
    assert in_memory.reduction == from_file.reduction == 3
    assert np.array_equal(in_memory.image, from_file.image)
    assert (
        in_memory.to_stored([[10.0, 20.0]]).tolist() == from_file.to_stored([[10.0, 20.0]]).tolist()
    )
    assert load_image(stored).image is not None and load_image(stored).reduction == 1


@pytest.mark.parametrize("ext", ["jpg", "png"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_whole_colour_file_is_pillows_decode_in_every_orientation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, orientation: int, ext: str
) -> None:
    # A phone photo or screenshot read whole is decoded by OpenCV (no copy out of
    # Pillow, no channel swap): the same pixels as Pillow's decode, turned upright.
    rng = np.random.default_rng(orientation)
    stored = cv2.GaussianBlur(rng.integers(0, 256, size=(600, 800, 3), dtype=np.uint8), (0, 0), 2)
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / f"o.{ext}"
    Image.fromarray(stored).save(path, exif=exif.tobytes(), quality=85)
    decoded: list[bool] = []  # per call: whether OpenCV decoded it
    whole = load_module._whole_colour_file

    def watched(*args: Any) -> np.ndarray | None:
        out = whole(*args)
        decoded.append(out is not None)
        return out

    monkeypatch.setattr(load_module, "_whole_colour_file", watched)
    loaded = load_image(path, max_side=None)
    assert decoded == [True] and loaded.orientation == orientation and loaded.reduction == 1
    assert np.array_equal(loaded.image, _reference(path, 1))
    # Padded after its end marker, the file is Pillow's to decode: the same pixels again.
    with path.open("ab") as f:
        f.write(b"\x00" * 16)
    assert np.array_equal(load_image(path, max_side=None).image, _reference(path, 1))
    assert decoded == [True, False]


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(body, zlib.crc32(kind))
    return len(body).to_bytes(4, "big") + kind + body + crc.to_bytes(4, "big")


def test_a_png_turned_by_exif_after_its_pixels_is_turned(tmp_path: Path) -> None:
    # An eXIf chunk may follow the image data, where Pillow finds it only by decoding
    # the pixels: such a file is read Pillow's way, its turn honoured.
    stored = np.zeros((300, 400, 3), np.uint8)
    stored[:50, :80] = 255  # a mark in the stored top-left corner
    buffer = io.BytesIO()
    Image.fromarray(stored).save(buffer, format="PNG")
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned a quarter anticlockwise: turn it clockwise
    data = buffer.getvalue()
    at = data.rindex(b"IEND") - 4
    path = tmp_path / "late-exif.png"
    path.write_bytes(data[:at] + _png_chunk(b"eXIf", exif.tobytes()[6:]) + data[at:])
    loaded = load_image(path, max_side=None)
    assert loaded.orientation == 6 and loaded.image.shape == (400, 300, 3)
    assert np.array_equal(loaded.image, _reference(path, 1))


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "chunk length past the end"])
def test_a_damaged_png_is_one_line_and_no_decoder_noise(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], damage: str
) -> None:
    # OpenCV's libpng would print its own complaint on stderr: a damaged PNG never
    # reaches it (its chunks' checksums are checked first), and Pillow names the fault.
    rng = np.random.default_rng(1)
    path = tmp_path / "page.png"
    Image.fromarray(rng.integers(0, 256, (400, 500, 3), dtype=np.uint8)).save(path)
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "flipped byte":
        data[len(data) // 2] ^= 0xFF
    else:  # the image data's length field says 4 GB: nothing may try to read that much
        at = data.index(b"IDAT") - 4
        data[at : at + 4] = (0xFFFFFFF0).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    assert main(["read", str(path)], out=io.StringIO()) == ExitCode.INPUT_FILE
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "page.png" in err and ("truncated" in err or "corrupt" in err)


def test_pixel_cap_reduces_by_the_smallest_integer_factor(
    photo: np.ndarray, tmp_path: Path
) -> None:
    png = tmp_path / "photo.png"
    jpg = tmp_path / "photo.jpg"
    _rgb(photo).save(png)
    _rgb(photo).save(jpg, quality=92)
    # 3300 x 2481 = 8.2 MP; by 2 still 2.05 MP > 2 MP, by 3 it fits.
    loaded = load_image(png, max_pixels=2_000_000)
    assert loaded.reduction == 3 and loaded.size == (1100, 827)
    # JPEG: DCT scaling only has 1/2, 1/4, 1/8: the first that fits is 1/4.
    loaded = load_image(jpg, max_pixels=2_000_000)
    assert loaded.reduction == 4 and loaded.size == (825, 621)
    assert givens(loaded.image) == PUZZLE
    # Under the default cap (50 MP) nothing is reduced; None lifts the cap.
    assert load_image(png).reduction == 1 and MAX_PIXELS >= 48_000_000
    assert load_module._fit_factor((13000, 13000), MAX_PIXELS) == 2
    assert load_module._fit_factor((13000, 13000), None) == 1


@pytest.mark.parametrize(("fmt", "ext"), [("HEIF", "heic"), ("AVIF", "avif")])
@pytest.mark.parametrize("orientation", [1, 6, 8])
def test_heic_and_avif_turn_upright(tmp_path: Path, fmt: str, ext: str, orientation: int) -> None:
    if fmt == "HEIF" and not load_module.HEIF_SUPPORTED:
        pytest.skip("pillow-heif not installed")
    upright, _, lattice = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 750))
    turn = {1: 0, 6: 1, 8: -1}[orientation]  # how the phone stored it (np.rot90 k)
    stored = np.ascontiguousarray(np.rot90(upright[:, :, ::-1], turn))
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / f"phone.{ext}"
    Image.fromarray(stored).save(path, format=fmt, exif=exif.tobytes(), quality=90)
    scan = read_photo(path)
    loaded = scan.loaded
    assert "".join(map(str, scan.givens)) == PUZZLE
    assert loaded.orientation == orientation and loaded.size == (1000, 750)
    assert loaded.stored_size == (stored.shape[1], stored.shape[0])
    gray = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY).astype(float)
    assert np.abs(loaded.gray.astype(float) - gray).mean() < 3  # upright, not sideways
    # Upright top-left lattice point -> the stored (sideways) pixels.
    x, y = lattice[0, 0]
    expected = {1: (x, y), 6: (y, 1000 - 1 - x), 8: (750 - 1 - y, x)}[orientation]
    assert np.allclose(loaded.to_stored([[x, y]]), [expected], atol=1e-6)


def test_bomb_warning_never_leaks_and_over_the_limit_is_one_line(
    photo: np.ndarray,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Shrink Pillow's limit so a test-sized image is a "bomb": 8.2 MP is over twice 3 MP,
    # 3.6 MP is between the limit and twice it (Pillow warns but accepts).
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 3_000_000)
    huge = tmp_path / "huge.png"
    big = tmp_path / "big.png"
    _rgb(photo).save(huge)
    _rgb(photo).resize((2200, 1654)).save(big)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning would fail here
        assert load_image(big).size == (2200, 1654)
        assert frame_count(big) == 1
    assert main(["read", str(big)], out=io.StringIO()) == ExitCode.OK
    assert capsys.readouterr().err == ""
    for cmd in (["read"], ["solve"]):
        assert main([*cmd, str(huge)], out=io.StringIO()) == ExitCode.INPUT_FILE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and "Warning" not in err
        assert err.startswith(f"sudoku-scan: error: {huge}: image too large to read safely")
        assert "8 MP; at most 6 MP" in err
    with pytest.raises(InputFileError, match="too large"):
        page_count(huge.rename(tmp_path / "huge.tif"))


def test_tiff_pages_use_the_same_loader(photo: np.ndarray, tmp_path: Path) -> None:
    path = tmp_path / "pages.tif"
    first = MAKERS["CMYK"](photo)
    first.save(path, save_all=True, append_images=[MAKERS["I;16"](photo)])
    assert page_count(path) == 2
    cmyk, deep = load_page(path, 1), load_page(path, 2)
    assert cmyk.shape == (2481, 3300, 3) and deep.shape == (2481, 3300)
    assert givens(cmyk) == PUZZLE and givens(deep) == PUZZLE
    with pytest.raises(InputFileError, match=r"pages\.tif: has no page 3 \(it has 2\)"):
        load_page(path, 3)


def test_read_solve_and_batch_accept_the_same_images(
    photo: np.ndarray, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.png"
    _sixteen_bit(photo).save(deep)
    small, _, _ = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 750))
    heic = tmp_path / "phone.heic"
    _rgb(small).save(heic, quality=90)
    out = io.StringIO()
    assert main(["read", "--json", str(deep), str(heic)], out=out) == ExitCode.OK
    assert [json.loads(line)["givens"] for line in out.getvalue().splitlines()] == [PUZZLE] * 2
    solved = tmp_path / "deep.solved.png"
    assert main(["solve", str(deep), "-o", str(solved)], out=io.StringIO()) == ExitCode.OK
    with Image.open(solved) as im:
        assert im.size == BIG and im.mode == "RGB"  # drawn at full size, in colour
    batch_out = tmp_path / "batch"
    argv = ["batch", str(deep), str(heic), "-o", str(batch_out), "--jobs", "1", "--quiet"]
    assert main(argv, out=io.StringIO()) == ExitCode.OK
    rows = [json.loads(line) for line in (batch_out / "results.jsonl").read_text().splitlines()]
    assert [(Path(r["source"]).name, r["status"], r["givens"]) for r in rows] == [
        ("deep.png", "solved", PUZZLE),
        ("phone.heic", "solved", PUZZLE),
    ]
    assert "Warning" not in capsys.readouterr().err


def test_heic_that_is_not_an_image_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.heic"
    path.write_bytes(b"\x00\x00\x00\x18ftypheic" + b"\x00" * 40)
    with pytest.raises(InputFileError, match=r"broken\.heic: "):
        load_image(path)


# A 10000 x 9000 page: 90 MP, over Pillow's bomb limit (89.5 MP, so it would warn) and
# over the 50 MP canvas cap (so `solve` draws on a 5000 x 4500 reduction).
HUGE = (10000, 9000)
PEAK_LIMIT_KB = 1_500_000  # 1.5 GB


def _peak_run(args: list[str], cwd: Path) -> tuple[int, str, str, int]:
    """Run the CLI in a fresh interpreter; its own peak RSS (KB) comes back on stdout."""
    code = (
        "import resource, sys\n"
        "from pipeline.cli import main\n"
        f"code = main({args!r})\n"
        "print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("PEAK_KB"), proc.stdout + proc.stderr
    return proc.returncode, proc.stdout, proc.stderr, int(last.split()[1])


@pytest.mark.slow
def test_huge_png_stays_under_one_and_a_half_gigabytes(tmp_path: Path) -> None:
    small, _, _ = render_puzzle_photo(PUZZLE, seed=5, size=(1000, 1000))
    page = np.full((HUGE[1], HUGE[0], 3), 245, np.uint8)
    page[3500:5500, 4000:6000] = cv2.resize(small, (2000, 2000))
    path = tmp_path / "poster.png"
    assert cv2.imwrite(str(path), page, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    del page
    rc, out, err, peak = _peak_run(["read", "--json", str(path)], ROOT)
    assert rc == 0 and err == "", err  # no DecompressionBombWarning on stderr
    assert json.loads(out.splitlines()[0])["givens"] == PUZZLE
    assert peak < PEAK_LIMIT_KB, f"read peaked at {peak / 1e6:.2f} GB"
    solved = tmp_path / "poster.solved.png"
    rc, out, err, peak = _peak_run(["solve", str(path), "-o", str(solved)], ROOT)
    assert rc == 0 and err == "", err
    assert peak < PEAK_LIMIT_KB, f"solve peaked at {peak / 1e6:.2f} GB"
    with Image.open(solved) as im:
        assert im.size == (5000, 4500)  # the 50 MP cap: reduced by 2
