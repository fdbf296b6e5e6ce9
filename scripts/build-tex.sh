#!/usr/bin/env bash
# Build rst2's TeX engines: pdfTeX and LuaHBTeX compiled to WebAssembly from
# Debian trixie's texlive-bin sources (TeX Live 2024), a pruned symlink-free
# texmf tree taken from trixie's TeX Live packages, and the LaTeX formats
# dumped by those engines.  The build tools (emscripten, texlive-binaries)
# and the libraries the engines link (zlib, libpng, harfbuzz, graphite2) are
# bookworm's.
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
# The engine is compiled only when the committed one (scripts/tex/prebuilt,
# with the key of its inputs) does not match today's inputs: the build
# script's hash and the Debian versions of the sources and build tools.
#
# Needs Debian 12 (bookworm), root (or sudo) for apt-get install, and access
# to Debian's mirror.  Packages it installs with the system's apt when missing:
#   texlive-binaries xz-utils perl python3 ca-certificates     (always)
#   emscripten build-essential dpkg-dev pkg-config bzip2       (to compile)
# (emscripten pulls clang-14, lld-14, llvm-14, binaryen, node-acorn;
#  texlive-binaries provides tangle, ctangle, tie and mf, used as build tools
#  only, with an empty texmf.cnf of ours: no TeX file of the build machine is
#  read or ends up in the result.)  Everything else is downloaded through
#  our own apt lists (scripts/apt-private) into the cache folder.
#
# Environment: RST2_CACHE_DIR (cache root), RST2_TEX_JOBS (make -j, default
# nproc), RST2_TEX_FORCE=1 (ignore cached and committed results: compile),
# RST2_TEX_UPDATE_PREBUILT=1 (copy the engine into scripts/tex/prebuilt).
set -euo pipefail

