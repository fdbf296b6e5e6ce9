# pdfTeX compiled to WebAssembly, from Debian's texlive-bin, zlib and libpng
# sources: the slow part of scripts/build-tex.sh, sourced by it.  Its hash is
# part of the engine's cache key, so only a change here (or of the source
# packages and build tools) compiles the engine again.
#
#   build_engine <work dir> <out dir>
# writes pdftex.cjs, pdftex.wasm, pdftex-version and built-from.txt (the
# source package versions) into <out dir>.  Uses SRC_PKGS, JOBS, LOGS, log,
# die and run_logged of build-tex.sh.

build_engine() {
  local WORK=$1 OUT=$2
  local SRC="$WORK/src" PFX="$WORK/prefix" BLD="$WORK/build" p dsc d
  rm -rf "$WORK"
  mkdir -p "$SRC" "$PFX" "$BLD"

  # Debian's emcc: acorn comes from /usr/share/nodejs, and it must use its own cache.
  export NODE_PATH=/usr/share/nodejs
  unset EM_CACHE EMCC_CFLAGS || true

  fetch_source() { # source package -> unpacked dir name on stdout
    local pkg=$1 v
    (cd "$SRC" && apt_private apt-get source --download-only "$pkg" >>"$LOGS/sources.log" 2>&1) && return 0
    # The newest version is sometimes missing from the mirror: try the others.
    for v in $(apt_private apt-cache showsrc "$pkg" | awk '/^Version:/{print $2}' | sort -uVr); do
      log "  $pkg: retrying with version $v"
      (cd "$SRC" && apt_private apt-get source --download-only "$pkg=$v" >>"$LOGS/sources.log" 2>&1) && return 0
    done
    die "could not download the source of $pkg"
  }

  log "downloading sources: ${SRC_PKGS[*]}"
  : > "$OUT/built-from.txt"
  for p in "${SRC_PKGS[@]}"; do
    fetch_source "$p"
    dsc=$(ls -t "$SRC/${p}_"*.dsc | head -n 1)
    (cd "$SRC" && dpkg-source -x "$(basename "$dsc")" >>"$LOGS/sources.log" 2>&1) ||
      die "dpkg-source -x $dsc failed"
    echo "src $p $(basename "$dsc" .dsc | sed "s/^${p}_//")" >> "$OUT/built-from.txt"
  done
  local TLSRC ZSRC PNGSRC
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
  cp "$BLD/texk/web2c/pdftex" "$OUT/pdftex.cjs"
  cp "$BLD/texk/web2c/pdftex.wasm" "$OUT/pdftex.wasm"
  sed -n "s/^@d pdftex_version_string=='-\\([0-9.]*\\)'.*/\\1/p" "$TLSRC/texk/web2c/pdftexdir/pdftex.web" | head -n 1 > "$OUT/pdftex-version"
  rm -rf "$WORK"
}
