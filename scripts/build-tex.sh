#!/usr/bin/env bash
# Build rst2's TeX engine: pdfTeX compiled to WebAssembly from Debian
# bookworm's texlive-bin sources, a pruned symlink-free texmf tree taken from
# Debian's TeX Live packages, and a LaTeX format dumped by that engine.
#
# Result (git-ignored) in <checkout>/wasm/tex:
#   pdftex.cjs      emscripten glue (CommonJS, MODULARIZE factory createPdftex;
#                   .cjs because the package is "type": "module")
#   pdftex.wasm     the engine
#   texmf/          texmf tree (no symlinks, with ls-R)
#   texmf.cnf       our kpathsea configuration (paranoid file access)
#   pdflatex.fmt    LaTeX format dumped by our engine
#   manifest.json   versions, cache key, file sizes
#
# Everything is built once per machine in a cache outside the checkout:
#   ${RST2_CACHE_DIR:-$HOME/.cache/rst2}/tex/engine-<engine key>   pdftex.cjs/.wasm
#   ${RST2_CACHE_DIR:-$HOME/.cache/rst2}/tex/<key>                 the whole result
# The engine key hashes scripts/tex/build-engine.sh and the versions of the
# source packages and build tools: the slow compile (minutes) reruns only
# when those change.  <key> hashes all these scripts and the Debian versions
# of all source and texmf packages; a change of the texmf tree or the format
# only redoes those steps.  Later runs only copy the cached result into
# wasm/tex.
#
# Needs Debian 12 (bookworm), root (or sudo) for apt-get, and network access
# to Debian's apt repositories.  Apt packages it installs when missing:
#   emscripten texlive-binaries build-essential dpkg-dev pkg-config
#   xz-utils bzip2 perl python3 ca-certificates
# (emscripten pulls clang-14, lld-14, llvm-14, binaryen, node-acorn;
#  texlive-binaries provides tangle, ctangle and tie, used as build tools
#  only; no TeX files of the build machine end up in the result.)
#
# Environment: RST2_CACHE_DIR (cache root), RST2_TEX_JOBS (make -j, default
# nproc), RST2_TEX_FORCE=1 (ignore a cached result and rebuild).
set -euo pipefail

log() { printf '[tex] %s\n' "$*"; }
die() { printf '[tex] ERROR: %s\n' "$*" >&2; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
OUT="$REPO/wasm/tex"
CACHE_ROOT="${RST2_CACHE_DIR:-$HOME/.cache/rst2}/tex"
JOBS="${RST2_TEX_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# shellcheck source=tex/script-fonts.sh
. "$HERE/tex/script-fonts.sh"
T0=$(date +%s)

APT_PREREQS=(emscripten texlive-binaries build-essential dpkg-dev pkg-config
             xz-utils bzip2 perl python3 ca-certificates)
SRC_PKGS=(texlive-bin zlib libpng1.6)
TEXMF_DEBS=(tex-common texlive-base texlive-latex-base texlive-latex-recommended
            texlive-fonts-recommended texlive-latex-extra lmodern fonts-lmodern
            cm-super-minimal "${SCRIPT_DEBS[@]}")
# Only these package directories are taken from texlive-latex-extra (tex/latex/*).
LATEX_EXTRA_KEEP=(multirow moreverb minitoc docutils enumitem titlesec tabulary
                  environ trimspaces needspace mylatexformat)

SUDO=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else SUDO=(false); fi
fi
apt_get() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }

# ---------------------------------------------------------------- prerequisites
grep -q 'bookworm' /etc/os-release 2>/dev/null ||
  log "warning: this script is written for Debian 12 (bookworm)"

APT_UPDATED=0
apt_update_once() {
  if [ "$APT_UPDATED" = 0 ]; then
    log "apt-get update"
    apt_get update -q >/dev/null
    APT_UPDATED=1
  fi
}

missing=()
for p in "${APT_PREREQS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  [ "${SUDO[0]:-}" != false ] ||
    die "the build needs these Debian packages, and installing them needs root or sudo: ${missing[*]} (apt-get install --no-install-recommends ${missing[*]})"
  log "installing build prerequisites: ${missing[*]}"
  apt_update_once
  apt_get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