log() { printf '[tex] %4ds %s\n' "$SECONDS" "$*"; }
die() { printf '[tex] ERROR: %s\n' "$*" >&2; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
OUT="$REPO/wasm/tex"
CACHE_ROOT="${RST2_CACHE_DIR:-$HOME/.cache/rst2}/tex"
JOBS="${RST2_TEX_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# shellcheck source=tex/script-fonts.sh
. "$HERE/tex/script-fonts.sh"
# shellcheck source=tex/shaping-tree.sh
. "$HERE/tex/shaping-tree.sh"
T0=$(date +%s)

# Always needed: mf (texlive-binaries) makes the Cyrillic TFMs, python3 the
# script table. Only for compiling the engine, when the committed one does
# not match today's inputs: emscripten (clang, LLVM, binaryen) and the rest.
APT_PREREQS=(texlive-binaries xz-utils perl python3 ca-certificates)
APT_ENGINE_PREREQS=(emscripten build-essential dpkg-dev pkg-config bzip2)
# The engine this script compiled, committed with the key of its inputs, so
# that a new machine need not compile it (scripts/tex/prebuilt/README.md).
PREBUILT="$HERE/tex/prebuilt"
SRC_PKGS=(texlive-bin zlib libpng1.6 harfbuzz graphite2)
TEXMF_DEBS=(tex-common texlive-base texlive-latex-base texlive-latex-recommended
            texlive-fonts-recommended texlive-latex-extra lmodern fonts-lmodern
            cm-super-minimal "${SCRIPT_DEBS[@]}" "${SHAPING_DEBS[@]}")
# Only these package directories are taken from texlive-latex-extra (tex/latex/*).
# tagpdf: LaTeX's tagging code, for tagged=yes.
LATEX_EXTRA_KEEP=(multirow moreverb minitoc docutils enumitem titlesec tabulary
                  environ trimspaces needspace mylatexformat tagpdf)

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

install_prereqs() { # package...: installs the missing ones with the system's apt
  local p missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  [ "${SUDO[0]:-}" != false ] ||
    die "the build needs these Debian packages, and installing them needs root or sudo: ${missing[*]} (apt-get install --no-install-recommends ${missing[*]})"
  log "installing build prerequisites: ${missing[*]}"
  apt_update_once
  apt_get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
}
install_prereqs "${APT_PREREQS[@]}"

# Debian's package lists for the downloads, kept in our cache folder, never
# in the machine's apt configuration (scripts/apt-private).
APT_PRIVATE="$REPO/scripts/apt-private"
apt_private() { "$APT_PRIVATE" "$@"; }
# TeX Live itself (texlive-bin's sources and the texmf packages) comes from
# trixie: LaTeX's tagging (tagged=yes) needs the 2024 kernel, and pdfTeX
# 1.40.25 or later.  Everything else, the build tools included, from bookworm.
TEX_SUITE=trixie
TEX_SRC_PKGS=(texlive-bin)
apt_tex() { "$APT_PRIVATE" --suites "$TEX_SUITE" "$@"; }
apt_src() { # apt_src <source package> apt-get|apt-cache ARGS...: from the suite that package comes from
  local p=$1; shift
  if [[ " ${TEX_SRC_PKGS[*]} " == *" $p "* ]]; then apt_tex "$@"; else apt_private "$@"; fi
}

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
# One apt-cache call for all packages: each call reads the whole lists.
declare -A DEB_VERSION DEB_SHA256 SRC_VERSIONS
debs_of() { awk '/^Package:/ { p = $2 } /^Version:/ { v = $2 } /^SHA256:/ { s = $2 } /^$/ && p { print p, v, s; p = "" } END { if (p) print p, v, s }'; }
while read -r p v sha; do DEB_VERSION[$p]=$v; DEB_SHA256[$p]=$sha; done < <(
  apt_tex apt-cache show --no-all-versions "${TEXMF_DEBS[@]}" | debs_of
  apt_private apt-cache show --no-all-versions emscripten texlive-binaries | debs_of)
while read -r p v; do SRC_VERSIONS[$p]+="$v "; done < <(
  for p in "${SRC_PKGS[@]}"; do apt_src "$p" apt-cache showsrc "$p"; done |
    awk '/^Package:/ { p = $2 } /^Version:/ { print p, $2 }' | sort -u)
for p in "${TEXMF_DEBS[@]}"; do
  [ -n "${DEB_VERSION[$p]:-}" ] || die "package $p not in Debian $TEX_SUITE's lists"
done
for p in emscripten texlive-binaries; do
  [ -n "${DEB_VERSION[$p]:-}" ] || die "package $p not in Debian bookworm's lists"
done
for p in "${SRC_PKGS[@]}"; do
  [ -n "${SRC_VERSIONS[$p]:-}" ] || die "source package $p not in Debian's lists"
done
src_versions() { printf '%s' "${SRC_VERSIONS[$1]}"; }
deb_version() { printf '%s' "${DEB_VERSION[$1]}"; }

VERSIONS_TXT=""
for p in "${SRC_PKGS[@]}"; do VERSIONS_TXT+="src $p $(src_versions "$p")"$'\n'; done
for p in "${TEXMF_DEBS[@]}"; do VERSIONS_TXT+="deb $p $(deb_version "$p")"$'\n'; done
# The build tools by the version Debian offers today (what apt would install),
# so that the key is known before emscripten is.
VERSIONS_TXT+="tool emscripten $(deb_version emscripten)"$'\n'
VERSIONS_TXT+="tool texlive-binaries $(deb_version texlive-binaries)"$'\n'
ENGINE_VERSIONS_TXT=$(printf '%s' "$VERSIONS_TXT" | grep -v '^deb ')
SCRIPT_HASH=$(cat "$HERE/build-tex.sh" $(find "$HERE/tex" -path "$PREBUILT" -prune -o -type f -print | LC_ALL=C sort) | sha256sum | cut -c1-64)
KEY=$(printf '%s\n%s' "$SCRIPT_HASH" "$VERSIONS_TXT" | sha256sum | cut -c1-16)
# The engines' own inputs: the compile script and the stubs it builds.
ENGINE_SCRIPTS=("$HERE/tex/build-engine.sh" $(find "$HERE/tex/engine-stubs" -type f | LC_ALL=C sort))
engine_inputs() { local f; for f in "${ENGINE_SCRIPTS[@]}"; do printf '%s  %s\n' "$(sha256sum < "$f" | cut -c1-64)" "${f#"$REPO"/}"; done; }
ENGINE_KEY=$(printf '%s\n%s' "$(engine_inputs)" "$ENGINE_VERSIONS_TXT" | sha256sum | cut -c1-16)
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

ENGINE_FILES=(pdftex.cjs pdftex.wasm pdftex-version luahbtex.cjs luahbtex.wasm luahbtex-version built-from.txt)

# The committed engines, when they were built from exactly today's inputs (its
# key file holds the key, and its sha256 file the files' digests).
use_prebuilt() {
  [ -f "$PREBUILT/key" ] && [ "$(cat "$PREBUILT/key")" = "$ENGINE_KEY" ] || return 1
  (cd "$PREBUILT" && sha256sum --quiet -c sha256) || die "scripts/tex/prebuilt: a file does not match its sha256 (damaged checkout?)"
  mkdir -p "$EDIR.tmp"
  cp "${ENGINE_FILES[@]/#/$PREBUILT/}" "$EDIR.tmp/"
  echo committed > "$EDIR.tmp/origin"
  touch "$EDIR.tmp/done"
  mv "$EDIR.tmp" "$EDIR"
  log "engine: the committed build (scripts/tex/prebuilt, key $ENGINE_KEY) matches today's inputs"
}

# RST2_TEX_UPDATE_PREBUILT=1: after compiling, put the engine into
# scripts/tex/prebuilt with its key, to be committed.
update_prebuilt() {
  mkdir -p "$PREBUILT"
  cp "${ENGINE_FILES[@]/#/$EDIR/}" "$PREBUILT/"
  printf '%s\n' "$ENGINE_KEY" > "$PREBUILT/key"
  { engine_inputs; printf '%s\n' "$ENGINE_VERSIONS_TXT"; } > "$PREBUILT/inputs.txt"
  (cd "$PREBUILT" && sha256sum "${ENGINE_FILES[@]}" > sha256)
  log "engine: copied into $PREBUILT (key $ENGINE_KEY): commit it"
}

if [ -f "$EDIR/done" ] && [ "${RST2_TEX_FORCE:-0}" != 1 ]; then
  log "engine: using cached build $EDIR"
elif [ "${RST2_TEX_FORCE:-0}" != 1 ] && use_prebuilt; then
  :
else
  if [ -f "$PREBUILT/key" ] && [ "${RST2_TEX_FORCE:-0}" != 1 ]; then
    log "engine: today's inputs (key $ENGINE_KEY) differ from the committed build's ($(cat "$PREBUILT/key")): compiling"
    log "  (see scripts/tex/prebuilt/README.md; what changed: compare its inputs.txt with $CDIR/versions.txt)"
  fi
  install_prereqs "${APT_ENGINE_PREREQS[@]}"
  for p in emscripten texlive-binaries; do
    have=$(dpkg-query -W -f='${Version}' "$p")
    [ "$have" = "$(deb_version "$p")" ] ||
      die "$p $have is installed, Debian has $(deb_version "$p") (the engine's key says so): apt-get update && apt-get install --only-upgrade $p"
  done
  rm -rf "$EDIR" "$EDIR.tmp"
  mkdir -p "$EDIR.tmp"
  # shellcheck source=tex/build-engine.sh
  . "$HERE/tex/build-engine.sh"
  build_engine "$WORK/engine" "$EDIR.tmp"
  echo compiled > "$EDIR.tmp/origin"
  touch "$EDIR.tmp/done"
  mv "$EDIR.tmp" "$EDIR"
fi
[ "${RST2_TEX_UPDATE_PREBUILT:-0}" != 1 ] || update_prebuilt
cp "$EDIR/pdftex.cjs" "$EDIR/pdftex.wasm" "$EDIR/luahbtex.cjs" "$EDIR/luahbtex.wasm" "$RESULT/"
cp "$EDIR/built-from.txt" "$CDIR/built-from.txt"
PDFTEX_VERSION=$(cat "$EDIR/pdftex-version")
LUAHBTEX_VERSION=$(cat "$EDIR/luahbtex-version")

# ---------------------------------------------------------------- texmf tree
log "downloading texmf packages: ${TEXMF_DEBS[*]}"
DEBS="$WORK/debs"; STAGE="$WORK/stage"; EXTRA="$WORK/extra"; SCRIPTS_STAGE="$WORK/scripts"; NOTO="$WORK/noto"
mkdir -p "$DEBS" "$STAGE" "$EXTRA" "$SCRIPTS_STAGE" "$NOTO"
(cd "$DEBS" && apt_tex apt-get download "${TEXMF_DEBS[@]}" >"$LOGS/debs.log" 2>&1) ||
  { tail -n 20 "$LOGS/debs.log" >&2; die "apt-get download of the texmf packages failed (log: $LOGS/debs.log)"; }
for p in "${TEXMF_DEBS[@]}"; do
  v=$(deb_version "$p")
  f=$(ls "$DEBS/${p}_"*.deb | head -n 1)
  want=${DEB_SHA256[$p]}
  have=$(sha256sum "$f" | cut -d' ' -f1)
  [ "$want" = "$have" ] || die "SHA-256 mismatch for $f (apt-cache: $want, file: $have)"
  echo "deb $p $v sha256:$have" >> "$CDIR/built-from.txt"
  if [ "$p" = texlive-latex-extra ]; then dpkg -x "$f" "$EXTRA"
  elif [ "$p" = fonts-noto-core ]; then dpkg -x "$f" "$NOTO"
  elif [[ " ${SCRIPT_DEBS[*]} " == *" $p "* ]]; then dpkg -x "$f" "$(script_deb_dir "$p")"
  else dpkg -x "$f" "$STAGE"; fi
done

log "assembling the texmf tree"
TEXMF="$RESULT/texmf"
mkdir -p "$TEXMF"
# -L: dereference symlinks; dangling ones (to /var/lib/texmf, docs) are skipped.
# -L: dereference symlinks; dangling ones (to /var/lib/texmf, docs) are not
# regular files under -L and are skipped. One cp per batch of files, not per
# file: the tree has tens of thousands.
copy_tree() { # from to
  mkdir -p "$2"
  (cd "$1" && find -L . -type f -print0 2>/dev/null | xargs -0 -r cp -L --parents -t "$2")
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
# prune: other engines, font sources and formats neither engine reads
rm -rf "$TEXMF"/tex/{context,luatex,lualatex,xelatex,xetex,latex-dev} \
       "$TEXMF"/tex/latex/{lwarp,polyglossia,unicode-math,beamer} \
       "$TEXMF"/fonts/{afm,source,opentype,truetype,misc,cmap,pfm,lig,ofm,ovf,ovp,ovf,type3} 2>/dev/null || true
find "$TEXMF" \( -name '*.pfm' -o -name '*.afm' -o -name '*.otf' -o -name '*.lua' -o -name '*.pdf' \
   -o -name 'README*' -o -name 'ls-R' \) -type f ! -name hwemoji-assets.pdf -delete
find "$TEXMF" -type d -empty -delete
log "adding LuaHBTeX's packages and fonts (scripts/tex/shaping-tree.sh)"
add_shaping_files "$TEXMF" "$STAGE" "$NOTO"
# ... and the Lua files of the packages kept from texlive-latex-extra
# (tagpdf's LuaTeX side).
for d in "${LATEX_EXTRA_KEEP[@]}"; do
  [ -d "$EXTRA/usr/share/texlive/texmf-dist/tex/latex/$d" ] || continue
  (cd "$EXTRA/usr/share/texlive/texmf-dist/tex/latex/$d" && find -L . -name '*.lua' -type f -print0 |
     xargs -0 -r cp -L --parents -t "$TEXMF/tex/latex/$d")
done
# hyphenation: the US English set shipped by texlive-base (Debian builds
# language.dat at install time from /etc/texmf/hyphen.d).
CFG="$TEXMF/tex/generic/config"
cp "$CFG/language.us" "$CFG/language.dat"
cp "$CFG/language.us.def" "$CFG/language.def"
add_script_languages "$CFG/language.dat" "$CFG/language.def"
add_shaping_languages "$TEXMF" "$STAGE"
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
# LuaHBTeX's format and luaotfload's caches (font names, each face's
# tables) are made by our own engine, where it will read them: Lua byte
# code from a native engine would not load, and the caches record /tex paths.
log "dumping lualatex.fmt and luaotfload's caches with our LuaHBTeX"
run_logged fmt-lua node "$HERE/tex/dump-format.mjs" "$RESULT" luahbtex
[ -s "$RESULT/lualatex.fmt" ] || die "no lualatex.fmt"

# ---------------------------------------------------------------- manifest
log "writing manifest.json"
ENGINE_ORIGIN=$(cat "$EDIR/origin" 2>/dev/null || echo compiled) EMSCRIPTEN_VERSION=$(grep '^tool emscripten ' "$CDIR/versions.txt" | cut -d' ' -f3) \
  node - "$RESULT" "$KEY" "$CDIR/built-from.txt" "$PDFTEX_VERSION" "$LUAHBTEX_VERSION" <<'EOF'
const fs = require('fs'), path = require('path');
const [dir, key, builtFrom, pdftexVersion, luahbtexVersion] = process.argv.slice(2);
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
            wasm: 'pdftex.wasm', emscripten: process.env.EMSCRIPTEN_VERSION || null,
            origin: process.env.ENGINE_ORIGIN, sha256: require('crypto').createHash('sha256').update(fs.readFileSync(path.join(dir, 'pdftex.wasm'))).digest('hex') },
  engines: { luahbtex: { name: 'LuaHBTeX', version: luahbtexVersion || null, glue: 'luahbtex.cjs', factory: 'createLuahbtex',
                         wasm: 'luahbtex.wasm', format: 'lualatex.fmt', cache: 'texmf-var' } },
  format: 'pdflatex.fmt', texmfCnf: 'texmf.cnf', texmf: 'texmf',
  packages,
  sizes: { 'pdftex.cjs': size('pdftex.cjs'), 'pdftex.wasm': size('pdftex.wasm'),
           'pdflatex.fmt': size('pdflatex.fmt'), 'texmf.cnf': size('texmf.cnf'), texmf: tree(path.join(dir, 'texmf')),
           'luahbtex.wasm': size('luahbtex.wasm'), 'lualatex.fmt': size('lualatex.fmt'), 'texmf-var': tree(path.join(dir, 'texmf-var')) },
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
