#!/bin/sh
# Description: the HTML report in a real browser: headless Chromium opens
# a compare report, takes a screenshot, and a script in a copy of the page
# checks that every plot was decoded at the size the page gives it and has
# drawn something (its pixels are not all one colour), and that every
# table has the rows of its CSV; the same check fails on a page whose plot
# is broken. Skipped (77) where Chromium is missing: make check-browser
# installs Debian's chromium and runs this test. The screenshot is kept
# as tests/report-browser.png in the build tree.
. "$top_srcdir/tests/tap.sh"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || skip_all "Chromium is not installed (make check-browser installs it)"
command -v "${STORSIM_GNUPLOT:-gnuplot}" >/dev/null 2>&1 ||
	skip_all "gnuplot is not installed (Debian's gnuplot-nox)"
plan 5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
shot="$top_builddir/tests/report-browser.png"

chromium() {
	profile=$(mktemp -d "$out/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile" "$@" 2>>"$out/chromium.log"
}

cat >"$out/w.fio" <<'JOB'
[w]
filename=/f
size=256m
rw=randwrite
bs=4k
direct=1
time_based=1
runtime=20ms
cpus_allowed=0
JOB
"$STORSIM" compare --host axboe-5950x-2023 --file /f=256m:written \
	--strategies irq-wq,irq-caller,polled,sqpoll,sqpoll-polled --depths 1,4,16 \
	--report "$out/rep" "$out/w.fio" >/dev/null 2>&1

# The check, appended to a copy of the page: it writes its findings into
# the page, which --dump-dom prints once the page has loaded.
cat >"$out/check.js" <<'JS'
<script>
window.addEventListener("load", function () {
	var r = {plots: [], tables: []};
	document.querySelectorAll("img.plot").forEach(function (img) {
		var p = {alt: img.alt, complete: img.complete,
			 natural: [img.naturalWidth, img.naturalHeight],
			 want: [+img.getAttribute("width"), +img.getAttribute("height")],
			 colours: 0, drawn: 0};
		try {
			var c = document.createElement("canvas");
			c.width = img.naturalWidth; c.height = img.naturalHeight;
			var g = c.getContext("2d");
			g.drawImage(img, 0, 0);
			var d = g.getImageData(0, 0, c.width, c.height).data, seen = {};
			for (var i = 0; i < d.length; i += 4) {
				if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250)
					p.drawn++;
				seen[(d[i] << 16) | (d[i + 1] << 8) | d[i + 2]] = 1;
			}
			p.colours = Object.keys(seen).length;
		} catch (e) {
			p.error = String(e);
		}
		r.plots.push(p);
	});
	document.querySelectorAll("table").forEach(function (t) {
		r.tables.push({csv: t.getAttribute("data-csv"),
			       rows: t.querySelectorAll("tbody tr").length});
	});
	var pre = document.createElement("pre");
	pre.id = "storsim-check";
	pre.textContent = JSON.stringify(r);
	document.body.appendChild(pre);
});
</script>
JS
page() {	# page HTML CHECKED: the page with the check, through Chromium
	sed -e "/<\/body>/{r $out/check.js" -e "}" "$1" >"$out/page.html"
	chromium --virtual-time-budget=20000 --dump-dom "file://$out/page.html" >"$2"
}
judge() {	# judge DOM: the plots drawn and the tables full
	python3 - "$1" "$out/rep" <<'PY'
import csv, html, json, re, sys
dom = open(sys.argv[1]).read()
m = re.search(r'<pre id="storsim-check">(.*?)</pre>', dom, re.S)
assert m, "the check did not run"
r = json.loads(html.unescape(m.group(1)))
assert len(r["plots"]) == 6, len(r["plots"])
for p in r["plots"]:
    assert p["complete"] and "error" not in p, p
    assert p["natural"] == p["want"] and p["want"][0] >= 800, p
    # axes, labels and lines: many pixels drawn, in several colours
    assert p["drawn"] > 5000 and p["colours"] > 8, p
with_csv = [t for t in r["tables"] if t["csv"]]
assert len(with_csv) == 3, r["tables"]
for t in with_csv:
    rows = list(csv.reader(open(sys.argv[2] + "/" + t["csv"])))
    assert t["rows"] == len(rows) - 1, (t, len(rows) - 1)
PY
}
page "$out/rep/report.html" "$out/dom"
check "Chromium ran the page's check" grep -q 'id="storsim-check"' "$out/dom"
check "every plot decoded at its size and drawn; every table has its CSV's rows" \
	judge "$out/dom"
python3 - "$out/rep/report.html" "$out/broken.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
# the second plot's data cut to the first bytes of a PNG: not an image
parts = page.split('data:image/svg+xml;base64,', 2)
parts[2] = "iVBORw0KGgo" + parts[2][parts[2].index('"'):]
open(sys.argv[2], "w").write('data:image/svg+xml;base64,'.join(parts))
PY
page "$out/broken.html" "$out/dom-broken"
check "the same check fails on a page whose plot is broken" \
	sh -c "! (judge '$out/dom-broken') 2>/dev/null"
rm -f "$shot"
chromium --window-size=1280,6000 --hide-scrollbars --screenshot="$shot" \
	"file://$out/rep/report.html" >/dev/null
check "a screenshot of the page, at the window's size" \
	python3 -c '
import struct, sys
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
assert struct.unpack(">II", png[16:24]) == (1280, 6000), struct.unpack(">II", png[16:24])
assert len(png) > 100000, len(png)
' "$shot"
check "the page needed no network: Chromium logged no fetch" \
	sh -c "! grep -Eiq 'ERR_(NAME|INTERNET|CONNECTION)' '$out/chromium.log'"
finish