fi

# Debian's package lists for the downloads, kept in our cache folder, never
# in the machine's apt configuration (scripts/apt-private).
APT_PRIVATE="$REPO/scripts/apt-private"
apt_private() { "$APT_PRIVATE" "$@"; }
apt_private apt-cache showsrc texlive-bin 2>/dev/null | grep -q '^Package: texlive-bin' ||
  die "apt-private: no source package texlive-bin in Debian's lists"

# Nothing of a TeX installation on this machine is read: kpathsea's programs
# used as build tools (tangle, tie, ctangle, mf) find their configuration in
# an empty folder of ours instead of the system's texmf.cnf, and no generator
# (mktexmf and friends) runs behind their back.
TEXMFCNF_EMPTY="$CACHE_ROOT/texmfcnf-empty"
mkdir -p "$TEXMFCNF_EMPTY"
printf '%% empty: rst2 build tools read no system TeX configuration\n' > "$TEXMFCNF_EMPTY/texmf.cnf"
export TEXMFCNF="$TEXMFCNF_EMPTY" MKTEXMF=0 MKTEXTFM=0 MKTEXPK=0 MKTEXTEX=0 MKTEXFMT=0
unset TEXINPUTS MFINPUTS TFMFONTS TEXMF TEXMFHOME TEXMFVAR TEXMFCONFIG || true

# ---------------------------------------------------------------- cache key
src_versions() { apt_private apt-cache showsrc "$1" | awk '/^Version:/{print $2}' | sort -u | tr '\n' ' '; }
deb_version() { apt_private apt-cache show --no-all-versions "$1" 2>/dev/null | awk '/^Version:/ && v == "" {v = $2} END {print v}'; }

VERSIONS_TXT=""
for p in "${SRC_PKGS[@]}"; do VERSIONS_TXT+="src $p $(src_versions "$p")"$'\n'; done
for p in "${TEXMF_DEBS[@]}"; do VERSIONS_TXT+="deb $p $(deb_version "$p")"$'\n'; done
VERSIONS_TXT+="tool emscripten $(dpkg-query -W -f='${Version}' emscripten)"$'\n'
VERSIONS_TXT+="tool texlive-binaries $(dpkg-query -W -f='${Version}' texlive-binaries)"$'\n'
ENGINE_VERSIONS_TXT=$(printf '%s' "$VERSIONS_TXT" | grep -v '^deb ')
SCRIPT_HASH=$(cat "$HERE/build-tex.sh" $(find "$HERE/tex" -type f | LC_ALL=C sort) | sha256sum | cut -c1-64)
KEY=$(printf '%s\n%s' "$SCRIPT_HASH" "$VERSIONS_TXT" | sha256sum | cut -c1-16)
ENGINE_KEY=$(printf '%s\n%s' "$(sha256sum < "$HERE/tex/build-engine.sh")" "$ENGINE_VERSIONS_TXT" | sha256sum | cut -c1-16)
CDIR="$CACHE_ROOT/$KEY"
RESULT="$CDIR/result"
EDIR="$CACHE_ROOT/engine-$ENGINE_KEY"
log "cache key $KEY ($CDIR), engine $ENGINE_KEY"

install_result() {
  log "installing into $OUT"
  rm -rf "$OUT.tmp"
  mkdir -p "$(dirname "$OUT")"
  # hard links when the cache is on the same file system, copies otherwise
  cp -al "$RESULT" "$OUT.tmp" 2>/dev/null || { rm -rf "$OUT.tmp"; cp -a "$RESULT" "$OUT.tmp"; }
  rm -rf "$OUT"
  mv "$OUT.tmp" "$OUT"
  log "done in $(( $(date +%s) - T0 )) s: $(du -sh "$OUT" | cut -f1) in $OUT"
}

if [ -f "$CDIR/done" ] && [ "${RST2_TEX_FORCE:-0}" != 1 ]; then
  log "using cached build"
  install_result
  exit 0
fi

