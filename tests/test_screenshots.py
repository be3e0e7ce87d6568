"""What a reader sees, checked in headless Chromium on the demo run: the zh and en digest pages
and the served search, case and digest pages are screenshotted; Chinese must be drawn with a
real font (not .notdef boxes) and the digest's charts must be on screen.

How tofu is caught, so that the check fails on a machine without a CJK font:
- per character: a probe page draws every Han character of the zh digest's headings on a canvas
  in the digest's own font stack and compares its pixels with those of U+0378, a code point no
  font covers (its .notdef box); any character drawn like that box is tofu;
- per page: the screenshot must change when fontconfig is told to hide every CJK font (if the
  text were tofu already, hiding the fonts would change nothing);
- both checks are also run with the CJK fonts hidden and must then report tofu, so a check that
  cannot fail is itself a failure.

Set FIXLORE_SCREENSHOTS=<folder> to keep the PNGs for a person to look at."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import httpx2 as httpx
import pytest

from conftest import fixlore_here, free_port, served_fixlore

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BAR_RGB = (0x3B, 0x74, 0xD9)          # the charts' bar colour (fixlore.compose.charts), used nowhere else
HAN = re.compile(r"[\u4e00-\u9fff]")
NOTDEF = "\u0378"                       # unassigned: every font draws its .notdef box for it

pytestmark = [pytest.mark.chromium,
              pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (./dev test installs it from Debian)"),
              pytest.mark.skipif(not DEMO.is_dir(), reason="demo world missing")]


def _cjk_font_files() -> list[str]:
    if not shutil.which("fc-list"):
        if sys.platform != "linux":
            pytest.skip("the tofu checks hide fonts through fontconfig (Linux)")
        pytest.fail("fc-list not found: install Debian's fontconfig (./dev test does)")
    out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=60).stdout
    return sorted({line.split(":")[0].strip() for line in out.splitlines() if line.strip()})


@pytest.fixture(scope="module")
def no_cjk_env(tmp_path_factory) -> dict[str, str]:
    """An environment whose fontconfig rejects every CJK font the system has."""
    d = tmp_path_factory.mktemp("fontconfig")
    globs = "".join(f"<glob>{f}</glob>" for f in _cjk_font_files())
    (d / "fonts.conf").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"  <cachedir>{d / 'cache'}</cachedir>\n"
        f"  <selectfont><rejectfont>{globs}</rejectfont></selectfont>\n</fontconfig>\n", encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(d / "fonts.conf")}


def _chromium(args: list[str], profile: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    res = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                         timeout=120, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    return res


def _shot(url: str, png: Path, size: tuple[int, int] = (1280, 1600),
          env: dict[str, str] | None = None, keep: bool = True) -> bytes:
    # a fresh profile each time: a visited link would be drawn in another colour the second time
    _chromium(["--virtual-time-budget=3000", f"--screenshot={png}", f"--window-size={size[0]},{size[1]}", url],
              png.with_suffix(".profile"), env)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == size
    folder = os.environ.get("FIXLORE_SCREENSHOTS")
    if folder and keep:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(folder) / png.name)
    return data


def _png_raw(data: bytes) -> tuple[int, int, bytes]:
    """Width, bytes per pixel and the decompressed (still filtered) scanlines of an 8-bit RGB(A) PNG."""
    width, _h, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", data[16:29])
    assert depth == 8 and colour in (2, 6) and interlace == 0
    idat, pos = b"", 8
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    return width, 3 if colour == 2 else 4, zlib.decompress(idat)


def _rows_differing(a: bytes, b: bytes) -> int:
    """Scanlines that differ between two screenshots of one size (a filtered line equal to the
    other's, under an equal line, is the same pixels: enough to count, no need to unfilter)."""
    (width, bpp, ra), (_, _, rb) = _png_raw(a), _png_raw(b)
    stride = width * bpp + 1
    return sum(1 for y in range(len(ra) // stride) if ra[y * stride:(y + 1) * stride] != rb[y * stride:(y + 1) * stride])


def _png_rows(data: bytes, max_rows: int) -> tuple[int, int, list[bytes]]:
    """The first rows of an 8-bit, non-interlaced RGB(A) PNG, unfiltered (enough to find the charts)."""
    width, bpp, raw = _png_raw(data)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(min(max_rows, len(raw) // (stride + 1))):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


def _pixels_of(data: bytes, rgb: tuple[int, int, int], max_rows: int = 700) -> int:
    width, bpp, rows = _png_rows(data, max_rows)
    return sum(1 for row in rows for x in range(width) if tuple(row[x * bpp:x * bpp + 3]) == rgb)


@pytest.fixture(scope="module")
def run_dir(demo_run, tmp_path_factory) -> Path:
    """The session's demo run, copied, with the English digest beside it."""
    out = tmp_path_factory.mktemp("demo-run-en") / "out"
    shutil.copytree(demo_run, out)
    en = fixlore_here("digest", "--cases", str(out / "cases.jsonl"), "--run", str(out / "run.json"),
                      "--out", str(out / "en"), "--lang", "en", env={"NO_COLOR": "1"})     # in this process
    assert en.returncode == 0, en.stderr[-2000:]
    return out


@pytest.fixture(scope="module")
def served(run_dir):
    port = free_port()
    with served_fixlore(["serve", "http", "--out", str(run_dir), "--port", str(port)],
                        port, ready="/api/stats", timeout=120) as base:
        yield base


def _probe(chars: list[str], font: str, tmp: Path, env: dict[str, str] | None) -> dict:
    """Draw each character and the .notdef box on a canvas; report which characters look like the box."""
    page = tmp / "probe.html"
    page.write_text("""<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="out"></pre><script>
const FONT = %s, CHARS = %s;
function ink(ch) {
  const c = document.createElement('canvas'); c.width = 48; c.height = 48;
  const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, 48, 48);
  g.fillStyle = '#000'; g.font = '32px ' + FONT; g.textBaseline = 'top'; g.fillText(ch, 4, 4);
  const d = g.getImageData(0, 0, 48, 48).data; let s = '';
  for (let i = 0; i < d.length; i += 4) s += d[i] < 128 ? '1' : '0';
  return s;
}
const box = ink('%s');
const shapes = CHARS.map(ink);
document.getElementById('out').textContent = JSON.stringify({
  tofu: CHARS.filter((ch, i) => shapes[i] === box), distinct: new Set(shapes).size, blank: shapes.filter(s => !s.includes('1')).length});
</script></body></html>""" % (json.dumps(font), json.dumps(chars, ensure_ascii=False), NOTDEF), encoding="utf-8")
    dom = _chromium(["--virtual-time-budget=2000", "--dump-dom", page.as_uri()], tmp / "profile-probe", env).stdout
    return json.loads(re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1))


def _digest_font(html: str) -> str:
    return re.search(r"body\s*\{\s*font-family:\s*([^;]+);", html).group(1)


def test_every_chinese_heading_character_is_drawn_with_a_real_glyph(run_dir, tmp_path, no_cjk_env):
    html = (run_dir / "digest.html").read_text("utf-8")
    headings = " ".join(re.findall(r"<h[123][^>]*>(.*?)</h[123]>", html, re.S))
    chars = sorted(set(HAN.findall(headings)))
    assert len(chars) >= 20, chars
    seen = _probe(chars, _digest_font(html), tmp_path, None)
    assert seen["tofu"] == [] and seen["blank"] == 0, f"drawn as .notdef boxes: {''.join(seen['tofu'])}"
    assert seen["distinct"] == len(chars)                   # every character its own shape
    hidden = _probe(chars, _digest_font(html), tmp_path, no_cjk_env)
    assert len(hidden["tofu"]) == len(chars), "the probe must see tofu once the CJK fonts are hidden"


def _check_page(url: str, name: str, tmp_path: Path, no_cjk_env: dict[str, str], size=(1280, 1600)) -> bytes:
    shot = _shot(url, tmp_path / f"{name}.png", size)
    again = _shot(url, tmp_path / f"{name}-again.png", size, keep=False)
    hidden = _shot(url, tmp_path / f"{name}-no-cjk.png", size, env=no_cjk_env, keep=False)
    # Chromium redraws a border or two at the window's edge differently from shot to shot; the
    # Chinese lines change only when the font does
    noise, change = _rows_differing(shot, again), _rows_differing(shot, hidden)
    assert change >= 100 and change >= 10 * max(noise, 1), \
        f"{name}: {change} lines change without CJK fonts ({noise} between two plain shots): the Chinese is tofu"
    return shot


def test_digest_pages_show_chinese_and_charts(run_dir, tmp_path, no_cjk_env):
    zh = _check_page((run_dir / "digest.html").as_uri(), "digest-zh", tmp_path, no_cjk_env)
    en = _shot((run_dir / "en" / "digest.html").as_uri(), tmp_path / "digest-en.png")
    for shot in (zh, en):
        assert _pixels_of(shot, BAR_RGB) > 3000               # the charts' bars are on screen


def test_served_pages_show_chinese_and_the_digest_keeps_its_charts_under_the_servers_csp(served, tmp_path, no_cjk_env):
    digest = httpx.get(f"{served}/digest/digest.html", timeout=30)
    assert "script-src 'none'" in digest.headers["content-security-policy"] and 'class="chart"' in digest.text
    shot = _check_page(f"{served}/digest/digest.html", "served-digest", tmp_path, no_cjk_env)
    assert _pixels_of(shot, BAR_RGB) > 3000
    _check_page(str(httpx.URL(served, params={"q": "节点 心跳 超时 重调度"})), "served-search", tmp_path, no_cjk_env)
    _check_page(f"{served}/case/demo-infra/cluster-agent/88", "served-case", tmp_path, no_cjk_env, size=(1280, 1200))
