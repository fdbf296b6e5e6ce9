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
#   ${RST2_CACHE_DIR:-$HOME/.cache/rst2}/tex/<key>
# where <key> hashes these scripts and the Debian versions of all source and
# texmf packages; later runs only copy the cached result into wasm/tex.
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
T0=$(date +%s)

APT_PREREQS=(emscripten texlive-binaries build-essential dpkg-dev pkg-config
             xz-utils bzip2 perl python3 ca-certificates)
SRC_PKGS=(texlive-bin zlib libpng1.6)
TEXMF_DEBS=(tex-common texlive-base texlive-latex-base texlive-latex-recommended
            texlive-fonts-recommended texlive-latex-extra lmodern fonts-lmodern
            cm-super-minimal)
# Only these package directories are taken from texlive-latex-extra (tex/latex/*).
LATEX_EXTRA_KEEP=(multirow moreverb minitoc docutils enumitem titlesec tabulary
                  environ trimspaces needspace)

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
  log "installing build prerequisites: ${missing[*]}"
  apt_update_once
  apt_get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
fi

# deb-src entries for apt-get source
if ! apt-cache showsrc texlive-bin 2>/dev/null | grep -q '^Package: texlive-bin'; then
  log "adding deb-src entries for bookworm (/etc/apt/sources.list.d/rst2-deb-src.sources)"
  "${SUDO[@]}" tee /etc/apt/sources.list.d/rst2-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  APT_UPDATED=0
  apt_update_once
  apt-cache showsrc texlive-bin 2>/dev/null | grep -q '^Package: texlive-bin' ||
    die "no source package texlive-bin after adding deb-src entries"
fi

# ---------------------------------------------------------------- cache key
src_versions() { apt-cache showsrc "$1" | awk '/^Version:/{print $2}' | sort -u | tr '\n' ' '; }
deb_version() { apt-cache show --no-all-versions "$1" 2>/dev/null | awk '/^Version:/ && v == "" {v = $2} END {print v}'; }

VERSIONS_TXT=""
for p in "${SRC_PKGS[@]}"; do VERSIONS_TXT+="src $p $(src_versions "$p")"$'\n'; done
for p in "${TEXMF_DEBS[@]}"; do VERSIONS_TXT+="deb $p $(deb_version "$p")"$'\n'; done
VERSIONS_TXT+="tool emscripten $(dpkg-query -W -f='${Version}' emscripten)"$'\n'
VERSIONS_TXT+="tool texlive-binaries $(dpkg-query -W -f='${Version}' texlive-binaries)"$'\n'
SCRIPT_HASH=$(cat "$HERE/build-tex.sh" $(find "$HERE/tex" -type f | LC_ALL=C sort) | sha256sum | cut -c1-64)
KEY=$(printf '%s\n%s' "$SCRIPT_HASH" "$VERSIONS_TXT" | sha256sum | cut -c1-16)
CDIR="$CACHE_ROOT/$KEY"
RESULT="$CDIR/result"
log "cache key $KEY ($CDIR)"

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
SRC="$WORK/src"
PFX="$WORK/prefix"
BLD="$WORK/build"
LOGS="$CDIR/logs"
mkdir -p "$SRC" "$PFX" "$BLD" "$LOGS" "$RESULT"
printf '%s' "$VERSIONS_TXT" > "$CDIR/versions.txt"

# Debian's emcc: acorn comes from /usr/share/nodejs, and it must use its own cache.
export NODE_PATH=/usr/share/nodejs
unset EM_CACHE EMCC_CFLAGS || true

run_logged() { # name cmd...
  local name=$1; shift
  if ! "$@" > "$LOGS/$name.log" 2>&1; then
    tail -n 40 "$LOGS/$name.log" >&2
    die "step '$name' failed (full log: $LOGS/$name.log)"
  fi
}

fetch_source() { # source package -> unpacked dir name on stdout
  local pkg=$1 v
  (cd "$SRC" && apt-get source --download-only "$pkg" >>"$LOGS/sources.log" 2>&1) && return 0
  # The newest version is sometimes missing from the mirror: try the others.
  for v in $(apt-cache showsrc "$pkg" | awk '/^Version:/{print $2}' | sort -uVr); do
    log "  $pkg: retrying with version $v"
    (cd "$SRC" && apt-get source --download-only "$pkg=$v" >>"$LOGS/sources.log" 2>&1) && return 0
  done
  die "could not download the source of $pkg"
}