# ---------------------------------------------------------------- build
rm -rf "$CDIR"
mkdir -p "$CDIR"
WORK="$CDIR/work"
LOGS="$CDIR/logs"
mkdir -p "$WORK" "$LOGS" "$RESULT"
printf '%s' "$VERSIONS_TXT" > "$CDIR/versions.txt"

run_logged() { # name cmd...
  local name=$1; shift
  if ! "$@" > "$LOGS/$name.log" 2>&1; then
    tail -n 40 "$LOGS/$name.log" >&2
    die "step '$name' failed (full log: $LOGS/$name.log)"
  fi
}

# A whole build made before the engine had its own cache entry holds the
# same engine when it was built from the same sources with the same tools:
# take it instead of compiling again.
adopt_engine() {
  local d v
  for d in "$CACHE_ROOT"/*/; do
    d=${d%/}
    [ -f "$d/done" ] && [ -f "$d/versions.txt" ] && [ -f "$d/result/pdftex.wasm" ] || continue
    [ "$(grep -v '^deb ' "$d/versions.txt")" = "$ENGINE_VERSIONS_TXT" ] || continue
    v=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).engine.version || "")' "$d/result/manifest.json" 2>/dev/null) || continue
    [ -n "$v" ] || continue
    log "engine: adopting the one in $d (same sources and tools)"
    mkdir -p "$EDIR.tmp"
    cp "$d/result/pdftex.cjs" "$d/result/pdftex.wasm" "$EDIR.tmp/"
    echo "$v" > "$EDIR.tmp/pdftex-version"
    grep '^src ' "$d/built-from.txt" > "$EDIR.tmp/built-from.txt"
    touch "$EDIR.tmp/done"
    mv "$EDIR.tmp" "$EDIR"
    return 0
  done
  return 1
}

if [ -f "$EDIR/done" ] && [ "${RST2_TEX_FORCE:-0}" != 1 ]; then
  log "engine: using cached build $EDIR"
elif [ "${RST2_TEX_FORCE:-0}" != 1 ] && adopt_engine; then
  :
else
  rm -rf "$EDIR" "$EDIR.tmp"
  mkdir -p "$EDIR.tmp"
  # shellcheck source=tex/build-engine.sh
  . "$HERE/tex/build-engine.sh"
  build_engine "$WORK/engine" "$EDIR.tmp"
  touch "$EDIR.tmp/done"
  mv "$EDIR.tmp" "$EDIR"
fi
cp "$EDIR/pdftex.cjs" "$EDIR/pdftex.wasm" "$RESULT/"
cp "$EDIR/built-from.txt" "$CDIR/built-from.txt"
PDFTEX_VERSION=$(cat "$EDIR/pdftex-version")

# ---------------------------------------------------------------- texmf tree
log "downloading texmf packages: ${TEXMF_DEBS[*]}"
DEBS="$WORK/debs"; STAGE="$WORK/stage"; EXTRA="$WORK/extra"; SCRIPTS_STAGE="$WORK/scripts"
mkdir -p "$DEBS" "$STAGE" "$EXTRA" "$SCRIPTS_STAGE"
(cd "$DEBS" && apt_private apt-get download "${TEXMF_DEBS[@]}" >"$LOGS/debs.log" 2>&1) ||
  { tail -n 20 "$LOGS/debs.log" >&2; die "apt-get download of the texmf packages failed (log: $LOGS/debs.log)"; }
for p in "${TEXMF_DEBS[@]}"; do
  v=$(deb_version "$p")
  f=$(ls "$DEBS/${p}_"*.deb | head -n 1)
  want=$(apt_private apt-cache show --no-all-versions "$p" | awk '/^SHA256:/ && v == "" {v = $2} END {print v}')
  have=$(sha256sum "$f" | cut -d' ' -f1)
  [ "$want" = "$have" ] || die "SHA-256 mismatch for $f (apt-cache: $want, file: $have)"
  echo "deb $p $v sha256:$have" >> "$CDIR/built-from.txt"
  if [ "$p" = texlive-latex-extra ]; then dpkg -x "$f" "$EXTRA"
  elif [[ " ${SCRIPT_DEBS[*]} " == *" $p "* ]]; then dpkg -x "$f" "$(script_deb_dir "$p")"
  else dpkg -x "$f" "$STAGE"; fi
done

log "assembling the texmf tree"
TEXMF="$RESULT/texmf"
mkdir -p "$TEXMF"
# -L: dereference symlinks; dangling ones (to /var/lib/texmf, docs) are skipped.
copy_tree() { # from to
  (cd "$1" && find -L . \( -type f -o -type d \) -print0 2>/dev/null |
    while IFS= read -r -d '' f; do
      if [ -d "$f" ]; then mkdir -p "$2/$f"; else cp -L "$f" "$2/$f"; fi
    done)
}
for sub in tex fonts; do
  copy_tree "$STAGE/usr/share/texlive/texmf-dist/$sub" "$TEXMF/$sub"
  copy_tree "$STAGE/usr/share/texmf/$sub" "$TEXMF/$sub"
done
for d in "${LATEX_EXTRA_KEEP[@]}"; do
  if [ -d "$EXTRA/usr/share/texlive/texmf-dist/tex/latex/$d" ]; then
    copy_tree "$EXTRA/usr/share/texlive/texmf-dist/tex/latex/$d" "$TEXMF/tex/latex/$d"
  else
    log "  warning: $d not in texlive-latex-extra"
  fi
done
log "adding the files of the other scripts (scripts/tex/script-fonts.sh)"
SCRIPT_MAP="$WORK/rst2-scripts.map"
add_script_files "$TEXMF" "$STAGE" "$EXTRA" "$SCRIPT_MAP"
# prune: other engines, font sources and formats pdfTeX does not read
rm -rf "$TEXMF"/tex/{context,luatex,lualatex,xelatex,xetex,latex-dev} \
       "$TEXMF"/tex/latex/{lwarp,polyglossia,unicode-math,fontspec,beamer} \
       "$TEXMF"/fonts/{afm,source,opentype,truetype,misc,cmap,pfm,lig,ofm,ovf,ovp,ovf,type3} 2>/dev/null || true
find "$TEXMF" \( -name '*.pfm' -o -name '*.afm' -o -name '*.otf' -o -name '*.lua' -o -name '*.pdf' \
   -o -name 'README*' -o -name 'ls-R' \) -type f ! -name hwemoji-assets.pdf -delete
find "$TEXMF" -type d -empty -delete
# hyphenation: the US English set shipped by texlive-base (Debian builds
# language.dat at install time from /etc/texmf/hyphen.d).
CFG="$TEXMF/tex/generic/config"
cp "$CFG/language.us" "$CFG/language.dat"
cp "$CFG/language.us.def" "$CFG/language.def"
add_script_languages "$CFG/language.dat" "$CFG/language.def"
# pdftex.map, as Debian's updmap would make it (pdftexDownloadBase14 true,
# LW35 URWkb): the base-35 entries of pdftex35.map with the URW Type 1 files
# from the u*.map files (so the base 14 fonts are embedded), then every
# Map/MixedMap file Debian's fontmap-cfg lists; the first entry for a TFM wins.
mkdir -p "$TEXMF/fonts/map/pdftex/updmap"
PMAP="$TEXMF/fonts/map/pdftex/updmap/pdftex.map"
MAPS=()
for m in $(cat "$STAGE"/var/lib/tex-common/fontmap-cfg/*/*.cfg | awk '$1=="Map"||$1=="MixedMap"{print $2}'); do
  f=$(find "$TEXMF/fonts/map" -name "$m" -type f | head -n 1)
  if [ -n "$f" ]; then MAPS+=("$f"); else log "  map file $m not found, skipped"; fi