log "downloading sources: ${SRC_PKGS[*]}"
for p in "${SRC_PKGS[@]}"; do
  fetch_source "$p"
  dsc=$(ls -t "$SRC/${p}_"*.dsc | head -n 1)
  (cd "$SRC" && dpkg-source -x "$(basename "$dsc")" >>"$LOGS/sources.log" 2>&1) ||
    die "dpkg-source -x $dsc failed"
  echo "src $p $(basename "$dsc" .dsc | sed "s/^${p}_//")" >> "$CDIR/built-from.txt"
done
TLSRC=$(ls -d "$SRC"/texlive-bin-*/ | head -n 1); TLSRC=${TLSRC%/}
ZSRC=$(ls -d "$SRC"/zlib-*/ | head -n 1); ZSRC=${ZSRC%/}
PNGSRC=$(ls -d "$SRC"/libpng1.6-*/ | head -n 1); PNGSRC=${PNGSRC%/}

log "building zlib with emcc"
run_logged zlib bash -c "cd '$ZSRC' && emconfigure ./configure --static --prefix='$PFX' &&
  emmake make -j$JOBS libz.a && emmake make install"

log "building libpng with emcc"
run_logged libpng bash -c "cd '$PNGSRC' && emconfigure ./configure --host=wasm32-unknown-emscripten \
  --disable-shared --enable-static --prefix='$PFX' CPPFLAGS=-I'$PFX/include' LDFLAGS=-L'$PFX/lib' &&
  emmake make -j$JOBS libpng16.la && emmake make install-libLTLIBRARIES install-data-am"

# Only libs/xpdf, texk/kpathsea and texk/web2c are needed for pdfTeX; TeX Live's
# configure only descends into subdirectories whose configure is executable.
for d in "$TLSRC"/libs/* "$TLSRC"/texk/* "$TLSRC"/utils/*; do
  [ -x "$d/configure" ] || continue
  case "${d#"$TLSRC"/}" in libs/xpdf|texk/kpathsea|texk/web2c) ;; *) chmod -x "$d/configure" ;; esac
done

log "configuring TeX Live for wasm32-unknown-emscripten (several minutes)"
run_logged tl-configure bash -c "cd '$BLD' && '$TLSRC/configure' \
  --host=wasm32-unknown-emscripten --build=x86_64-pc-linux-gnu \
  --disable-all-pkgs --enable-web2c --enable-pdftex --disable-native-texlive-build \
  --disable-tex --disable-ptex --disable-eptex --disable-uptex --disable-euptex --disable-aleph \
  --disable-hitex --disable-luatex --disable-luajittex --disable-luahbtex --disable-luajithbtex \
  --disable-mp --disable-pmp --disable-upmp --disable-xetex --disable-mf --disable-mflua \
  --disable-mfluajit --disable-web-progs --disable-synctex --disable-pdftex-synctex \
  --disable-etex --disable-tex-synctex \
  --enable-static --disable-shared --with-system-zlib --with-system-libpng \
  --without-x --disable-multiplatform --disable-linked-scripts --disable-ipc \
  CC=emcc CXX=em++ AR=emar RANLIB=emranlib BUILDCC=gcc BUILDCXX=g++ BUILDCFLAGS=-O2 \
  CFLAGS=-O2 CXXFLAGS=-O2 CPPFLAGS=-I'$PFX/include' LDFLAGS=-L'$PFX/lib' \
  PKG_CONFIG=pkg-config PKG_CONFIG_PATH='$PFX/lib/pkgconfig' PKG_CONFIG_LIBDIR='$PFX/lib/pkgconfig'"

log "compiling pdfTeX (make -j$JOBS, several minutes)"
run_logged tl-make bash -c "cd '$BLD' && make -j$JOBS"

log "linking pdftex.wasm"
EMLINK="-L$PFX/lib -O2 -sMODULARIZE=1 -sEXPORT_NAME=createPdftex -sENVIRONMENT=node \
  -sINVOKE_RUN=0 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=134217728 \
  -sFORCE_FILESYSTEM=1 -lnodefs.js -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 \
  -sEXPORTED_RUNTIME_METHODS=callMain,FS,ENV"
run_logged pdftex-link bash -c "cd '$BLD/texk/web2c' && rm -f pdftex pdftex.wasm &&
  make pdftex LDFLAGS='$EMLINK'"
cp "$BLD/texk/web2c/pdftex" "$RESULT/pdftex.cjs"
cp "$BLD/texk/web2c/pdftex.wasm" "$RESULT/pdftex.wasm"
PDFTEX_VERSION=$(sed -n "s/^@d pdftex_version_string=='-\\([0-9.]*\\)'.*/\\1/p" "$TLSRC/texk/web2c/pdftexdir/pdftex.web" | head -n 1)