done
P35=$(find "$TEXMF/fonts/map" -name pdftex35.map -type f | head -n 1)
[ -n "$P35" ] || die "pdftex35.map not found"
URWMAPS=$(find "$TEXMF/fonts/map/dvips" -regextype posix-extended -regex '.*/u(ag|bk|cr|hv|nc|pl|sy|tm|zc|zd)\.map' -type f)
{
  awk -v p35="$P35" 'FILENAME != p35 { if ($1 ~ /^u/) { k = $1; $1 = ""; u[k] = $0 } next }
    /^%/ || NF == 0 { next }
    /<[^ ]*\.(pfb|pfa|t1)/ { print; next }
    { k = "u" substr($1, 2); if (k in u) print $1 u[k]; else print }' $URWMAPS "$P35"
  cat "${MAPS[@]}" "$SCRIPT_MAP"
} | awk '/^[%#]/ || NF == 0 { next } !seen[$1]++' > "$PMAP"
mkdir -p "$TEXMF/web2c"
[ -z "$(find "$TEXMF" -type l | head -n 1)" ] || die "symlinks left in $TEXMF"
# ls-R, as mktexlsr writes it (without needing texlive-base installed)
{ echo '% ls-R -- filename database for kpathsea; do not change this line.'
  (cd "$TEXMF" && LC_ALL=C ls -LAR ./); } > "$RESULT/ls-R.tmp"