# ---------------------------------------------------------------- texmf tree
log "downloading texmf packages: ${TEXMF_DEBS[*]}"
DEBS="$WORK/debs"; STAGE="$WORK/stage"; EXTRA="$WORK/extra"
mkdir -p "$DEBS" "$STAGE" "$EXTRA"
(cd "$DEBS" && apt-get download "${TEXMF_DEBS[@]}" >"$LOGS/debs.log" 2>&1) || die "apt-get download failed"
for p in "${TEXMF_DEBS[@]}"; do
  v=$(deb_version "$p")
  f=$(ls "$DEBS/${p}_"*.deb | head -n 1)
  want=$(apt-cache show --no-all-versions "$p" | awk '/^SHA256:/ && v == "" {v = $2} END {print v}')
  have=$(sha256sum "$f" | cut -d' ' -f1)
  [ "$want" = "$have" ] || die "SHA-256 mismatch for $f (apt-cache: $want, file: $have)"
  echo "deb $p $v sha256:$have" >> "$CDIR/built-from.txt"
  if [ "$p" = texlive-latex-extra ]; then dpkg -x "$f" "$EXTRA"; else dpkg -x "$f" "$STAGE"; fi
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
# prune: other engines, font sources and formats pdfTeX does not read
rm -rf "$TEXMF"/tex/{context,luatex,lualatex,xelatex,xetex,latex-dev} \
       "$TEXMF"/tex/latex/{lwarp,polyglossia,unicode-math,fontspec,beamer} \
       "$TEXMF"/fonts/{afm,source,opentype,truetype,misc,cmap,pfm,lig,ofm,ovf,ovp,ovf,type3} 2>/dev/null || true
find "$TEXMF" \( -name '*.pfm' -o -name '*.afm' -o -name '*.otf' -o -name '*.lua' -o -name '*.pdf' \
   -o -name 'README*' -o -name 'ls-R' \) -type f -delete
find "$TEXMF" -type d -empty -delete
# hyphenation: the US English set shipped by texlive-base (Debian builds
# language.dat at install time from /etc/texmf/hyphen.d).
CFG="$TEXMF/tex/generic/config"
cp "$CFG/language.us" "$CFG/language.dat"
cp "$CFG/language.us.def" "$CFG/language.def"
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
  cat "${MAPS[@]}"
} | awk '/^[%#]/ || NF == 0 { next } !seen[$1]++' > "$PMAP"
mkdir -p "$TEXMF/web2c"
[ -z "$(find "$TEXMF" -type l | head -n 1)" ] || die "symlinks left in $TEXMF"
# ls-R, as mktexlsr writes it (without needing texlive-base installed)
{ echo '% ls-R -- filename database for kpathsea; do not change this line.'
  (cd "$TEXMF" && LC_ALL=C ls -LAR ./); } > "$RESULT/ls-R.tmp"
mv "$RESULT/ls-R.tmp" "$TEXMF/ls-R"
cp "$HERE/tex/texmf.cnf" "$RESULT/texmf.cnf"

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
# keep only this build in the cache
for d in "$CACHE_ROOT"/*/; do
  [ "${d%/}" = "$CDIR" ] || { log "removing old cache entry ${d%/}"; rm -rf "${d%/}"; }
done
log "build finished in $(( $(date +%s) - T0 )) s"
install_result