mv "$RESULT/ls-R.tmp" "$TEXMF/ls-R"
cp "$HERE/tex/texmf.cnf" "$RESULT/texmf.cnf"

# the coverage and symbol table python/rst2/scripts.py reads (scripts.json)
run_logged script-table python3 "$HERE/tex/script-table.py" "$TEXMF" "$RESULT/scripts.json"

# ---------------------------------------------------------------- format
log "dumping pdflatex.fmt with our engine"
run_logged fmt node "$HERE/tex/dump-format.mjs" "$RESULT"
[ -s "$RESULT/pdflatex.fmt" ] || die "no pdflatex.fmt"

# ---------------------------------------------------------------- manifest
log "writing manifest.json"
EMSCRIPTEN_VERSION=$(dpkg-query -W -f='${Version}' emscripten) \
  node - "$RESULT" "$KEY" "$CDIR/built-from.txt" "$PDFTEX_VERSION" <<'EOF'
const fs = require('fs'), path = require('path');
const [dir, key, builtFrom, pdftexVersion] = process.argv.slice(2);
const packages = {};
for (const line of fs.readFileSync(builtFrom, 'utf8').trim().split('\n')) {
  const [kind, name, version, sha] = line.split(' ');
  packages[name] = { kind: kind === 'src' ? 'source' : 'deb', version, ...(sha ? { sha256: sha.slice(7) } : {}) };
}
function tree(p) { let files = 0, bytes = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    const q = path.join(p, e.name);
    if (e.isDirectory()) { const t = tree(q); files += t.files; bytes += t.bytes; }
    else { files++; bytes += fs.statSync(q).size; } }
  return { files, bytes }; }
const size = (f) => fs.statSync(path.join(dir, f)).size;
const manifest = {
  key, builtAt: new Date().toISOString(),
  engine: { name: 'pdfTeX', version: pdftexVersion || null, glue: 'pdftex.cjs', factory: 'createPdftex',
            wasm: 'pdftex.wasm', emscripten: process.env.EMSCRIPTEN_VERSION || null },
  format: 'pdflatex.fmt', texmfCnf: 'texmf.cnf', texmf: 'texmf',
  packages,
  sizes: { 'pdftex.cjs': size('pdftex.cjs'), 'pdftex.wasm': size('pdftex.wasm'),
           'pdflatex.fmt': size('pdflatex.fmt'), 'texmf.cnf': size('texmf.cnf'), texmf: tree(path.join(dir, 'texmf')) },
};
fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
EOF

rm -rf "$WORK"
touch "$CDIR/done"
# Keep the three newest results and the two newest engines, so that
# checkouts of neighbouring versions on one machine do not rebuild each
# other's; older ones go.
prune_cache() { # name-regex keep
  ls -dt "$CACHE_ROOT"/*/ 2>/dev/null | grep -E "/$1/\$" | tail -n +$(( $2 + 1 )) | while read -r d; do
    log "removing old cache entry ${d%/}"; rm -rf "${d%/}"
  done
}
prune_cache '[0-9a-f]{16}' 3
prune_cache 'engine-[0-9a-f]{16}' 2
log "build finished in $(( $(date +%s) - T0 )) s"
install_result
